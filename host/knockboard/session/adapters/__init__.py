"""One adapter per game: how its positions look on the board and what presses mean."""

from ...layouts import get_layout
from .dodgeball import DodgeballUI
from .knockabout import KnockaboutUI
from .knockoff import KnockoffUI
from .ko import KOUI

_ADAPTERS = {"knockabout": KnockaboutUI, "dodgeball": DodgeballUI, "ko": KOUI,
             "knockoff": KnockoffUI}


def get_ui(game, layout=None):
    """The adapter for `game` (a knockboard.games Game) on its standard layout."""
    return _ADAPTERS[game.name](game, layout or get_layout(game.name))


__all__ = ["get_ui"]
