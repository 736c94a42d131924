"""Knock-Off on the board: press a pawn (or the home base) and then the platform where it
lands; the price picks the dice (one die, the other, or both in one leap).  OK offers
`pass` (give up the rest of the roll); a double rolls again by itself."""

from ..types import Option, Piece, Step, View, clip
from .base import GameUI


class Parsed:
    def __init__(self, text):
        fields = text.split()
        self.seats = [[] if s == "-" else s.split(",") for s in fields[0].split("/")]
        self.status = fields[1:]

    def owner(self, space):
        return next((i for i, s in enumerate(self.seats) if space in s), None)


class KnockoffUI(GameUI):
    name = "knockoff"
    COLORS = ((255, 0, 0), (0, 255, 0), (255, 170, 0), (0, 60, 255))
    TARGET = (255, 255, 255)

    def homes(self):
        board = self.game.board
        return [board.names[i] for i in board.seats[self.game.num_players]]

    def view(self, state):
        p = Parsed(state.to_position())
        pieces = {}
        for seat, spaces in enumerate(p.seats):
            for space in spaces:
                pieces[space] = Piece(seat, f"P{seat + 1}")
            at_home = 4 - len(spaces)
            if at_home:
                pieces[self.homes()[seat]] = Piece(seat, f"P{seat + 1}x{at_home}")
        dice, status = (), ""
        if len(p.status) >= 3 and p.status[1] == "dice":
            dice = tuple(int(d) for d in p.status[2].rstrip("+"))
            status = "double: again" if p.status[2].endswith("+") else ""
        return View(pieces, {}, dice, 6, status)

    def option(self, state, action):
        text = state.action_to_string(action)
        if text == "pass":
            return Option(action, (), "pass")
        src, dst = text.split("-")
        knock = Parsed(state.to_position()).owner(dst) is not None
        return Option(action, (self.cell(src), self.cell(dst)), clip(text), 0,
                      "knock" if knock else "move")

    def prompt(self, state):
        return clip(f"{self.seat_name(state.current_player())} to move")

    def steps(self, before, action, after):
        text = before.action_to_string(action)
        if "-" not in text or text.startswith("roll"):
            return []
        src, dst = text.split("-")
        p = Parsed(before.to_position())
        mover = p.owner(src)
        if mover is None:                      # from a home base
            mover = self.homes().index(src)
        out = []
        victim = p.owner(dst)
        if victim is not None:
            home = self.homes()[victim]
            out.append(Step("move", dst, home, clip(f"P{victim + 1} {dst}>home"), victim))
        out.append(Step("move", src, dst, clip(f"P{mover + 1} {src}>{dst}"), mover))
        return out

    def dice_labels(self, state):
        p = Parsed(state.to_position())
        if p.status[0] == "rolloff":
            marks = p.status[1]
            return [f"P{marks.index('?') + 1} d6"]
        return ["d6", "d6"]

    def text_board(self, state):
        view = self.view(state)
        board = self.game.board
        levels = sorted({lv for lv in board.level if lv}, reverse=True)
        columns = sorted({n[1:] for n in board.names[:board.num_platforms]})
        lines = ["     " + "".join(f"{c:>4}" for c in columns)]
        for lv in levels:
            row = "".join(f"{_short(view, f'{lv}{c}'):>4}" for c in columns)
            lines.append(f"  {lv}: {row}")
        homes = "  ".join(f"{h}:{view.pieces[h].name if h in view.pieces else '-'}"
                          for h in self.homes())
        lines.append("homes " + homes)
        return "\n".join(lines)


def _short(view, space):
    piece = view.pieces.get(space)
    return piece.name if piece else "."
