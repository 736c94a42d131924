"""Simulator latency: a press on the virtual board to the LED change it causes, through the
whole chain a real host uses (sim -> pty -> host -> pty -> sim), with its parts, and a bare
pty echo round trip measured in the same run for comparison.

    python3 benchmarks/sim.py [--board knockabout] [--rounds 200]

The virtual board runs in this process (its real-time driver thread, as `knockboard sim`);
the host is a separate process (this script with --host PATH), a `Board` opened on the
pty's path like a USB port: on each cell press it lights that cell. Every time is
time.monotonic(), one clock for both processes. Stages, from the firmware's own hooks:

  press -> event queued      the firmware's eager press (two closed readings, 1 ms scan)
  queued -> host sees it     firmware sends EVENTS, pty, host link decodes
  host sees -> scene applied host encodes the scene (CELLS: the cells that changed), pty,
                             firmware decodes and applies it
  scene applied -> LEDs      the firmware renders the changed cells and shows the frame

Printed, never asserted.
"""

import argparse
import os
import random
import select
import statistics
import subprocess
import sys
import threading
import time
import tty

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))

from knockboard.device import protocol as P  # noqa: E402

COLOURS = ((0, 0, 200), (200, 0, 0))


# ---- the host process --------------------------------------------------------------------

def host(path):
    """Lights each pressed cell (alternating colours); prints when it saw each press."""
    from knockboard.device.board import Board

    with Board.open(path) as board:
        n = board.info.cells
        print("ready", flush=True)
        presses = 0
        while True:
            for item in board.poll(0.005):
                if not isinstance(item, P.KeyEvent) or not item.pressed:
                    continue
                if item.control:
                    return  # MENU: the run is over
                seen = time.monotonic()
                cells = [P.OFF] * n
                cells[item.index] = P.Cell(*COLOURS[presses % 2])
                board.set_scene(P.Scene(tuple(cells), 255))
                presses += 1
                print(f"seen {item.index} {seen!r}", flush=True)


# ---- the board side ------------------------------------------------------------------------

class Probe:
    """Timestamps from inside the firmware (its event queue, scene and LED output)."""

    def __init__(self, vb):
        self.vb = vb
        self.cell = -1
        self.want = None
        self.queued = self.applied = self.shown = 0.0
        self.done = threading.Event()
        dev, hal = vb.device, vb.hal
        put, show = dev.keys.queue.put, hal.show_leds
        set_scene, update = dev.scene.set, dev.scene.update

        def timed_put(ev):
            if ev & 0x8000 and not ev & 0x4000 and (ev & 0x3FFF) == self.cell:
                self.queued = time.monotonic()
            return put(ev)

        def timed_set(payload):
            set_scene(payload)
            self.applied = time.monotonic()

        def timed_update(payload):  # a scene sent as the cells that changed (CELLS)
            update(payload)
            self.applied = time.monotonic()

        def timed_show(grb):
            show(grb)
            i = 3 * self.cell
            if self.want is not None and (grb[i + 1], grb[i], grb[i + 2]) == self.want:
                self.shown = time.monotonic()
                self.want = None
                self.done.set()
        dev.keys.queue.put, hal.show_leds = timed_put, timed_show
        dev.scene.set, dev.scene.update = timed_set, timed_update


def chain(board, rounds):
    from knockboard.sim import start_pty

    port = start_pty(board, seed=1)
    vb = port.board
    probe = Probe(vb)
    proc = subprocess.Popen([sys.executable, __file__, "--host", port.path],
                            stdout=subprocess.PIPE, text=True)
    seen = {}
    assert proc.stdout.readline().strip() == "ready"

    def read_host():
        for line in proc.stdout:
            _, index, t = line.split()
            seen[len(seen)] = float(t)
    reader = threading.Thread(target=read_host, daemon=True)
    reader.start()
    time.sleep(0.5)  # the host's first STATE and blank scene settle
    rows = []
    rng = random.Random(1)
    cells = list(range(vb.cells))
    for k in range(rounds):
        cell = cells[(k * 37) % len(cells)]
        with vb.lock:
            probe.cell, probe.want = cell, COLOURS[k % 2]
            probe.done.clear()
            t0 = time.monotonic()
            vb.press(cell)
        ok = probe.done.wait(2.0)
        vb.release(cell)
        # the release travels too (the host ignores it); the random part keeps the presses
        # from locking to the firmware's 20 ms LED frame
        time.sleep(0.04 + rng.uniform(0, 0.02))
        if ok and k in seen:
            rows.append((t0, probe.queued, seen[k], probe.applied, probe.shown))
    vb.tap("MENU")
    proc.wait(5)
    port.close()
    return rows


def echo(rounds):
    """A bare pty round trip: pyserial writes 16 bytes, a thread echoes them back."""
    import serial

    master, slave = os.openpty()
    tty.setraw(master)
    path = os.ttyname(slave)
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            r, _, _ = select.select([master], [], [], 0.01)
            if r:
                os.write(master, os.read(master, 4096))
    t = threading.Thread(target=serve, daemon=True)
    t.start()
    out = []
    with serial.Serial(path, 115200, timeout=1) as s:
        for _ in range(rounds):
            t0 = time.monotonic()
            s.write(b"0123456789abcdef")
            got = s.read(16)
            out.append(time.monotonic() - t0)
            assert got == b"0123456789abcdef"
            time.sleep(0.002)
    stop.set()
    t.join(1)
    os.close(master)
    os.close(slave)
    return out


def stats(values):
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return f"median {statistics.median(ms):6.2f} ms   p95 {p95:6.2f} ms"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="knockabout")
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--host", metavar="PATH", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.host:
        return host(args.host)
    print(f"simulator latency, {args.board} board, {args.rounds} presses, "
          f"{os.cpu_count()} cores (shared), Python {sys.version.split()[0]}")
    rows = chain(args.board, args.rounds)
    base = echo(args.rounds)
    if not rows:
        print("no round completed")
        return 1
    t0, queued, seen, applied, shown = zip(*rows)

    def d(a, b):
        return [y - x for x, y in zip(a, b)]
    print(f"  rounds completed                   {len(rows)} of {args.rounds}")
    print(f"  press -> LED changed (whole chain) {stats(d(t0, shown))}")
    print(f"  press -> host sees the press       {stats(d(t0, seen))}")
    print(f"  host scene command -> LEDs         {stats(d(seen, shown))}")
    print("  stages:")
    print(f"    press -> event queued (debounce) {stats(d(t0, queued))}")
    print(f"    queued -> host sees it           {stats(d(queued, seen))}")
    print(f"    host sees -> scene applied       {stats(d(seen, applied))}")
    print(f"    scene applied -> LEDs (frame)    {stats(d(applied, shown))}")
    transport = [(s - q) + (a - s) for q, s, a in zip(queued, seen, applied)]
    print(f"  sim -> pty -> host -> pty -> sim   {stats(transport)}   (the two middle stages)")
    print(f"  bare pty echo round trip           {stats(base)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
