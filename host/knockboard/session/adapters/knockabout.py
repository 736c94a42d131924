"""KNOCKabout on the board: press a die, then the neighbouring cell in the direction it
should go (the first step of its move); a chain is shown die by die, and the die that
must be rerolled is named with its new face.  In edit mode a die is moved, taken off the
board or put back on, and pressed again to turn it to its next face."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Optional, cast

from ...ascii_board import render_knockabout
from ...games.knockabout.game import GUTTER_LOSS
from ...games.knockabout.position import DICE_PER_PLAYER
from ...games.knockabout.board import CELL_INDEX, STEP
from ..types import PASS, EditBoard, Option, Piece, Step, View, clip
from .base import GameUI

if TYPE_CHECKING:
    from ...games.base import Action, State
    from ...games.knockabout import KnockaboutState
    from ...games.view import KnockaboutView


class KnockaboutUI(GameUI):
    name = "knockabout"
    COLORS = ((255, 255, 255), (0, 90, 255))          # White, Black (blue light)
    TARGET = (0, 255, 0)
    SCORE_UNIT = "in the gutter"
    FEWEST_LEAD = True

    def view(self, state: State) -> View:
        view = _view(state)
        marks = {view.reroll: "reroll"} if view.reroll else {}
        gutter = view.scores
        return View(_pieces(view), marks, status=f"gutter W{gutter[0]} B{gutter[1]}")

    def option(self, state: State, action: Action) -> Option:
        text = state.action_to_string(action)
        if text == "pass":
            return Option(action, (), "pass", kind=PASS)
        space, direction = text.split("-")
        cell = CELL_INDEX[space]
        first = STEP[cell][("N", "NE", "SE", "S", "SW", "NW").index(direction)]
        target = self.layout.cell(_name(first)).index
        # where the die itself stops (a die that only knocks its neighbour does not move)
        ends = [dst for src, dst in _dice(state).move_trace(action) if src == space][:1]
        landing = self.cell(ends[0]) if ends else None
        return Option(action, (self.cell(space), target), clip(text),
                      landing=landing if landing != target else None)

    def steps(self, before: State, action: Action, after: State) -> list[Step]:
        if before.is_chance_node():
            space = _view(before).reroll
            if space is None:
                return []                              # the roll-off moves nothing
            owner, sides, old = _die_at(before, space)
            new = _die_at(after, space)[2]
            return [Step("face", space, None, clip(f"{space} d{sides} to {new}"), owner,
                         new, old)]
        out = []
        for src, dst in _dice(before).move_trace(action):
            owner, sides, face = _die_at(before, src)
            out.append(Step("move", src, dst, clip(f"{'WB'[owner]}{sides} {src}>{dst}"), owner))
        return out

    def die_kind(self, state: State) -> int:
        space = _view(state).reroll
        if space is not None:
            return _die_at(state, space)[1]
        return 6

    def dice_owners(self, state: State) -> list[str]:
        view = _view(state)
        if view.rolloff_pending:
            return [self.seat_name(0), self.seat_name(1)]
        return [f"reroll {view.reroll}"]

    def end_reason(self, state: State) -> str:
        if not state.is_terminal():
            return ""
        gutter = _view(state).scores
        out = [seat for seat in (0, 1) if gutter[seat] >= GUTTER_LOSS]
        if len(out) == 2:       # K-1: both reached five with one move; the mover loses
            loser = 1 - max(range(2), key=lambda seat: state.returns()[seat])
            return (f"both have {GUTTER_LOSS} in the gutter; "
                    f"{self.seat_name(loser)} moved last")
        return f"{self.seat_name(out[0])} has {gutter[out[0]]:g} dice in the gutter"

    def piece_words(self, piece: Piece) -> str:
        return f"{self.colour_name(piece.owner)} d{piece.name[1]}"   # "W8=3": White's d8

    def rolloff_roller(self, state: State) -> str:
        return f"{self.seat_name(0)} and {self.seat_name(1)} (each a d6)"

    def prompt(self, state: State) -> str:
        return clip(f"{self.seat_name(state.current_player())} to move")

    def text_board(self, state: State) -> str:
        return render_knockabout(state)

    # --- edit mode: pieces are dice named like the position format ("W4=1") -----------------
    EDIT_VARIANT = "face"

    def edit_board(self, state: State) -> EditBoard:
        view = _view(state)
        pieces = _pieces(view)
        # the dice off the board: what a full set (four d4, three d6, two d8) lacks
        counts = Counter(p.name[:2] for p in pieces.values())
        spare = [Piece(owner, f"{letter}{sides}=1")
                 for owner, letter in enumerate("WB")
                 for sides, full in DICE_PER_PLAYER.items()
                 for _ in range(full - counts[f"{letter}{sides}"])]
        return EditBoard(pieces, view.turn, spare)

    def edit_position(self, board: EditBoard) -> str:
        dice = sorted(board.pieces.items(), key=lambda item: CELL_INDEX[item[0]])
        return " ".join(["WB"[board.turn]] + [f"{space}:{p.name}" for space, p in dice])

    def edit_vary(self, board: EditBoard, space: str) -> Optional[str]:
        piece = board.pieces[space]
        sides, face = int(piece.name[1]), int(piece.name[3:])
        board.pieces[space] = Piece(piece.owner, f"{piece.name[:3]}{face % sides + 1}")
        return None


def _view(state: State) -> KnockaboutView:
    return cast("KnockaboutView", state.view())       # an adapter sees its own game only


def _dice(state: State) -> KnockaboutState:
    return cast("KnockaboutState", state)


def _die_at(state: State, space: str) -> tuple[int, int, int]:
    """(owner, sides, face) of the die on `space`, which the position says holds one (a
    reroll's cell, a cell a move starts from)."""
    die = _dice(state).die_at(space)
    if die is None:
        raise ValueError(f"no die on {space} in {state.to_position()!r}")
    return die


def _pieces(view: KnockaboutView) -> dict[str, Piece]:
    """The dice as the session's pieces, named like the position format ("W4=1")."""
    return {space: Piece(die.owner, f"{'WB'[die.owner]}{die.sides}={die.face}")
            for space, die in view.pieces.items()}


def _name(cell: int) -> str:
    from ...games.knockabout.board import CELL_NAMES
    return CELL_NAMES[cell]
