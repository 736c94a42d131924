"""The device under hostile input and long traffic, beyond tests/fw (whose fuzz,
tests/fw/test_fw_robustness.py, runs on CPython and in the MicroPython VM):

- the firmware's heap stays flat under random traffic, in the MicroPython VM
  (gc.mem_alloc) and on CPython (tracemalloc, firmware files only);
- an event queue overflow (the host not reading while the players press on) ends in a
  full key-state resync that the host's Board adopts;
- the power limiter never lets the estimated LED current exceed the budget, for any scene
  (property test over scenes, brightness, budgets and boards, every frame of the effects).
"""

import gc
import os
import re
import sys
import tracemalloc

import pytest
from hypothesis import given, strategies as st

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fw"))
sys.path.insert(0, os.path.join(HERE, ".."))

import fwpaths  # noqa: E402
import mpvm  # noqa: E402

from knockboard.device import protocol as P  # noqa: E402
from knockboard.sim import VirtualBoard  # noqa: E402

VM_SETUP = ("import gc, random\nimport test_fw_robustness as T\nrandom.seed(99)\n"
            "fz = T.Fuzz('dodgeball')\nfz.burst(60)\n")
# input still waiting and the test HAL's own logs (tones, bytes sent) are the harness's,
# not the firmware's
VM_SAMPLE = ("while fz.hal.pending_input():\n    fz.run(1)\n"
             "fz.hal.tones = []\nfz.hal.take_tx()\ngc.collect()\nprint('HEAP', gc.mem_alloc())\n")


def vm_heap_samples(bursts, frames_per_burst=100):
    mpvm.require(pytest)
    code = [VM_SETUP, VM_SAMPLE] + [f"fz.burst({frames_per_burst})\n", VM_SAMPLE] * bursts
    rc, out = mpvm.run(code)
    assert rc == 0, out
    return [int(x) for x in re.findall(r"^HEAP (\d+)$", out, re.M)]


def flat(samples):
    """No trend: the last samples sit where the first did (what a display or a scene
    holds at a given moment varies by a few hundred bytes, up and down)."""
    k = len(samples) // 3
    first, last = sum(samples[:k]) / k, sum(samples[-k:]) / k
    return last - first < 384 and max(samples) - min(samples) < 2048


def test_firmware_heap_is_flat_under_random_traffic_in_the_micropython_vm():
    samples = vm_heap_samples(8)
    assert len(samples) == 9
    assert flat(samples), samples                          # 800 frames later: no growth


def test_firmware_allocations_are_flat_under_random_traffic_on_cpython():
    import random
    import test_fw_robustness as T
    firmware = tracemalloc.Filter(True, os.path.join(fwpaths.FW, "*"))

    def live():
        gc.collect()
        snap = tracemalloc.take_snapshot().filter_traces([firmware])
        return sum(s.size for s in snap.statistics("filename"))
    tracemalloc.start()
    try:
        random.seed(7)
        fz = T.Fuzz("knockabout")
        fz.burst(60)
        base = live()
        samples = []
        for _ in range(4):
            fz.burst(60)
            fz.hal.tones = []
            samples.append(live())
    finally:
        tracemalloc.stop()
    assert base > 10_000                           # the firmware's own buffers are seen
    assert max(samples) - base < 512, (base, samples)


def test_queue_overflow_ends_in_a_full_key_state_the_host_adopts():
    vb = VirtualBoard("knockabout", seed=1)
    board = vb.connect()
    board.poll(0.1)                                 # the first STATE
    cap = vb.config.queue_size
    # The host is busy for two seconds (a slow computer move, say) and reads nothing,
    # while the players press on: more events than the board's queue holds.
    made = []
    for k in range(cap // 2 + 10):
        cell = (k * 5) % vb.cells
        vb.tap(cell, hold_ms=15, after_ms=15)
        made += [(cell, True), (cell, False)]
    vb.press(100)
    vb.press("BACK")
    vb.advance(30)
    assert vb.device.keys.queue.overflowed or vb.device.keys.queue.count == cap
    got = list(board.events(1.5))
    events = [(e.index, e.pressed) for e in got if isinstance(e, P.KeyEvent)]
    states = [m for m in got if isinstance(m, P.KeyState)]
    assert events == made[:len(events)] and len(events) <= cap   # kept ones in order
    assert states and states[-1].overflow
    assert states[-1].cells == {100} and states[-1].controls == {1}
    assert board.pressed == {100} and board.controls == {1}
    vb.release(100)
    vb.release("BACK")
    got = list(board.events(0.5))
    assert board.pressed == set() and board.controls == set()


# --- the power limiter ------------------------------------------------------------------

def _core():
    import power
    import scene
    return power, scene


boards = st.sampled_from([("knockabout", 127), ("dodgeball", 64), ("ko", 81), ("knockoff", 52)])
cell = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255),
                 st.integers(0, 3), st.integers(0, 15))


@given(board=boards, data=st.data(), brightness=st.integers(0, 255),
       per_channel=st.integers(1, 60), idle=st.integers(0, 2),
       times=st.lists(st.integers(0, 10_000_000), min_size=1, max_size=6))
def test_the_power_limiter_never_lets_the_leds_exceed_the_budget(board, data, brightness,
                                                                 per_channel, idle, times):
    power, scene = _core()
    _, n = board
    floor = n * idle
    budget = data.draw(st.integers(floor + 1, 6000), label="budget_ma")
    cells = data.draw(st.lists(cell, min_size=n, max_size=n), label="cells")
    limiter = power.PowerLimiter(n, budget, per_channel, idle)
    s = scene.Scene(n, limiter)
    payload = bytearray((brightness, n >> 8, n & 0xFF))
    for r, g, b, fx, phase in cells:
        payload += bytes((r, g, b, fx | phase << 4))
    assert scene.Scene.check(payload, n) == 0
    s.set(payload)
    total = sum(r + g + b for r, g, b, _, _ in cells)
    assert s.level <= brightness
    assert limiter.estimate_ma(total, s.level) <= budget
    out = bytearray(3 * n)
    for now in sorted(times):          # every frame of every effect, not just the first
        s.render(now, out)
        # what the LEDs draw for what they show, in exact arithmetic
        drawn = floor + sum(out) * per_channel / 255
        assert drawn <= budget + 1e-9, (drawn, budget)
