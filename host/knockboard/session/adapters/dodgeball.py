"""Dodgeball on the board: set-up by pressing back-row squares; a move, pass or throw by
pressing the pawn and then its target (the die to spend is asked when more than one
pays); the target's owner answers catch or dodge on the OLED and places a missed ball by
pressing its square."""

from collections import Counter

from ...games.dodgeball import START_NAMES
from ..types import Option, Piece, Step, View, clip
from .base import GameUI

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
