"""Who plays each seat: a person at the board or a computer player (a bot from
`knockboard.bots`)."""

from __future__ import annotations

from typing import Optional, Protocol

from .. import bots
from ..games.base import Action, State
from ..store.record_json import REMOTE_SEAT

HUMAN = "human"
REMOTE = REMOTE_SEAT    # a seat played at another home's board (docs/remote.md)
BOTS = bots.BOTS
DEFAULT_BOT = "greedy"
# At the board the strong bot searches a fixed number of iterations, so that a resumed game
# goes on exactly as it would have; the time cap only keeps a slow machine responsive (the
# board gives up on a host silent for 3 s).
STRONG_ITERATIONS = 600
STRONG_TIME_CAP_S = 2.5


class ComputerPlayer(Protocol):
    """What the session asks of a bot from `knockboard.bots`."""

    def choose(self, state: State) -> Action: ...


class SeatError(ValueError):
    """A bad seat specification; the message says what is wrong."""


def make_bot(kind: str, seed: int) -> ComputerPlayer:
    if kind not in BOTS:
        raise SeatError(f"unknown computer player {kind!r} "
                        f"(known: {', '.join(sorted(BOTS))})")
    return bots.make_bot(kind, seed, budget=STRONG_TIME_CAP_S, iterations=STRONG_ITERATIONS)


def parse_bots(text: Optional[str], players: int) -> list[str]:
    """`--bots` text -> a list of seat kinds, one per seat: "2" (seat 2 is the default
    computer), "2,3", "2=random,3", "all", "none"."""
    seats = [HUMAN] * players
    text = (text or "").strip().lower()
    if text in ("", "none"):
        return seats
    if text == "all":
        return [DEFAULT_BOT] * players
    for part in text.split(","):
        number, _, kind = part.strip().partition("=")
        kind = kind or DEFAULT_BOT
        if kind not in BOTS:
            raise SeatError(f"--bots {part!r}: unknown computer player {kind!r} "
                            f"(known: {', '.join(sorted(BOTS))})")
        if not number.isdigit() or not 1 <= int(number) <= players:
            raise SeatError(f"--bots {part!r}: a seat is a number 1..{players}")
        seats[int(number) - 1] = kind
    return seats
