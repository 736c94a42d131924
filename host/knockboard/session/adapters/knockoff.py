"""Knock-Off on the board: press a pawn (or the home base) and then the platform where it
lands; the price picks the dice (one die, the other, or both in one leap).  OK offers
`pass` (give up the rest of the roll); a double rolls again by itself.  In edit mode a
pawn is moved, sent back home (MENU, or a press on its home base) and brought out of its
home base onto a platform; the dice of the turn stay as they are."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, cast

from ..types import PASS, EditBoard, Option, Piece, Step, View, clip
from .base import GameUI

if TYPE_CHECKING:
    from ...games.base import Action, State
    from ...games.knockoff import KnockoffGame
    from ...games.knockoff.board import KnockoffBoard
    from ...games.view import KnockoffView


def _view(state: State) -> KnockoffView:
    return cast("KnockoffView", state.view())         # an adapter sees its own game only


def _owner(view: KnockoffView, space: str) -> Optional[int]:
    """The seat of the pawn on a platform, or None."""
    piece = view.piece_at(space)
    return None if piece is None else piece.owner


SEAT_NAMES = ("Red", "Green", "Yellow", "Blue")     # the seats by their pawns' colour


def pawn(seat: int) -> str:
    """A pawn's name on the board and the terminal: its colour's letter ("R")."""
    return SEAT_NAMES[seat][0]


class KnockoffUI(GameUI):
    name = "knockoff"
    COLORS = ((255, 0, 0), (0, 255, 0), (255, 170, 0), (0, 60, 255))
    TARGET = (255, 255, 255)
    SCORE_UNIT = "on the top row"

    def colour_name(self, seat: int) -> str:
        # the engine's notation says P1..P4; at the table the players know their colour
        return SEAT_NAMES[seat]

    @property
    def platforms(self) -> KnockoffBoard:
        """The game's geometry (the engine's `board`)."""
        game: KnockoffGame = cast("KnockoffGame", self.game)   # the adapter of its game
        return game.board

    def homes(self) -> list[str]:
        board = self.platforms
        return [board.names[i] for i in board.seats[self.game.num_players]]

    def view(self, state: State) -> View:
        view = _view(state)
        pieces = {}
        for seat, at_home in enumerate(view.home):
            for space in view.spaces_of(seat):
                pieces[space] = Piece(seat, pawn(seat))
            if at_home:
                pieces[view.home_bases[seat]] = Piece(seat, f"{pawn(seat)}x{at_home}")
        dice: tuple[int, ...] = ()
        status = ""
        if view.phase == "move":
            dice = view.dice
            status = "double: again" if view.extra_roll else ""
        return View(pieces, {}, dice, 6, status)

    def option(self, state: State, action: Action) -> Option:
        text = state.action_to_string(action)
        if text == "pass":
            return Option(action, (), "pass", kind=PASS)
        src, dst = text.split("-")
        knock = dst in _view(state).pieces
        return Option(action, (self.cell(src), self.cell(dst)), clip(text), 0,
                      "knock" if knock else "move")

    def end_reason(self, state: State) -> str:
        if not state.is_terminal():
            return ""
        view = _view(state)
        winner = max(range(len(view.scores)), key=lambda seat: view.scores[seat])
        return f"{self.seat_name(winner)} has {view.scores[winner]:g} pawns on the top row"

    def piece_words(self, piece: Piece) -> str:
        # a home base's piece is the pawns at home ("Gx4" on the terminal)
        kind = "home base" if "x" in piece.name else "pawn"
        return f"{self.colour_name(piece.owner)} {kind}"

    def prompt(self, state: State) -> str:
        return clip(f"{self.seat_name(state.current_player())} to move")

    def steps(self, before: State, action: Action, after: State) -> list[Step]:
        text = before.action_to_string(action)
        if "-" not in text or text.startswith("roll"):
            return []
        src, dst = text.split("-")
        view = _view(before)
        mover = _owner(view, src)
        if mover is None:                      # from a home base
            mover = self.homes().index(src)
        out = []
        victim = _owner(view, dst)
        if victim is not None:
            home = self.homes()[victim]
            victim_name = self.colour_name(victim)
            out.append(Step("move", dst, home, clip(f"{victim_name} {dst}>home"), victim))
        mover_name = self.colour_name(mover)
        out.append(Step("move", src, dst, clip(f"{mover_name} {src}>{dst}"), mover))
        return out

    def dice_owners(self, state: State) -> list[str]:
        view = _view(state)
        if view.phase == "rolloff":
            return [self.seat_name(view.rolloff.index(0))]
        return super().dice_owners(state)

    def text_board(self, state: State) -> str:
        view = self.view(state)
        board = self.platforms
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

    # --- edit mode: platform pawns "R", home bases "Rx3" (pawns at home) ---------------------
    def edit_board(self, state: State) -> EditBoard:
        view = _view(state)
        dice = "".join(map(str, view.dice)) + ("+" if view.extra_roll else "")
        return EditBoard(dict(self.view(state).pieces), view.turn, [],
                         {"status": f"dice {dice}"})

    def edit_position(self, board: EditBoard) -> str:
        seats = [sorted(self._platforms(board, seat)) for seat in range(len(self.homes()))]
        return ("/".join(",".join(s) or "-" for s in seats)
                + f" P{board.turn + 1} {board.extra['status']}")

    def _platform(self, space: str) -> int:
        board = self.platforms
        return board.index[space] < board.num_platforms

    def _platforms(self, board: EditBoard, seat: int) -> set[str]:
        return {s for s, p in board.pieces.items() if p.owner == seat and self._platform(s)}

    def _at_home(self, board: EditBoard, seat: int) -> int:
        piece = board.pieces.get(self.homes()[seat])
        return int(piece.name.split("x")[1]) if piece else 0

    def _set_home(self, board: EditBoard, seat: int, count: int) -> None:
        home = self.homes()[seat]
        if count:
            board.pieces[home] = Piece(seat, f"{pawn(seat)}x{count}")
        else:
            board.pieces.pop(home, None)

    def edit_takes(self, board: EditBoard, src: str, dst: str) -> bool:
        homes = self.homes()
        return src not in homes and dst == homes[board.pieces[src].owner]

    def edit_move(self, board: EditBoard, src: str, dst: str) -> Optional[str]:
        homes = self.homes()
        seat = board.pieces[src].owner
        if not self._platform(dst):
            if src in homes or dst != homes[seat]:
                return "not a platform"
            return self.edit_remove(board, src)
        if src in homes:                              # a pawn comes out of its home base
            self.edit_put(board, dst, Piece(seat, pawn(seat)))
            return None
        return super().edit_move(board, src, dst)

    def edit_remove(self, board: EditBoard, space: str) -> Optional[str]:
        if space in self.homes():
            return "at home already"
        seat = board.pieces.pop(space).owner
        self._set_home(board, seat, self._at_home(board, seat) + 1)
        return None

    def edit_candidates(self, board: EditBoard, space: str) -> list[Piece]:
        if not self._platform(space):
            return []
        return [Piece(seat, pawn(seat)) for seat in range(len(self.homes()))
                if self._at_home(board, seat)]

    def edit_put(self, board: EditBoard, space: str, piece: Piece) -> None:
        self._set_home(board, piece.owner, self._at_home(board, piece.owner) - 1)
        board.pieces[space] = piece

    def edit_piece_steps(self, before: EditBoard, after: EditBoard) -> list[Step]:
        """Pawns of one player are alike: the platforms each player left and reached,
        paired up as moves; the rest go home or come out of it."""
        homes = self.homes()
        steps = []
        for seat, home in enumerate(homes):
            was, now = self._platforms(before, seat), self._platforms(after, seat)
            left, reached = sorted(was - now), sorted(now - was)
            name = self.colour_name(seat)
            for src, dst in zip(left, reached):
                steps.append(Step("move", src, dst, clip(f"{name} {src}>{dst}"), seat))
            for src in left[len(reached):]:
                steps.append(Step("move", src, home, clip(f"{name} {src}>home"), seat))
            for dst in reached[len(left):]:
                steps.append(Step("move", home, dst, clip(f"{name} home>{dst}"), seat))
        return steps


def _short(view: View, space: str) -> str:
    piece = view.pieces.get(space)
    return piece.name if piece else "."
