"""One adapter per game: how its positions look on the board and what presses mean.  Each
game's adapter is registered in `knockboard/registry.py` and imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence

from ... import registry
from ...layouts import get_layout

if TYPE_CHECKING:
    from ...games.base import Game
    from ...layouts.base import Layout
    from .base import GameUI


def get_ui(game: Game, layout: Optional[Layout] = None, names: Sequence[str] = ()) -> GameUI:
    """The adapter for `game` (a knockboard.games Game) on its standard layout; `names`:
    the players' names by seat, which it then says instead of the seats' colours."""
    return registry.part(game.name, "adapter")(game, layout or get_layout(game.name), names)


__all__ = ["get_ui"]
