"""The rule engines behind one interface (see `base.py`), found by name.

Each game is registered once, in `knockboard/registry.py` (which imports nothing of the
program); its engine is imported on first use so that a command touching one game does not
pay for the others.
"""

from .. import registry
from .base import (CHANCE, TERMINAL, Game, GameError, IllegalMoveError, NotationError,
                   OptionError, PositionError, State, sample_chance)


def game_names():
    return registry.names()


def get_game(name, **options):
    """The Game registered as `name`, made with `options`.

    Raises GameError for an unknown name (listing the known ones) or a bad option."""
    try:
        entry = registry.entry(name)
    except KeyError:
        raise GameError(f"unknown game {name!r} (known: {', '.join(game_names())})") from None
    return entry.load("engine")(**options)


__all__ = ["CHANCE", "TERMINAL", "Game", "GameError", "IllegalMoveError", "NotationError",
           "OptionError", "PositionError", "State", "game_names", "get_game", "sample_chance"]
