"""What the laptop's terminal shows for people watching: the board picture, the dice,
whose turn it is, and a log of the actions."""

from __future__ import annotations

from typing import Iterable, Optional, TextIO


class Terminal:
    def __init__(self, out: Optional[TextIO] = None) -> None:
        self.out = out
        self._last: Optional[str] = None

    def log(self, text: str) -> None:
        if self.out is not None:
            print(text, file=self.out, flush=True)

    def picture(self, board_text: str, lines: Iterable[str]) -> None:
        """Print the board and status lines, unless they are what was printed last."""
        block = board_text + "\n" + "\n".join(line for line in lines if line)
        if self.out is not None and block != self._last:
            self._last = block
            print("\n" + block, file=self.out, flush=True)
