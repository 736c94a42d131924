"""Dodgeball: the board's squares and halves (`board.py`), the actions and their notation
(`notation.py`), the position text (`position.py`) and the rules (`game.py`).
The rules are in `docs/rules/dodgeball.md`."""

from .game import DodgeballGame, DodgeballState

__all__ = ["DodgeballGame", "DodgeballState"]
