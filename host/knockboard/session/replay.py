"""Stepping through a saved game on the board: OK goes one action forward, BACK one back,
MENU ends.  The LEDs show the position after each step; the OLED says which step and what
was played, so the players can follow with the real pieces."""

import time

from ..device.protocol import Display, KeyEvent
from ..layouts import get_layout
from . import scene as S
from .adapters import get_ui
from .terminal import Terminal
from .types import clip

OK_KEY, BACK_KEY, MENU_KEY = 0, 1, 2


class Replay:
    def __init__(self, board, record, out=None, clock=time.monotonic):
        self.board = board
        self.record = record
        self.clock = clock
        self.term = Terminal(out)
        self.state = record.initial_state()
        self.ui = get_ui(self.state.game, get_layout(record.game))
        self.ply = 0
        self.running = True
        self._sent = None
        self.render()

    def forward(self):
        if self.ply >= len(self.record.actions):
            self.board.sound("error")
            return False
        self.state.apply_text(self.record.actions[self.ply])
        self.ply += 1
        self.board.sound("click")
        return True

    def back(self):
        if self.ply == 0:
            self.board.sound("error")
            return False
        self.state.undo()
        self.ply -= 1
        self.board.sound("click")
        return True

    def step(self, timeout=0.05):
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

    def run(self, until=None):
        while self.running and not (until and until()):
            self.step(0.05)

    def render(self):
        total = len(self.record.actions)
        last = self.record.actions[self.ply - 1] if self.ply else "start"
        lines = (clip(f"Replay {self.ply}/{total}"), clip(last),
                 clip("OK> BACK< MENU=end" if self.ply < total else "end. MENU=quit"))
        if (self.ply, lines) == self._sent:
            return
        self._sent = (self.ply, lines)
        self.board.set_scene(S.build(self.ui, self.ui.view(self.state), level=1.0))
        self.board.show(Display(lines))
        self.term.log(f"{self.ply}/{total}: {last}")
