"""Long play: computer-vs-computer games one after another on the headless simulator, as
on a long evening: one virtual board per game, switched on once, one session on it that
starts each new game as the board's menu does; the person at the board only confirms the
steps shown (the seeded AutoPlayer presses OK or the cells).

Errors: any exception, a game that does not end or whose record does not replay to its
final position, a command the board rejected, a damaged frame, a reconnect.
Leaks, sampled every so many games after a collection:
- host: CPython's allocated memory blocks, live objects, resident size; and a tracemalloc
  window (a few games traced at the start and at the end: bytes they leave behind);
- firmware: the size of everything each board's firmware core (app.Device) holds, walked
  object by object (the firmware allocates its buffers at boot and nothing after)."""

from __future__ import annotations

import gc
import sys
import time
import tracemalloc
import types

from autoplay import AutoPlayer
from rig import Rig

from knockboard.session import Session, Setup

LINEUP = [
    ("knockabout", {}, ["greedy", "random"]),
    ("knockoff", {"players": 2}, ["greedy", "random"]),
    ("ko", {"players": 2, "quick_start": 1}, ["random", "random"]),
    ("dodgeball", {"setup": "quick"}, ["random", "random"]),
]
_OPAQUE = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType,
           types.CodeType, types.MethodType)


def deep_size(root, skip=()):
    """Bytes held by `root` and everything it reaches: code (modules, classes, functions)
    and the objects in `skip` left out; numbers count as the slot that holds them, as on
    MicroPython, where small ints are not objects (a timestamp stored in a preallocated
    list allocates nothing there)."""
    seen = {id(o) for o in skip}
    stack, total = [root], 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, _OPAQUE):
            continue
        seen.add(id(obj))
        if isinstance(obj, (int, float)):
            continue
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


class QuickRig(Rig):
    # Quick fingers, as someone who has confirmed a thousand steps: 15 ms presses (the
    # firmware's debounce is 8 ms), 15 ms apart.
    hold_s = gap_s = 0.015


class Table:
    """One board with its session, kept on between games."""

    def __init__(self, game):
        self.game = game
        self.rig = QuickRig(game)
        self.player = AutoPlayer(self.rig, 0)
        self.games = 0

    def play(self, options, seats, seed):
        rig = self.rig
        setup = Setup(self.game, dict(options), list(seats), seed=seed)
        if rig.session is None:
            rig.session = Session(rig.board, setup, clock=rig.clock)
        else:
            rig.session.start(setup)                 # what "New game" on the menu does
        self.player.rng.seed(seed)
        assert self.player.play(200000), f"{self.game} seed {seed}: the game did not end"
        s = rig.session
        assert s.state.is_terminal() and s.mode == "over"
        assert s.record.replay().to_position() == s.state.to_position()
        self.games += 1
        return len(s.record.actions)

    def faults(self):
        """What went wrong on this board's link so far (all zero on a clean line)."""
        link, dev = self.rig.board.link, self.rig.sim.device
        return {"rejected commands": link.rejected, "bad frames to the host":
                link.protocol_errors + link.decoder.errors, "bad frames to the board":
                dev.dec.errors, "board errors": dev.errors,
                "reconnects": self.rig.board.reconnects}

    def firmware_bytes(self):
        """What the firmware core holds (the simulated hardware under it left out)."""
        return deep_size(self.rig.sim.device, skip=(self.rig.sim.hal,))

    def rest(self):
        """Between two samples: the finished game put away (a new one set up, waiting for
        a person), and the rig's own press logs emptied (they are the test's, not the
        program's)."""
        rig = self.rig
        assert rig.received == rig.made, f"{self.game}: key events lost or doubled"
        rig.session.start(Setup(self.game, {}, [], seed=0))
        rig.run(0.5)
        rig.made.clear()
        rig.received.clear()
        rig.key_states.clear()
        rig.sounds.clear()


def host_memory():
    gc.collect()
    with open("/proc/self/statm") as f:
        rss_kb = int(f.read().split()[1]) * 4096 // 1024
    return {"blocks": sys.getallocatedblocks(), "objects": len(gc.get_objects()),
            "rss KB": rss_kb}


class LongPlay:
    def __init__(self, lineup=LINEUP):
        self.lineup = lineup
        self.tables = {g: Table(g) for g, _, _ in lineup}
        self.played = 0
        self.plies = 0
        self.samples = []
        self.t0 = time.perf_counter()

    def play(self, n):
        for _ in range(n):
            game, options, seats = self.lineup[self.played % len(self.lineup)]
            self.plies += self.tables[game].play(options, seats, seed=self.played)
            self.played += 1

    def sample(self):
        for t in self.tables.values():
            t.rest()
        s = {"games": self.played, "plies": self.plies,
             "wall s": round(time.perf_counter() - self.t0, 1)}
        s.update(host_memory())
        s["firmware bytes"] = sum(t.firmware_bytes() for t in self.tables.values())
        self.samples.append(s)
        return s

    def traced_window(self, n):
        """Play `n` KNOCKabout and `n` Knock-Off games under tracemalloc (the short games:
        tracing slows Python down several times; the session code they run is the same)
        and put them away; the bytes allocated in them that are still held (a leak grows
        with n) and the top three places they were allocated."""
        for t in self.tables.values():
            t.rest()
        gc.collect()
        tracemalloc.start(4)
        try:
            for k in range(n):
                for game, options, seats in LINEUP[:2]:
                    self.plies += self.tables[game].play(options, seats, seed=10**6 + k)
            for game, _, _ in LINEUP[:2]:
                self.tables[game].rest()
            gc.collect()
            snap = tracemalloc.take_snapshot()
            held = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
        top = snap.statistics("lineno")[:3]
        return held, [f"{st.traceback[0].filename.split('/')[-1]}:{st.traceback[0].lineno} "
                      f"{st.size} B" for st in top]

    def faults(self):
        total = {}
        for t in self.tables.values():
            for k, v in t.faults().items():
                total[k] = total.get(k, 0) + v
        return total
