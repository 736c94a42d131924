"""Dodgeball on the board: set-up by pressing back-row squares; a move, pass or throw by
pressing the pawn and then its target (the die to spend is asked when more than one
pays); the target's owner answers catch or dodge on the OLED and places a missed ball by
pressing its square.  In edit mode pawns and loose balls are moved, taken off (a pawn is
out, a ball spare) and put back; a pawn pressed again takes a spare ball or drops its own;
MENU also sets the starting balls on the centre line."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Optional, cast

from ...games.dodgeball.board import START_NAMES
from ..types import PASS, EditBoard, Option, Piece, Step, View, clip
from .base import GameUI

if TYPE_CHECKING:
    from ...games.base import Action, State
    from ...games.view import DodgeballView

# the teams by the colour their pawns are lit in (COLORS); the engine says "team 1", "team 2"
SEAT_NAMES = ("Blue", "Orange")
BALL_COLOR = 4          # palette index of a loose ball (a Piece in edit mode)
PAWNS = 5
BALLS = 3

# the four squares each starting ball touches (it lies on their common corner)
_TOUCH = {name: [f + r for f in name for r in "45"] for name in START_NAMES}


def _view(state: State) -> DodgeballView:
    return cast("DodgeballView", state.view())        # an adapter sees its own game only


def _pawns(view: DodgeballView) -> tuple[dict[str, bool], dict[str, bool]]:
    """Per team, square -> the pawn there carries a ball; squares in name order, the order
    the steps of an action list them in."""
    pawns: tuple[dict[str, bool], dict[str, bool]] = ({}, {})
    for sq in sorted(view.pieces):
        piece = view.pieces[sq]
        pawns[piece.owner][sq] = piece.ball
    return pawns


def _duel_names(ui: GameUI, view: DodgeballView) -> tuple[str, str]:
    """The teams of a throw: the thrower's, the target's."""
    assert view.throw is not None, "a duel is thrown"
    return (ui.seat_name(view.pieces[view.throw.thrower].owner),
            ui.seat_name(view.pieces[view.throw.target].owner))


def _duel_text(ui: GameUI, view: DodgeballView) -> str:
    """The duel's dice by team, as the OLED draws them: "Orange 2, Blue 6"."""
    assert view.throw is not None, "a duel is thrown"
    names = _duel_names(ui, view)
    return ", ".join(f"{names[i]} {roll}" for i, roll in enumerate(view.throw.rolls))


def _held_text(ui: GameUI, view: DodgeballView) -> str:
    """The dice the team not on turn holds for its next turn ("Orange holds 2 5 6"); the
    OLED draws those of the team on turn."""
    if view.turn < 0 or not view.team_dice:
        return ""
    other = 1 - view.turn
    held = view.team_dice[other][0]
    return f"{ui.seat_name(other)} holds {' '.join(map(str, held))}" if held else ""


def _dice_text(view: DodgeballView) -> str:
    """The dice of both teams as the position writes them: "35x/224"."""
    return "/".join("".join(map(str, unspent)) + "x" * spent or "-"
                    for unspent, spent in view.team_dice)


class DodgeballUI(GameUI):
    name = "dodgeball"
    COLORS = ((0, 90, 255), (255, 110, 0))              # SEAT_NAMES: team 1 blue, 2 orange
    CARRIER = ((150, 220, 255), (255, 220, 150))         # a pawn holding a ball
    TARGET = (0, 255, 0)
    SCORE_UNIT = "pawns left"
    BALL = (255, 0, 200)
    HINT = (255, 255, 255)                               # magenta is the balls'

    def colour_name(self, seat: int) -> str:
        return SEAT_NAMES[seat]

    def view(self, state: State) -> View:
        view = _view(state)
        pieces, marks = {}, {}
        for name in view.start_balls:
            for sq in _TOUCH[name]:
                marks[sq] = "start-ball"
        for sq in sorted(view.loose):
            marks[sq] = "ball"
        for team, pawns in enumerate(_pawns(view)):
            for sq, carries in pawns.items():
                letter = SEAT_NAMES[team][0]                    # "B", "O" on the terminal
                pieces[sq] = Piece(team, f"{letter}+" if carries else letter,
                                   color=team + 2 if carries else -1)
        dice, status = view.dice, _held_text(self, view)
        if view.throw:
            status = f"throw {view.throw.thrower}>{view.throw.target}"
            if view.throw.rolls:            # the duel's dice, whose each is
                dice, status = view.throw.rolls, _duel_text(self, view)
        return View(pieces, marks, dice, 6, status)

    def color(self, index: int) -> tuple[int, int, int]:
        if index >= BALL_COLOR:
            return self.BALL
        if index >= 2:
            return self.CARRIER[index - 2]
        return self.COLORS[index]

    def option(self, state: State, action: Action) -> Option:
        text = state.action_to_string(action)
        if text.startswith("place ") or text.startswith("ball "):
            return Option(action, (self.cell(text.split()[1]),), clip(text))
        if ":" in text:
            die, rest = text.split(":")
            kind, squares = rest.split(" ")
            src, dst = squares.split("-")
            return Option(action, (self.cell(src), self.cell(dst)), clip(text), int(die),
                          "knock" if kind == "throw" else "move")
        # catch, dodge, end (of the turn, with dice left: a pass)
        return Option(action, (), clip(text), kind=PASS if text == "end" else "move")

    def end_reason(self, state: State) -> str:
        if not state.is_terminal():
            return ""
        left = _view(state).scores
        return " ".join(f"{self.seat_name(team)} has no pawns left"
                        for team in (0, 1) if not left[team])

    def piece_words(self, piece: Piece) -> str:
        return f"{self.colour_name(piece.owner)} pawn"      # "O", "B+" on the terminal

    def prompt(self, state: State) -> str:
        view = _view(state)
        seat = self.seat_name(state.current_player())
        if view.phase == "setup":
            return clip(f"{seat}: place")
        if view.throw and view.throw.declared is None:
            return clip(f"{seat}: catch?")
        if view.throw and len(view.throw.rolls) == 2:
            return clip(f"{seat}: put ball")
        return clip(f"{seat} to act")

    def steps(self, before: State, action: Action, after: State) -> list[Step]:
        b, a = _view(before), _view(after)
        b_pawns, a_pawns = _pawns(b), _pawns(a)
        text = before.action_to_string(action)
        out = []
        moved = ("", "")                  # (from, to) of a pawn that moves; no square is ""
        if ":move " in text or ":pass " in text:
            src, dst = text.split(" ")[1].split("-")
            if ":move " in text:
                moved = (src, dst)
                team = 0 if src in b_pawns[0] else 1
                out.append(Step("move", src, dst, clip(f"pawn {src}>{dst}"), team))
            else:
                out.append(Step("ball", src, dst, clip(f"ball {src}>{dst}"), -1))
        for team in (0, 1):
            for sq in b_pawns[team]:
                if sq not in a_pawns[team] and sq != moved[0]:
                    out.append(Step("remove", sq, None, clip(f"{sq} is out"), team))
            for sq in a_pawns[team]:
                if sq not in b_pawns[team] and sq != moved[1]:
                    out.append(Step("place", None, sq, clip(f"pawn on {sq}"), team))
        if ":pass " not in text:
            for team in (0, 1):
                for sq, carries in a_pawns[team].items():
                    had = b_pawns[team].get(moved[0] if sq == moved[1] else sq, False)
                    if carries and not had:
                        out.append(Step("ball", None, sq, clip(f"{sq} takes ball"), team))
            for sq in sorted(Counter(a.loose) - Counter(b.loose)):
                out.append(Step("ball", None, sq, clip(f"ball on {sq}"), -1))
        return out

    def rolloff_roller(self, state: State) -> str:
        view = _view(state)
        return self.seat_name(0 if len(view.team_dice[0][0]) < 3 else 1)

    def rolloff_outcome(self, state: State) -> str:
        """Dodgeball's roll-off is won by the LOWER total: each team keeps the three dice it
        rolled for its first turn, so the team with the weaker dice plays first."""
        view = _view(state)
        totals = [sum(dice) for dice, _ in view.team_dice]
        first, other = view.turn, 1 - view.turn
        return (f"{self.seat_name(first)} starts: the lower total ({totals[first]} against "
                f"{totals[other]}) plays first, since each team keeps the dice it rolled for "
                "its first turn")

    def dice_owners(self, state: State) -> list[str]:
        view = _view(state)
        if view.throw:          # the duel: the thrower's die, then the target's
            return [_duel_names(self, view)[len(view.throw.rolls)]]
        if view.phase == "rolloff":
            team = 0 if len(view.team_dice[0][0]) < 3 else 1
        else:
            team = view.turn
        return [self.seat_name(team)]

    # --- edit mode ----------------------------------------------------------------------------
    EDIT_VARIANT = "ball"

    def edit_refusal(self, state: State) -> Optional[str]:
        reason = super().edit_refusal(state)
        if reason is None:
            view = _view(state)
            if view.phase == "setup":
                return "setup"
            if view.throw:
                return "throw"
        return reason

    def edit_board(self, state: State) -> EditBoard:
        view = _view(state)
        pawns = _pawns(view)
        pieces = {sq: _balls(view.loose[sq]) for sq in sorted(view.loose)}
        spare = []
        for team in (0, 1):
            for sq, carries in pawns[team].items():
                pieces[sq] = _pawn(team, carries)
            spare += [_pawn(team, False)] * (PAWNS - len(pawns[team]))
        held = sum(c for team in pawns for c in team.values()) + sum(view.loose.values())
        spare += [_balls(1)] * (BALLS - held - len(view.start_balls))
        return EditBoard(pieces, max(view.turn, 0), spare,
                         {"start": view.start_balls, "dice": f"dice:{_dice_text(view)}"})

    def edit_position(self, board: EditBoard) -> str:
        pawns: tuple[list[str], list[str]] = ([], [])
        balls = list(board.extra["start"])
        for sq in sorted(board.pieces):
            piece = board.pieces[sq]
            if piece.owner < 0:
                balls += [sq] * _ball_count(piece)
            else:
                pawns[piece.owner].append(sq + ("+" if _carries(piece) else ""))
        return (f"turn{board.turn + 1} 1:{','.join(pawns[0]) or '-'} "
                f"2:{','.join(pawns[1]) or '-'} balls:{','.join(balls) or '-'} "
                f"{board.extra['dice']}")

    def edit_marks(self, board: EditBoard) -> dict[str, str]:
        return {sq: "start-ball" for name in board.extra["start"] for sq in _TOUCH[name]}

    def edit_can_vary(self, board: EditBoard, space: str) -> bool:
        return board.pieces[space].owner >= 0            # a pawn: ball on or off

    def edit_vary(self, board: EditBoard, space: str) -> Optional[str]:
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

    def edit_move(self, board: EditBoard, src: str, dst: str) -> Optional[str]:
        piece = board.pieces[src]
        if piece.owner >= 0:
            return super().edit_move(board, src, dst)
        _take_ball(board, src)                          # one ball of a heap moves
        board.pieces[dst] = _balls(1)
        return None

    def edit_remove(self, board: EditBoard, space: str) -> Optional[str]:
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

    def edit_candidates(self, board: EditBoard, space: str) -> list[Piece]:
        team = 0 if space[1] in "1234" else 1
        return [p for p in (_pawn(team, False), _balls(1)) if p in board.spare]

    def edit_settings(self, board: EditBoard) -> list[tuple[str, str]]:
        on = board.extra["start"]
        return [("turn", clip(f"{self.seat_name(board.turn)} to act"))] + \
            [(name, f"ball {name}: " + ("line" if name in on else "off"))
             for name in START_NAMES]

    def edit_setting(self, board: EditBoard, key: str) -> Optional[str]:
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


def _pawn(team: int, carries: bool) -> Piece:
    if carries:
        return Piece(team, f"{SEAT_NAMES[team]}+ball", color=team + 2)
    return Piece(team, f"{SEAT_NAMES[team]} pawn")


def _carries(piece: Piece) -> bool:
    return piece.name.endswith("+ball")


def _balls(n: int) -> Piece:
    return Piece(-1, "ball" if n == 1 else f"{n} balls", color=BALL_COLOR)


def _ball_count(piece: Piece) -> int:
    return 1 if piece.name == "ball" else int(piece.name.split()[0])


def _take_ball(board: EditBoard, space: str) -> None:
    left = _ball_count(board.pieces[space]) - 1
    if left:
        board.pieces[space] = _balls(left)
    else:
        del board.pieces[space]
