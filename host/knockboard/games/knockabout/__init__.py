"""KNOCKabout: the board's geometry tables (`board.py`), the actions and their notation
(`notation.py`), the position text (`position.py`) and the rules (`game.py`).
The rules are in `docs/rules/knockabout.md`."""

from .game import KnockaboutGame, KnockaboutState

__all__ = ["KnockaboutGame", "KnockaboutState"]
