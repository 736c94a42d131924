"""The reliability rig: the session tests' virtual board (tests/session/board_driver: the
real firmware core on the simulator, the real Board link, simulated time) with

- the host's cable swappable for a faulty one (lossy.LossyLine),
- both ends counted: presses made on the board, events the firmware queued and had
  acknowledged, events the session received,
- presses made the way a patient person makes them: press, release, then wait until the
  board has reacted (the host has the press) before the next; a press that never arrives
  is a failure, not something to retry,
- a check that the board shows exactly what the host last sent (scene and display).

The reliability tests use it with few games; tests/soak/ with many, printing the figures."""

from __future__ import annotations

import os
import sys
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "session"))

from autoplay import AutoPlayer  # noqa: E402
from board_driver import VirtualBoard as SessionBoard  # noqa: E402
from lossy import LossyLine  # noqa: E402

from knockboard.device import protocol as P  # noqa: E402
from knockboard.session import Session, Setup  # noqa: E402
from knockboard.session.types import HOLD_S  # noqa: E402
from knockboard.sim import firmware  # noqa: E402

# One seeded game of each of the four games (they end through presses in a few hundred
# plies: aggressive play, as in tests/session/test_session_games.py).
GAMES = {
    "knockabout": ({}, 11),
    "dodgeball": ({}, 2),
    "ko": ({"players": 2, "quick_start": 1}, 5),
    "knockoff": ({"players": 2}, 7),
}
DELIVERY_S = 60.0   # a press the host has not got after this much board time is lost


class PressLost(AssertionError):
    pass


class Rig(SessionBoard):
    hold_s = None     # None: the holds the player asks for; a number: every press this long
    gap_s = 0.03      # from a release to the next press

    def __init__(self, game, rate=0.0, line_seed=0):
        self.counts = Counter()
        self.made = []        # (control, index, pressed) as the fingers did them
        self.received = []    # the same, as the session got them
        self.key_states = []  # full key states the session got (resyncs)
        self.rate = rate
        self.line_seed = line_seed
        self.lines = 0
        super().__init__(game, opener=self._open)
        self._instrument()
        poll = self.board.poll

        def logged(timeout=0.0):
            out = poll(timeout)
            for m in out:
                if isinstance(m, P.KeyEvent):
                    self.received.append((m.control, m.index, m.pressed))
                elif isinstance(m, P.KeyState):
                    self.key_states.append(m)
                    self._resynced(m)
            return out
        self.board.poll = logged

    def _resynced(self, state):
        """A full key state stands for the releases still on their way: a board that took the
        host for gone (3 s without a valid frame, a storm of faults at 5 %) drops its queue
        and reports the keys as they are when the host is back, and the session takes a key
        shown up as released (`Session._receive`). Only releases: a press that never
        arrived as an event stays lost."""
        pending = self.made[len(self.received):]
        up = [(control, index, pressed) for control, index, pressed in pending
              if not pressed and index not in (state.controls if control else state.cells)]
        if pending and len(up) == len(pending):
            self.received += pending
            self.counts["releases resynced"] += len(pending)

    def _open(self, sim):
        self.lines += 1
        return LossyLine(sim.open_transport(), self.rate, self.line_seed * 1000 + self.lines,
                         sim.clock, self.counts)

    def _instrument(self):
        """Count, inside the firmware, the events it queued and those the host acknowledged
        (the device drops an event from its queue only on the host's ACK)."""
        dev = self.sim.device
        q = dev.keys.queue
        put, pop = q.put, q.pop
        counts = self.counts
        host_mode = firmware.load().app.HOST

        def counted_put(ev):
            ok = put(ev)
            counts["events queued" if ok else "events overflowed"] += 1
            return ok

        def counted_pop(n=1):
            if dev.mode == host_mode:
                counts["events acknowledged"] += min(n, q.count)
            pop(n)
        q.put, q.pop = counted_put, counted_pop

    def plug(self):
        super().plug()
        self._instrument()

    # --- a patient person's presses ------------------------------------------------------
    def _tap(self, target, hold):
        self.wait_connected()
        key = self.sim.key(target)
        self.sim.press(target)
        self.made.append(key + (True,))
        # hold_s sets every tap's length, but a hold the session counts (OK held to pass,
        # BACK held to undo) is a deliberate gesture and is held as long as asked
        self.run(hold if self.hold_s is None or hold >= HOLD_S else self.hold_s)
        self.sim.release(target)
        self.made.append(key + (False,))
        self.run(self.gap_s)
        self.wait_delivered()

    def wait_delivered(self, limit=DELIVERY_S):
        end = self.clock() + limit
        while len(self.received) < len(self.made):
            if self.clock() >= end:
                raise PressLost(f"{len(self.made) - len(self.received)} key events not "
                                f"received after {limit:g} s: made {self.made[-4:]}, "
                                f"received {self.received[-4:]}")
            self.run(0.01)

    def wait_connected(self, limit=30.0):
        end = self.clock() + limit
        while not self.board.connected:
            if self.clock() >= end:
                raise AssertionError(f"the host did not reconnect within {limit:g} s")
            self.run(0.05)

    # --- board and program in step -------------------------------------------------------
    def in_step(self):
        """None when the board shows what the host last sent, else what differs."""
        dev, board = self.sim.device, self.board
        if dev is None:
            return "board off"
        if board.scene is not None:
            want = board.scene.payload()
            if dev.scene.brightness != want[0] or bytes(dev.scene.cells) != want[3:]:
                return "scene differs"
        if board.display is not None:
            lines, dice, _ = self.oled()
            if (tuple(lines), tuple(dice)) != (board.display.lines, board.display.dice):
                return f"display differs: {lines} {dice} vs {board.display.lines}"
        return None

    def settle(self, limit=120.0):
        """Run until the board is in step with the host; the board time it took (None if
        not within `limit`)."""
        t0 = self.clock()
        while self.clock() - t0 < limit:
            if self.board.connected and self.board.link.idle() and self.in_step() is None \
                    and self.sim.device.keys.queue.count == 0:      # the board's last ACK came
                return self.clock() - t0
            self.run(0.05)
        return None

    def figures(self):
        c = self.counts
        presses = sum(1 for k in self.made if k[2])
        return {
            "presses made": presses,
            "events made": len(self.made),
            "events queued by the board": c["events queued"],
            "events received by the host": len(self.received),
            "events acknowledged": c["events acknowledged"],
            "releases resynced": c["releases resynced"],
            "events overflowed": c["events overflowed"],
            "host retransmits": self.board.link.retransmits,
            "board retransmits": c["device resent"],
            "reconnects": self.board.reconnects,
            "bytes faulted": sum(v for k, v in c.items()
                                 if k.split()[-1] in ("drop", "corrupt", "duplicate", "delay")),
            "bytes sent": c["to board bytes"] + c["to host bytes"],
        }


def start(rig, game, seats=(), seed=None):
    options, default_seed = GAMES[game]
    rig.session = Session(rig.board, Setup(game, dict(options), list(seats),
                                           seed=default_seed if seed is None else seed),
                          clock=rig.clock)
    rig.run(1.0)
    return rig.session


def play_scripted(game, rate=0.0, line_seed=0, max_acts=20000):
    """One seeded game of `game`, both seats played through presses by the seeded
    AutoPlayer, on a cable with fault `rate`. Returns (rig, figures)."""
    t0 = time.perf_counter()
    rig = Rig(game, rate, line_seed)
    session = start(rig, game)
    assert AutoPlayer(rig, GAMES[game][1], aggressive=True).play(max_acts), \
        f"{game}: the game did not end"
    rig.wait_delivered()
    settle = rig.settle()
    figures = rig.figures()
    figures.update({"plies": len(session.record.actions), "board seconds": rig.clock(),
                    "seconds to be in step at the end": settle,
                    "wall seconds": time.perf_counter() - t0})
    return rig, figures
