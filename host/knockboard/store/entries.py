"""The entries of a game record: an engine action in the game's notation ("F3-N", "roll 4"),
or an edit, "edit <position>", where the players set the program's position by hand to
match the pieces on the board (edit mode, `docs/playing.md`).

An edit entry holds the whole position after the edit, in the engine's own position format,
so a record replays exactly: the edit's position is parsed (and checked) by the engine's
`from_position`, and the actions after it are applied to that state.  No engine notation
starts with "edit ", so the two kinds never collide."""

from __future__ import annotations

from typing import Iterable, Optional

from ..games.base import State

EDIT_PREFIX = "edit "
EDITED = "edit"      # who made an edit entry: the people at the board


def edit_entry(position: str) -> str:
    """The record entry of an edit that leaves the game in `position`."""
    return EDIT_PREFIX + position


def edited_position(entry: str) -> Optional[str]:
    """The position an edit entry sets, or None for an engine action."""
    if entry.startswith(EDIT_PREFIX):
        return entry[len(EDIT_PREFIX):]
    return None


def has_edits(entries: Iterable[str]) -> bool:
    return any(edited_position(e) is not None for e in entries)


def apply_entry(state: State, entry: str) -> State:
    """The state after `entry`: `state` itself with the action applied, or, for an edit, a new
    state made by the engine from the edit's position (its history starts there).  GameError
    (naming the culprit) for an illegal action or an impossible position; `state` is then
    unchanged."""
    position = edited_position(entry)
    if position is None:
        state.apply_text(entry)
        return state
    return state.game.from_position(position)
