"""KNOCKabout: the board's geometry tables (`board.py`) and the rules (`game.py`).
The rules are in `docs/rules/knockabout.md`."""

from .game import KnockaboutGame, KnockaboutState

__all__ = ["KnockaboutGame", "KnockaboutState"]
