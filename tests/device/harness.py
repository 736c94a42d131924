"""The real firmware core (app.Device on a fake HAL) wired to the real host link, in
simulated time: every transport read steps the device 1 ms at a time, so seconds of
protocol run in milliseconds and every run is reproducible."""

import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fw"))

import fwpaths  # noqa: E402,F401  (puts firmware/ and its shims on sys.path)
from fwpaths import make_cfg  # noqa: E402

import app  # noqa: E402
from fakehal import FakeHal  # noqa: E402

from knockboard.device.transport import TransportError  # noqa: E402


class SimClock:
    def __init__(self):
        self.ms = 10_000

    def __call__(self):
        return self.ms / 1000.0

    def sleep(self, seconds):
        self.ms += max(0, math.ceil(seconds * 1000 - 1e-9))


class SimDevice:
    """One powered board: the firmware core, its fake hardware and the clock."""

    def __init__(self, clock, board="dodgeball"):
        self.clock = clock
        self.cfg = make_cfg(board)
        self.hal = FakeHal(self.cfg, t0=clock.ms)
        self.dev = app.Device(self.hal, self.cfg)
        self.running = True

    def step(self):
        self.hal.now = self.clock.ms
        if self.running and not self.dev.step(self.hal.now):
            self.running = False


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


class Wire:
    """Host-side transport whose far end is a SimDevice. `unplugged` makes every call fail
    like a vanished USB port."""

    def __init__(self, sim, to_device=None, to_host=None):
        self.sim = sim
        self.to_device = to_device or (lambda d: d)
        self.to_host = to_host or (lambda d: d)
        self.unplugged = False
        self.closed = False
        self.host_bytes = 0

    def write(self, data):
        if self.unplugged or self.closed:
            raise TransportError("sim: port gone")
        self.host_bytes += len(data)
        self.sim.hal.rx.extend(self.to_device(bytes(data)))

    def read(self, timeout):
        if self.unplugged or self.closed:
            raise TransportError("sim: port gone")
        end = self.sim.clock.ms + max(1, int(timeout * 1000))
        while True:
            self.sim.step()
            out = self.sim.hal.take_tx()
            self.sim.clock.ms += 1
            if out:
                return self.to_host(out)
            if self.sim.clock.ms >= end:
                return b""

    def close(self):
        self.closed = True


class Rig:
    """A Board connected to a SimDevice through a Wire; `plug()` makes a new wire, as a
    re-enumerated USB port would."""

    def __init__(self, board="dodgeball", faults=None, session=0x4242):
        from knockboard.device.board import Board

        self.clock = SimClock()
        self.sim = SimDevice(self.clock, board)
        self.faults = faults or (None, None)
        self.unplugged = False
        self.wires = []
        self.board = Board(self.open, clock=self.clock, sleep=self.clock.sleep,
                           session=session)

    def open(self):
        if self.unplugged:
            raise TransportError("sim: no such port")
        w = Wire(self.sim, *self.faults)
        self.wires.append(w)
        return w

    def unplug(self):
        self.unplugged = True
        for w in self.wires:
            w.unplugged = True

    def plug(self, reboot=False):
        if reboot:
            self.sim = SimDevice(self.clock, self.sim.cfg.board_id)
        self.unplugged = False

    def run(self, seconds):
        """Poll the board for `seconds` of simulated time; returns what poll() gave."""
        out = []
        end = self.clock() + seconds
        while self.clock() < end:
            out += self.board.poll(0.05)
        return out

    def press(self, cell, hold_ms=40, gap_ms=40):
        """A real press: hold, release, while the host keeps polling."""
        self.sim.hal.press(cell)
        got = self.run(hold_ms / 1000)
        self.sim.hal.press(cell, False)
        return got + self.run(gap_ms / 1000)
