"""K.O.: the boards as data, checked and precomputed (`board.py`), phases and
markers (`constants.py`), the rules (`game.py`), the position text (`position.py`), the
notation and the reasons for illegal moves (`notation.py`), and matches of several rounds
(`match.py`). The rules are in `docs/rules/ko.md`."""

from .game import KOGame, KOState

__all__ = ["KOGame", "KOState"]
