"""The real firmware core on the simulator's virtual board (knockboard.sim), wired to the
real host link in simulated time: every transport read steps the device 1 ms at a time, so
seconds of protocol run in milliseconds and every run is reproducible. What is here is
only for tests: fault injection and a Rig that keeps a Board and its board together."""

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fw"))

import fwpaths  # noqa: E402,F401  (firmware/ on sys.path for tests that import its modules)

from knockboard.device.transport import TransportError  # noqa: E402
from knockboard.sim import VirtualBoard  # noqa: E402


class Faults:
    """Loses, duplicates and corrupts whole chunks, reproducibly."""

    def __init__(self, seed, drop=0.0, dup=0.0, corrupt=0.0):
        self.rnd = random.Random(seed)
        self.drop, self.dup, self.corrupt = drop, dup, corrupt

    def __call__(self, data):
        if not data:
            return data
        r = self.rnd.random()
        if r < self.drop:
            return b""
        if r < self.drop + self.corrupt:
            b = bytearray(data)
            i = self.rnd.randrange(len(b))
            b[i] ^= 1 << self.rnd.randrange(8)
            return bytes(b)
        if r < self.drop + self.corrupt + self.dup:
            return data + data
        return data


class Rig:
    """A Board connected to a VirtualBoard (`rig.sim`) through in-process transports;
    `unplug()`/`plug()` pull and re-insert the cable (the board reboots)."""

    def __init__(self, board="dodgeball", faults=None, session=0x4242):
        from knockboard.device.board import Board

        self.sim = VirtualBoard(board, seed=session)
        self.clock = self.sim.clock
        self.faults = faults or (None, None)
        self.wires = []
        self.board = Board(self.open, clock=self.clock, sleep=self.sim.sleep,
                           session=session)

    def open(self):
        w = self.sim.open_transport(*self.faults)
        self.wires.append(w)
        return w

    def unplug(self):
        self.sim.power_off()

    def plug(self):
        self.sim.power_on()

    def run(self, seconds):
        """Poll the board for `seconds` of simulated time; returns what poll() gave."""
        out = []
        end = self.clock() + seconds
        while self.clock() < end:
            out += self.board.poll(0.05)
        return out

    def press(self, cell, hold_ms=40, gap_ms=40):
        """A real press: hold, release, while the host keeps polling."""
        self.sim.press(cell)
        got = self.run(hold_ms / 1000)
        self.sim.release(cell)
        return got + self.run(gap_ms / 1000)


__all__ = ["Faults", "Rig", "TransportError"]
