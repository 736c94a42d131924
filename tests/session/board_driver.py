"""A board to play on in the session tests: the real firmware core on the fake HAL behind
the real `Board` link (tests/device/harness.Rig), pressed and read as a person would, in
simulated time.  (When the headless simulator `knockboard.sim` is on main this is the one
place to switch to it.)"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "device"))

from harness import Rig  # noqa: E402

from knockboard.session import Session, Setup  # noqa: E402

OK, BACK, MENU = 0, 1, 2
FX = {0: "solid", 1: "blink", 2: "pulse", 3: "chase"}


class VirtualBoard:
    def __init__(self, game):
        self.rig = Rig(board=game)
        self.board = self.rig.board
        self.session = None
        self.sounds = []
        send = self.board.sound

        def sound(name):                  # what the session asked the buzzer for
            self.sounds.append(name)
            send(name)
        self.board.sound = sound

    @property
    def hal(self):
        return self.rig.sim.hal

    @property
    def dev(self):
        return self.rig.sim.dev

    def start(self, game, seats=(), actions=(), out=None, **kw):
        options = kw.pop("options", {})
        self.session = Session(self.board, Setup(game, options, list(seats), **kw),
                               clock=self.rig.clock, actions=actions, out=out)
        self.run(1.0)                   # the handshake and the first scene settle
        return self.session

    # --- time and input ----------------------------------------------------------------------
    def run(self, seconds):
        end = self.rig.clock() + seconds
        while self.rig.clock() < end:
            self.session.step(0.01)

    def press(self, cell, hold=0.03):
        self.hal.press(cell)
        self.run(hold)
        self.hal.press(cell, False)
        self.run(0.03)

    def control(self, key, hold=0.03):
        self.hal.control(key)
        self.run(hold)
        self.hal.control(key, False)
        self.run(0.03)

    def ok(self):
        self.control(OK)

    def back(self, hold=0.03):
        self.control(BACK, hold)

    def menu(self):
        self.control(MENU)

    def space(self, name):
        return self.session.layout.cell(name).index

    def press_space(self, name):
        self.press(self.space(name))

    # --- output ------------------------------------------------------------------------------
    def cell(self, index):
        """(r, g, b, effect name) the board holds for a cell (before brightness)."""
        c = self.dev.scene.cells
        o = 4 * index
        return (c[o], c[o + 1], c[o + 2], FX[c[o + 3] & 15])

    def lit(self, effect=None):
        """Cells that are not off (with `effect`, only those showing it)."""
        n = self.dev.scene.n
        return {i for i in range(n) if self.cell(i)[:3] != (0, 0, 0)
                and (effect is None or self.cell(i)[3] == effect)}

    def oled(self):
        """(lines, dice values, roll flag) of the last display the board accepted."""
        p = bytes(self.dev.last_display[:self.dev.last_display_len])
        if not p:
            return [], (), False
        n = p[3]
        dice = tuple(p[4:4 + n])
        i = 4 + n
        lines = []
        for _ in range(p[i]):
            ln = p[i + 1]
            lines.append(p[i + 2:i + 2 + ln].decode())
            i += 1 + ln
        return lines, dice, bool(p[1] & 1)

    def text(self):
        return " | ".join(self.oled()[0])

    def tones_since(self, t0_ms):
        return [f for t, f in self.hal.tones if t >= t0_ms]

    def now_ms(self):
        return self.rig.clock.ms
