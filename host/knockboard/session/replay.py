"""Stepping through a saved game on the board: OK goes one action forward, BACK one back,
MENU ends.  The LEDs show the position after each step; the OLED says which step and what
was played, so the players can follow with the real pieces (an edit entry: what the
players changed by hand)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable, Optional, TextIO

from ..device.protocol import Display, KeyEvent
from ..layouts import get_layout
from ..store.entries import apply_entry, edited_position, replaces_state
from . import oled, scene as S
from .adapters import get_ui
from .edit_presses import edit_steps
from .pieces import show_pieces
from .terminal import Terminal
from .types import BACK_KEY, MENU_KEY, OK_KEY

if TYPE_CHECKING:
    from ..games.base import State
    from ..store import GameRecord
    from .types import BoardLike


class Replay:
    def __init__(self, board: BoardLike, record: GameRecord, out: Optional[TextIO] = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.board = board
        self.record = record
        self.clock = clock
        self.term = Terminal(out)
        self.state = record.initial_state()
        self.ui = get_ui(self.state.game, get_layout(record.game))
        self.ply = 0
        self.before_edits: list[State] = []     # the state each edit replaced, for stepping back
        self.shown = "start"       # what the last entry did, for the OLED and the log
        self.running = True
        self._sent: Optional[tuple] = None
        self._screen: tuple = ((), 0.0)     # the pages shown (oled.pages), since when
        self._pieces: Optional[bytes] = None     # sent to a board that draws them
        self.render()

    def forward(self) -> bool:
        if self.ply >= len(self.record.actions):
            self.board.sound("error")
            return False
        entry = self.record.actions[self.ply]
        before = self.state
        self.state = apply_entry(self.state, entry)
        if replaces_state(entry):               # an edit, a new round: keep the one before
            self.before_edits.append(before)
        self.ply += 1
        self.shown = self._last()
        self.board.sound("click")
        return True

    def back(self) -> bool:
        if self.ply == 0:
            self.board.sound("error")
            return False
        if replaces_state(self.record.actions[self.ply - 1]):
            self.state = self.before_edits.pop()
        else:
            self.state.undo()
        self.ply -= 1
        self.shown = self._last()
        self.board.sound("click")
        return True

    def _last(self) -> str:
        """What the last entry played did: its notation, or for an edit what changed."""
        if not self.ply:
            return "start"
        entry = self.record.actions[self.ply - 1]
        if edited_position(entry) is None:
            return entry
        steps = edit_steps(self.ui, self.before_edits[-1], self.state)
        return "edit " + ", ".join(step.text for step in steps)

    def step(self, timeout: float = 0.05) -> bool:
        for message in self.board.poll(timeout):
            if not (isinstance(message, KeyEvent) and message.pressed):
                continue
            if not message.control:
                self.board.sound("error")        # cells do nothing in a replay
            elif message.index == OK_KEY:
                self.forward()
            elif message.index == BACK_KEY:
                self.back()
            elif message.index == MENU_KEY:
                self.running = False
        self.render()
        return self.running

    def run(self, until: Optional[Callable[[], bool]] = None) -> None:
        while self.running and not (until and until()):
            self.step(0.05)

    def oled_lines(self) -> list[str]:
        """What the OLED says (logical lines; `oled.pages` lays them out)."""
        total = len(self.record.actions)
        return [f"Replay {self.ply}/{total}", self.shown,
                "OK/BACK MENU=end" if self.ply < total else "end. MENU=quit"]

    def render(self) -> None:
        total = len(self.record.actions)
        last = self.shown
        screen = oled.pages(self.oled_lines())
        now = self.clock()
        if self._screen[0] != screen:
            self._screen = (screen, now)
        lines = screen[oled.page_at(len(screen), self._screen[1], now)]
        if (self.ply, lines) == self._sent:
            return
        new_ply = self._sent is None or self._sent[0] != self.ply
        self._sent = (self.ply, lines)
        self.board.set_scene(S.build(self.ui, self.ui.view(self.state), level=1.0))
        self._pieces = show_pieces(self.board, self.ui, self.state, self._pieces)
        self.board.show(Display(lines))
        if not new_ply:
            return          # the next page of the same step: logged once
        self.term.log(f"{self.ply}/{total}: {last}")
