"""Dodgeball on the board: set-up by pressing back-row squares; a move, pass or throw by
pressing the pawn and then its target (the die to spend is asked when more than one
pays); the target's owner answers catch or dodge on the OLED and places a missed ball by
pressing its square.  In edit mode pawns and loose balls are moved, taken off (a pawn is
out, a ball spare) and put back; a pawn pressed again takes a spare ball or drops its own;
MENU also sets the starting balls on the centre line."""

from collections import Counter

from ...games.dodgeball import START_NAMES
from ..types import EditBoard, Option, Piece, Step, View, clip
from .base import GameUI

BALL_COLOR = 4          # palette index of a loose ball (a Piece in edit mode)
PAWNS = 5
BALLS = 3

# the four squares each starting ball touches (it lies on their common corner)
_TOUCH = {name: [f + r for f in name for r in "45"] for name in START_NAMES}


class Parsed:
    """The fields of a Dodgeball position that the board shows."""

    def __init__(self, text):
        fields = text.split()
        self.stage = fields[0]
        self.pawns = ({}, {})                  # square -> carries a ball
        self.start, self.loose = [], Counter()
        self.dice = ("", "")
        self.throw = None
        for f in fields[1:]:
            key, _, value = f.partition(":")
            if key in ("1", "2"):
                team = int(key) - 1
                for sq in ([] if value == "-" else value.split(",")):
                    self.pawns[team][sq.rstrip("+")] = sq.endswith("+")
            elif key == "balls":
                for b in ([] if value == "-" else value.split(",")):
                    (self.start.append(b) if b in _TOUCH else self.loose.update([b]))
            elif key == "dice":
                self.dice = tuple("" if d == "-" else d for d in value.split("/"))
            elif key == "throw":
                self.throw = value.split(":")

    def acting_team(self):
        return int(self.stage[-1]) - 1 if self.stage[-1] in "12" else None


class DodgeballUI(GameUI):
    name = "dodgeball"
    COLORS = ((0, 90, 255), (255, 110, 0))              # team 1 blue, team 2 orange
    CARRIER = ((150, 220, 255), (255, 220, 150))         # a pawn holding a ball
    TARGET = (0, 255, 0)
    BALL = (255, 0, 200)

    def view(self, state):
        p = Parsed(state.to_position())
        pieces, marks = {}, {}
        for name in p.start:
            for sq in _TOUCH[name]:
                marks[sq] = "start-ball"
        for sq in p.loose:
            marks[sq] = "ball"
        for team in (0, 1):
            for sq, carries in p.pawns[team].items():
                pieces[sq] = Piece(team, f"{team + 1}+" if carries else str(team + 1),
                                   color=team + 2 if carries else -1)
        team = p.acting_team()
        dice = ()
        if team is not None and p.stage.startswith("turn"):
            dice = tuple(int(d) for d in p.dice[team] if d.isdigit())
        elif p.stage == "rolloff":
            dice = tuple(int(d) for d in p.dice[0 if len(p.dice[0]) < 3 else 1] if d.isdigit())
        status = f"dice {p.dice[0] or '-'}/{p.dice[1] or '-'}"
        if p.throw:
            status = f"throw {p.throw[0].replace('-', '>')}"
        return View(pieces, marks, dice, 6, status)

    def color(self, index):
        if index >= BALL_COLOR:
            return self.BALL
        if index >= 2:
            return self.CARRIER[index - 2]
        return self.COLORS[index]

    def option(self, state, action):
        text = state.action_to_string(action)
        if text.startswith("place ") or text.startswith("ball "):
            return Option(action, (self.cell(text.split()[1]),), clip(text))
        if ":" in text:
            die, rest = text.split(":")
            kind, squares = rest.split(" ")
            src, dst = squares.split("-")
            return Option(action, (self.cell(src), self.cell(dst)), clip(text), int(die),
                          "knock" if kind == "throw" else "move")
        return Option(action, (), clip(text))            # catch, dodge, end

    def prompt(self, state):
        p = Parsed(state.to_position())
        seat = self.seat_name(state.current_player())
        if p.stage.startswith("setup"):
            return clip(f"{seat}: place")
        if p.throw and len(p.throw) == 1:
            return clip(f"{seat}: catch?")
        if p.throw and len(p.throw) == 4:
            return clip(f"{seat}: put ball")
        return clip(f"{seat} to act")

    def steps(self, before, action, after):
        b, a = Parsed(before.to_position()), Parsed(after.to_position())
        text = before.action_to_string(action)
        out = []
        moved = (None, None)
        if ":move " in text or ":pass " in text:
            src, dst = text.split(" ")[1].split("-")
            if ":move " in text:
                moved = (src, dst)
                team = 0 if src in b.pawns[0] else 1
                out.append(Step("move", src, dst, clip(f"pawn {src}>{dst}"), team))
            else:
                out.append(Step("ball", src, dst, clip(f"ball {src}>{dst}"), -1))
        for team in (0, 1):
            for sq in b.pawns[team]:
                if sq not in a.pawns[team] and sq != moved[0]:
                    out.append(Step("remove", sq, None, clip(f"{sq} is out"), team))
            for sq in a.pawns[team]:
                if sq not in b.pawns[team] and sq != moved[1]:
                    out.append(Step("place", None, sq, clip(f"pawn on {sq}"), team))
        if ":pass " not in text:
            for team in (0, 1):
                for sq, carries in a.pawns[team].items():
                    had = b.pawns[team].get(moved[0] if sq == moved[1] else sq, False)
                    if carries and not had:
                        out.append(Step("ball", None, sq, clip(f"{sq} takes ball"), team))
            for sq in sorted(a.loose - b.loose):
                out.append(Step("ball", None, sq, clip(f"ball on {sq}"), -1))
        return out

    def dice_labels(self, state):
        p = Parsed(state.to_position())
        if p.throw:
            return ["thrower d6" if len(p.throw) == 2 else "target d6"]
        if p.stage == "rolloff":
            team = 0 if len(p.dice[0]) < 3 else 1
        else:
            team = p.acting_team()
        return [f"{self.seat_name(team)} d6"]

    # --- edit mode ----------------------------------------------------------------------------
    EDIT_VARIANT = "ball"

    def edit_refusal(self, state):
        reason = super().edit_refusal(state)
        if reason is None:
            p = Parsed(state.to_position())
            if p.stage.startswith("setup"):
                return "setup"
            if p.throw:
                return "throw"
        return reason

    def edit_board(self, state):
        text = state.to_position()
        p = Parsed(text)
        pieces = {sq: _balls(n) for sq, n in p.loose.items()}
        spare = []
        for team in (0, 1):
            for sq, carries in p.pawns[team].items():
                pieces[sq] = _pawn(team, carries)
            spare += [_pawn(team, False)] * (PAWNS - len(p.pawns[team]))
        held = sum(c for team in p.pawns for c in team.values()) + sum(p.loose.values())
        spare += [_balls(1)] * (BALLS - held - len(p.start))
        dice = next(f for f in text.split() if f.startswith("dice:"))
        team = p.acting_team()
        return EditBoard(pieces, 0 if team is None else team, spare,
                         {"start": tuple(p.start), "dice": dice})

    def edit_position(self, board):
        pawns, balls = ([], []), list(board.extra["start"])
        for sq in sorted(board.pieces):
            piece = board.pieces[sq]
            if piece.owner < 0:
                balls += [sq] * _ball_count(piece)
            else:
                pawns[piece.owner].append(sq + ("+" if _carries(piece) else ""))
        return (f"turn{board.turn + 1} 1:{','.join(pawns[0]) or '-'} "
                f"2:{','.join(pawns[1]) or '-'} balls:{','.join(balls) or '-'} "
                f"{board.extra['dice']}")

    def edit_marks(self, board):
        return {sq: "start-ball" for name in board.extra["start"] for sq in _TOUCH[name]}

    def edit_can_vary(self, board, space):
        return board.pieces[space].owner >= 0            # a pawn: ball on or off

    def edit_vary(self, board, space):
        pawn = board.pieces[space]
        if _carries(pawn):
            board.pieces[space] = _pawn(pawn.owner, False)
            board.spare.append(_balls(1))
            return None
        if _balls(1) not in board.spare:
            return "no spare ball"
        board.spare.remove(_balls(1))
        board.pieces[space] = _pawn(pawn.owner, True)
        return None

    def edit_move(self, board, src, dst):
        piece = board.pieces[src]
        if piece.owner >= 0:
            return super().edit_move(board, src, dst)
        _take_ball(board, src)                          # one ball of a heap moves
        board.pieces[dst] = _balls(1)
        return None

    def edit_remove(self, board, space):
        piece = board.pieces[space]
        if piece.owner < 0:
            _take_ball(board, space)
            board.spare.append(_balls(1))
        elif _carries(piece):                          # out: its ball stays on the square
            board.pieces[space] = _balls(1)
            board.spare.append(_pawn(piece.owner, False))
        else:
            super().edit_remove(board, space)
        return None

    def edit_candidates(self, board, space):
        team = 0 if space[1] in "1234" else 1
        return [p for p in (_pawn(team, False), _balls(1)) if p in board.spare]

    def edit_settings(self, board):
        on = board.extra["start"]
        return [("turn", clip(f"{self.seat_name(board.turn)} to act"))] + \
            [(name, f"ball {name}: " + ("line" if name in on else "off"))
             for name in START_NAMES]

    def edit_setting(self, board, key):
        if key == "turn":
            return super().edit_setting(board, key)
        on = board.extra["start"]
        if key in on:
            board.extra["start"] = tuple(n for n in on if n != key)
            board.spare.append(_balls(1))
            return None
        if _balls(1) not in board.spare:
            return "no spare ball"
        board.spare.remove(_balls(1))
        board.extra["start"] = tuple(n for n in START_NAMES if n in on or n == key)
        return None


def _pawn(team, carries):
    if carries:
        return Piece(team, f"T{team + 1}+ball", color=team + 2)
    return Piece(team, f"T{team + 1} pawn")


def _carries(piece):
    return piece.name.endswith("+ball")


def _balls(n):
    return Piece(-1, "ball" if n == 1 else f"{n} balls", color=BALL_COLOR)


def _ball_count(piece):
    return 1 if piece.name == "ball" else int(piece.name.split()[0])


def _take_ball(board, space):
    left = _ball_count(board.pieces[space]) - 1
    if left:
        board.pieces[space] = _balls(left)
    else:
        del board.pieces[space]
