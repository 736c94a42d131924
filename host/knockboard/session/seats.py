"""Who plays each seat: a person at the board or a computer player: a level (`easy`,
`fair`, `hard`: `knockboard.bots.levels`), or one of the bots by its name (`random`,
`greedy`, `strong`: saved games name them, and `--bots 2=random` still works)."""

from __future__ import annotations

from typing import Optional, Protocol

from .. import bots
from ..bots.levels import LEVEL_BOTS, LEVELS, PLAY_TIME_CAP_S, make_level, playing_iterations
from ..games.base import Action, State
from ..store.record_json import REMOTE_SEAT

HUMAN = "human"
REMOTE = REMOTE_SEAT    # a seat played at another home's board (docs/remote.md)
BOTS = bots.BOTS
COMPUTERS = LEVELS + tuple(BOTS)       # every kind of computer seat, the levels first
DEFAULT_BOT = "fair"
STRONG_TIME_CAP_S = PLAY_TIME_CAP_S


class ComputerPlayer(Protocol):
    """What the session asks of a bot from `knockboard.bots`."""

    def choose(self, state: State) -> Action: ...


class SeatError(ValueError):
    """A bad seat specification; the message says what is wrong."""


def unknown(kind: str) -> str:
    """The one-line complaint about a seat kind that is none of COMPUTERS."""
    return (f"unknown computer player {kind!r} (levels: {', '.join(LEVELS)}; "
            f"or a bot: {', '.join(BOTS)})")


def make_bot(kind: str, seed: int, game_name: Optional[str] = None) -> ComputerPlayer:
    """The computer player of a seat kind in game `game_name` (the search's budget depends
    on the game: `levels.playing_iterations`)."""
    if kind in LEVELS:
        return make_level(kind, seed, game_name)
    if kind not in BOTS:
        raise SeatError(unknown(kind))
    return bots.make_bot(kind, seed, budget=STRONG_TIME_CAP_S,
                         iterations=playing_iterations(game_name))


def level_of(kind: str) -> Optional[str]:
    """The level a seat kind plays as (a level itself, or the bot a level is), or None
    (`random` plays below every level)."""
    if kind in LEVELS:
        return kind
    return next((level for level, bot in LEVEL_BOTS.items() if bot == kind), None)


def parse_bots(text: Optional[str], players: int) -> list[str]:
    """`--bots` text -> a list of seat kinds, one per seat: "2" (seat 2 is the default
    computer, the `fair` level), "2,3", "2=easy,3=hard", "2=random", "all", "all=hard"
    (every seat; a seat named after it changes that seat: "all=easy,2=hard"), "none"."""
    seats = [HUMAN] * players
    text = (text or "").strip().lower()
    if text in ("", "none"):
        return seats
    for part in text.split(","):
        number, equals, kind = (word.strip() for word in part.partition("="))
        kind = kind if equals else DEFAULT_BOT      # "2=" names no computer: refused
        if kind not in COMPUTERS:
            raise SeatError(f"--bots {part!r}: {unknown(kind)}")
        if number == "all":
            seats = [kind] * players
        elif not number.isdigit() or not 1 <= int(number) <= players:
            raise SeatError(f"--bots {part!r}: a seat is a number 1..{players} or all")
        else:
            seats[int(number) - 1] = kind
    return seats
