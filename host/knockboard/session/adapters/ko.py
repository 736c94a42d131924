"""K.O. on the board: each player places pieces 1-6 secretly on their start spaces (the
OLED names the piece, the free start spaces light up); on a turn, press a piece and then
the space where it ends.  The piece's number decides which value of the throw it moves.
In edit mode pieces are moved, knocked out (off the board) and put back; the throw's moves
left stay as they are."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, cast

from ..types import PASS, EditBoard, Option, Piece, Step, View, clip
from .base import GameUI

if TYPE_CHECKING:
    from ...games.base import Action, State
    from ...games.ko.game import KOState
    from ...games.view import KOView
    from ...games.view import PieceView

LETTERS = "RGYB"
NAMES = {"R": "Red", "G": "Green", "Y": "Yellow", "B": "Blue"}


def _view(state: State) -> KOView:
    return cast("KOView", state.view())               # an adapter sees its own game only


def _placing(view: KOView) -> PieceView:
    """The piece to place next: there is one while the set-up lasts."""
    assert view.placing is not None, "no piece to place after the set-up"
    return view.placing


def _name(view: KOView, piece: PieceView) -> str:
    """A piece as the notation names it: "R3"."""
    return f"{view.letters[piece.color]}{piece.number}"


def _piece(view: KOView, piece: PieceView) -> Piece:
    return Piece(piece.owner, _name(view, piece), LETTERS.index(view.letters[piece.color]))


def _spaces(view: KOView) -> dict[str, str]:
    """Piece name -> the space it stands on."""
    return {_name(view, piece): space for space, piece in view.pieces.items()}


def _moves(view: KOView) -> list[str]:
    """The throw's moves left as the position writes them: "3>5", "*>4"."""
    return [f"{number if number else '*'}>{steps}" for number, steps in view.moves]


class KOUI(GameUI):
    name = "ko"
    PALETTE = {"R": (255, 0, 0), "G": (0, 255, 0), "Y": (255, 170, 0), "B": (0, 60, 255)}
    TARGET = (255, 255, 255)
    SCORE_UNIT = "points in play"

    def color(self, index: int) -> tuple[int, int, int]:
        return self.PALETTE[LETTERS[index % 4]]

    def view(self, state: State) -> View:
        view = _view(state)
        pieces = {space: _piece(view, piece) for space, piece in view.pieces.items()}
        return View(pieces, {}, view.dice, 6, " ".join(_moves(view)))

    def option(self, state: State, action: Action) -> Option:
        text = state.action_to_string(action)
        if "@" in text:
            return Option(action, (self.cell(text.split("@")[1]),), clip(text))
        if text == "pass":
            return Option(action, (), "pass", kind=PASS)
        piece, dst = text[:2], text[3:]
        src = _spaces(_view(state))[piece]
        return Option(action, (self.cell(src), self.cell(dst)), clip(text), 0,
                      "knock" if text[2] == "x" else "move")

    def end_reason(self, state: State) -> str:
        if not state.is_terminal():
            return ""
        view = _view(state)
        limit = cast("KOState", state).quiet_limit()
        if limit and view.quiet >= limit:           # KO-3
            return f"{view.quiet} turns with no knock-out"
        return "nothing left to knock out"

    def piece_words(self, piece: Piece) -> str:
        return f"{NAMES[piece.name[0]]} {piece.name[1:]}"        # "G3": Green's piece 3

    def prompt(self, state: State) -> str:
        view = _view(state)
        if view.phase == "setup":
            piece = _name(view, _placing(view))
            return clip(f"{NAMES[piece[0]]}: put {piece}")
        # "Green+Yellow to move" is shown "G+Y to move" (oled.abbreviate)
        return clip(f"{self.seat_name(state.current_player())} to move")

    def hides(self, state: State, action: Action) -> bool:
        return _view(state).phase == "setup"

    def public(self, view: KOView) -> KOView:
        """During the secret set-up (KO-1) the pieces are seen as colours only: which
        number stands where is each player's secret until the game starts."""
        if view.phase != "setup":
            return view
        from dataclasses import replace

        from ...games.view import frozen_map
        return replace(view, pieces=frozen_map((space, replace(piece, number=0))
                                               for space, piece in view.pieces.items()))

    def steps(self, before: State, action: Action, after: State) -> list[Step]:
        text = before.action_to_string(action)
        view = _view(before)
        if "@" in text:
            piece, dst = text.split("@")
            return [Step("place", None, dst, clip(f"{piece} on {dst}"), _placing(view).owner)]
        if len(text) < 4 or text[2] not in "-x":
            return []
        piece, dst = text[:2], text[3:]
        src = _spaces(view)[piece]
        out = []
        if text[2] == "x":
            victim = view.pieces[dst]
            out.append(Step("remove", dst, None, clip(f"{_name(view, victim)} out {dst}"),
                            victim.owner))
        out.append(Step("move", src, dst, clip(f"{piece} {src}>{dst}"),
                        view.pieces[src].owner))
        return out

    def dice_owners(self, state: State) -> list[str]:
        view = _view(state)
        if view.phase == "rolloff":
            return [self.seat_name(view.rolloff.index(0))] * 2
        return [self.seat_name(view.turn)] * 2

    # --- edit mode ----------------------------------------------------------------------------
    def edit_refusal(self, state: State) -> Optional[str]:
        reason = super().edit_refusal(state)
        if reason is None and _view(state).phase == "setup":
            return "setup"                    # the set-up is secret
        return reason

    def edit_board(self, state: State) -> EditBoard:
        view = _view(state)
        pieces = {space: _piece(view, piece) for space, piece in view.pieces.items()}
        seats = tuple("".join(view.letters[c] for c in colors) for colors in view.seat_colors)
        placed = _spaces(view)
        spare = [Piece(seat, f"{view.letters[c]}{k}", LETTERS.index(view.letters[c]))
                 for seat, colors in enumerate(view.seat_colors) for c in colors
                 for k in range(1, 7) if f"{view.letters[c]}{k}" not in placed]
        return EditBoard(pieces, view.turn, spare,
                         {"seats": seats, "colors": tuple("".join(seats)),
                          "moves": ",".join(_moves(view)),
                          # KO-3's count goes on through an edit: it is no knock-out
                          "quiet": f":q{view.quiet}" if view.quiet else ""})

    def edit_settings(self, board: EditBoard) -> list[tuple[str, str]]:
        seat = self.seat_name(board.turn)
        if len(seat) > 8:                   # "Green+Yellow": the OLED line holds 14 after "> "
            seat = board.extra["seats"][board.turn]
        label = f"{seat} to move" if len(seat) <= 6 else f"turn: {seat}"
        return [("turn", clip(label))]

    def edit_position(self, board: EditBoard) -> str:
        where = {piece.name: space for space, piece in board.pieces.items()}
        seats = board.extra["seats"]
        fields = ["/".join(seats),
                  f"turn:{seats[board.turn]}:{board.extra['moves']}{board.extra['quiet']}"]
        for c in board.extra["colors"]:
            fields.append(f"{c}=" + ",".join(where.get(f"{c}{k}", "-") for k in range(1, 7)))
        return " ".join(fields)
