"""The rule engines behind one interface (see `base.py`), found by name.

Engines are imported on first use so that a command touching one game does not pay for the
others.  Each engine module registers itself by one line in `_ENGINES`.
"""

import importlib

from .base import (CHANCE, TERMINAL, Game, GameError, IllegalMoveError, NotationError,
                   OptionError, PositionError, State, sample_chance)

# game name -> "module:class", the module relative to this package
_ENGINES = {
    "knockabout": "knockabout:KnockaboutGame",
    "dodgeball": "dodgeball:DodgeballGame",
    "knockoff": "knockoff:KnockoffGame",
    "ko": "ko:KOGame",
}


def game_names():
    return sorted(_ENGINES)


def get_game(name, **options):
    """The Game registered as `name`, made with `options`.

    Raises GameError for an unknown name (listing the known ones) or a bad option."""
    try:
        target = _ENGINES[name]
    except KeyError:
        raise GameError(f"unknown game {name!r} (known: {', '.join(game_names())})") from None
    module_name, class_name = target.split(":")
    module = importlib.import_module("." + module_name, __name__)
    return getattr(module, class_name)(**options)


__all__ = ["CHANCE", "TERMINAL", "Game", "GameError", "IllegalMoveError", "NotationError",
           "OptionError", "PositionError", "State", "game_names", "get_game", "sample_chance"]
