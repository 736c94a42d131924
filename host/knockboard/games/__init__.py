"""The rule engines behind one interface (see `base.py`), found by name.

Each game is registered once, in `knockboard/registry.py` (which imports nothing of the
program); its engine is imported on first use so that a command touching one game does not
pay for the others.
"""

from typing import Any, List

from .. import registry
from .base import (CHANCE, TERMINAL, Game, GameError, IllegalMoveError, NotationError,
                   OptionError, PositionError, State, sample_chance)


def game_names() -> List[str]:
    return registry.names()


def get_game(name: str, **options: Any) -> Game:
    """The Game registered as `name`, made with `options`.

    Raises GameError for an unknown name (listing the known ones) or a bad option."""
    try:
        entry = registry.entry(name)
    except KeyError:
        raise GameError(f"unknown game {name!r} (known: {', '.join(game_names())})") from None
    return entry.load("engine")(**options)


MAX_ROUNDS = 99    # a match's rounds at most: a number nobody means beyond (20 minutes each)


def get_match(game: Game, rounds: int) -> Any:
    """A match of `rounds` rounds of `game` (a Game) whose points are added, for a game
    whose rules have matches (K.O.'s `KOMatch`); None for rounds 1, a single game.

    Raises GameError for a game without matches or a number of rounds below 1."""
    if type(rounds) is not int or not 1 <= rounds <= MAX_ROUNDS:
        raise GameError(f"rounds {rounds!r}: a match has a whole number of rounds from 1 to "
                        f"{MAX_ROUNDS}")
    if rounds == 1:
        return None
    match = registry.entry(game.name).load("match")
    if match is None:
        raise GameError(f"{game.title} is played one game at a time: only K.O. has matches "
                        "of several rounds")
    return match(game, rounds)


__all__ = ["CHANCE", "MAX_ROUNDS", "TERMINAL", "Game", "GameError", "IllegalMoveError",
           "NotationError", "OptionError", "PositionError", "State", "game_names", "get_game",
           "get_match", "sample_chance"]
