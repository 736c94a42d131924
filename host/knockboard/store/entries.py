"""The entries of a game record: an engine action in the game's notation ("F3-N", "roll 4"),
or an edit, "edit <position>", where the players set the program's position by hand to
match the pieces on the board (edit mode, `docs/playing.md`).

An edit entry holds the whole position after the edit, in the engine's own position format,
so a record replays exactly: the edit's position is parsed (and checked) by the engine's
`from_position`, and the actions after it are applied to that state.  No engine notation
starts with "edit ", so the two kinds never collide.

A K.O. match (several rounds in one record, docs/records.md) has a third kind: "round <n>",
the start of round n, after which the game starts afresh from its real start (set-up and
roll-off).  No engine notation starts with "round " either."""

from __future__ import annotations

from typing import Iterable, Optional

from ..games.base import GameError, State

EDIT_PREFIX = "edit "
EDITED = "edit"      # who made an edit entry: the people at the board
ROUND_PREFIX = "round "
NEW_ROUND = "round"  # who made a round entry: the match, once the round before was over


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


def round_entry(number: int) -> str:
    """The record entry that starts round `number` of a match."""
    return f"{ROUND_PREFIX}{number}"


def round_number(entry: str) -> Optional[int]:
    """The round a round entry starts, or None for any other entry."""
    number = entry[len(ROUND_PREFIX):] if entry.startswith(ROUND_PREFIX) else ""
    return int(number) if number.isascii() and number.isdigit() else None


def has_rounds(entries: Iterable[str]) -> bool:
    return any(round_number(e) is not None for e in entries)


def replaces_state(entry: str) -> bool:
    """An edit or a new round: the state after it is a new one, not the one before with an
    action applied (so it is stepped back by keeping the state before, not by undo)."""
    return edited_position(entry) is not None or round_number(entry) is not None


def apply_entry(state: State, entry: str) -> State:
    """The state after `entry`: `state` itself with the action applied, or, for an edit, a new
    state made by the engine from the edit's position (its history starts there), or for a
    round entry the game's fresh start.  GameError (naming the culprit) for an illegal action,
    an impossible position or a round begun before the last one ended; `state` is then
    unchanged."""
    number = round_number(entry)
    if number is not None:
        if not state.is_terminal():
            raise GameError(f"round {number} cannot start: the round before is not over")
        return state.game.new_initial_state()
    position = edited_position(entry)
    if position is None:
        state.apply_text(entry)
        return state
    return state.game.from_position(position)
