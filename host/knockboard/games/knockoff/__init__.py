"""Knock-Off: the boards as data (`board.py`), the actions and their notation
(`notation.py`), the position text (`position.py`) and the rules (`game.py`).
The rules are in `docs/rules/knockoff.md`."""

from .game import KnockoffGame, KnockoffState

__all__ = ["KnockoffGame", "KnockoffState"]
