"""One adapter per game: how its positions look on the board and what presses mean.  Each
game's adapter is registered in `knockboard/registry.py` and imported on first use."""

from ... import registry
from ...layouts import get_layout


def get_ui(game, layout=None):
    """The adapter for `game` (a knockboard.games Game) on its standard layout."""
    return registry.part(game.name, "adapter")(game, layout or get_layout(game.name))


__all__ = ["get_ui"]
