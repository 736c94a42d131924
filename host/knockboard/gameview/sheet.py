"""A record read as a score sheet: each entry with who made it (a seat by its colour or
name, "roll-off" or "dice" for a chance outcome, "edit" for a position set by hand, "round"
for the start of a K.O. match's next round) and,
for a player's move, the spaces it went from and to, so the last move can be marked.
`knockboard show`, the game view's move list and its SVG export all read it from here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from ..games import CHANCE
from ..session.adapters import get_ui
from ..store.entries import apply_entry, edited_position, round_number

if TYPE_CHECKING:
    from ..games.base import State
    from ..session.adapters.base import GameUI

NOT_A_MOVE = ("roll-off", "dice", "edit", "round")
WHO_WIDTH = 8          # the column of names on a printed sheet


@dataclass(frozen=True)
class SheetEntry:
    who: str           # the seat's name ("Red", "White"), or one of NOT_A_MOVE
    text: str          # the entry as the record holds it (an edit: its position)
    spaces: tuple = ()  # a player's move: the space it left, then where it ended

    @property
    def is_move(self) -> bool:
        return self.who not in NOT_A_MOVE


def score_sheet(record) -> list[SheetEntry]:
    """Every entry of `record` (it must replay: callers check with `record.replay()`)."""
    state = record.initial_state()
    ui = get_ui(state.game, names=record.names)      # who moved: by the players' names
    out = []
    for entry in record.actions:
        out.append(sheet_entry(ui, state, entry))
        state = apply_entry(state, entry)
    return out


def sheet_entry(ui: GameUI, state: State, entry: str) -> SheetEntry:
    """The sheet's line for `entry`, played in `state` (not changed)."""
    position = edited_position(entry)
    if position is not None:
        return SheetEntry("edit", position)      # "edit" once, in the who column
    if round_number(entry) is not None:
        return SheetEntry("round", str(round_number(entry)))
    player = state.current_player()
    if player == CHANCE:
        return SheetEntry("roll-off" if state.view().phase == "rolloff" else "dice", entry)
    return SheetEntry(ui.seat_name(player), entry, _spaces(ui, state, entry))


def _spaces(ui: GameUI, state: State, entry: str) -> tuple:
    """Where a move went from and to: its first press, and where the piece pressed ended
    (a KNOCKabout die travels on past the cell pressed) or else its last press."""
    action = state.parse_action(entry)
    pressed = tuple(ui.layout.space_of(c) for c in ui.option(state, action).path)
    if len(pressed) < 2:
        return pressed
    after = state.clone()
    after.apply(action)
    ended = [s.dst for s in ui.steps(state, action, after)
             if s.kind == "move" and s.src == pressed[0] and s.dst]
    return (pressed[0], ended[0] if ended else pressed[-1])


def last_move(sheet: Sequence[SheetEntry]) -> tuple:
    """The spaces of the last player's move on the sheet, () if none."""
    return next((e.spaces for e in reversed(sheet) if e.is_move), ())


def sheet_line(ply: int, entry: SheetEntry) -> str:
    """One printed line: "  12. Red      H1-1a"."""
    return f"{ply:4}. {entry.who:<{WHO_WIDTH}} {entry.text}"
