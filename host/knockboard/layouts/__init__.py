"""Board layouts: for each game, its physical cells (the firmware's cell numbers), where
they sit on the printed overlay and which game space each one is.  The one source of board
geometry for the play session, the simulator and the printable overlays."""

from functools import lru_cache

from .. import registry
from .base import LayoutCell, Layout, Line, Mark


def layout_names():
    return registry.names()


@lru_cache(maxsize=None)
def get_layout(game):
    """The standard board layout of `game`; KeyError naming the known games otherwise."""
    try:
        entry = registry.entry(game)
    except KeyError:
        raise KeyError(f"no layout for {game!r} (known: {', '.join(layout_names())})") from None
    return entry.load("layout")()


__all__ = ["LayoutCell", "Layout", "Line", "Mark", "get_layout", "layout_names"]
