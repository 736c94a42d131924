"""Firmware timing on the RP2040 itself: the committed MicroPython image and the firmware
(the UF2 of `knockboard uf2`) on the emulated chip at its 125 MHz (knockboard/sim/rp2040/).

    python3 benchmarks/rp2040.py [--board knockabout] [--seconds S]

The board boots with BACK held (safe boot, so nothing else runs), then the raw REPL builds
the HAL and the Device exactly as main.py does and times, with time.ticks_us on the chip's
own timer: one full key scan with debounce, one whole scene frame rendered in one go (render
+ power limiter + the DMA start), one OLED page, then S emulated seconds of the main loop
while the host sends a HELLO, a scene of every cell pulsing and a rolling display: the worst
pass, the interval between key scans and each LED frame from its start to its DMA start
(the loop renders a frame in slices between scans). The LED frame's time on the wire comes
from the waveform decoded at the data pin. gc.mem_free() is read after the Device is built
(what main.py has allocated when its loop starts).

Then, on a second boot of the same image running its own main loop, press to light: a host
on the board's pseudo-terminal (a `Board` that lights each pressed cell, its clock the
emulated one) and presses made on the key pins in emulated time; each press is timed from the key's
contact to the last bit of the answering LED frame on the data pin, median and 95th
percentile, beside the floor measured in the same run: one key scan interval (a press waits
for the next scan) plus the chain's wire time.

rp2040js counts each instruction's cycles but models no flash (XIP cache) wait states, so a
real Pico running code from flash may be somewhat slower than these figures.
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))

from knockboard.device import protocol as P  # noqa: E402
from knockboard.device.board import Board  # noqa: E402
from knockboard.device.uf2 import board_uf2  # noqa: E402
from knockboard.sim.rp2040 import EmulatedBoard, raw_exec  # noqa: E402

SETUP = """
import gc, time
gc.collect()
room = bytearray(2048)  # main.py's free run low in the heap (docs/firmware.md)
import board, app
from hal_rp2 import HalRp2
cfg = board.load()
hal = HalRp2(cfg)
dev = app.Device(hal, cfg)
room = None
gc.collect()
print('free', gc.mem_free())
def timed(f, n):
    worst = 0
    t = time.ticks_us()
    for _ in range(n):
        t0 = time.ticks_us()
        f()
        worst = max(worst, time.ticks_diff(time.ticks_us(), t0))
    return time.ticks_diff(time.ticks_us(), t) / n, worst
now = time.ticks_ms()
print('scan', *timed(lambda: (hal.scan(dev.raw), dev.keys.scan(time.ticks_ms(), dev.raw)), 50))
dev.scene.set(SCENE)
def frame():
    dev.scene.dirty = True
    dev.scene.render(time.ticks_ms(), dev.leds)
    hal.show_leds(dev.leds)
print('frame', *timed(frame, 20))
buf = bytearray(1024)
print('page', *timed(lambda: hal.oled.write_page(buf, 3), 20))
hal.wdt.feed()
"""

LOOP = """
# The loop's own calls are timed through wrappers on the instances (a few us each):
# the interval between key scans, and each LED frame from its start to the DMA start.
sc = [0, 0, 0, 0, 0]  # last scan, worst interval, worst after STEADY ms, sum, count
fr = [0, 0, 0, 0]  # frame start, worst start-to-DMA, sum, count
scan0 = hal.scan
def scan(raw):
    t = time.ticks_us()
    if sc[0]:
        d = time.ticks_diff(t, sc[0])
        sc[1] = max(sc[1], d)
        if time.ticks_diff(time.ticks_ms(), begin) >= STEADY:
            sc[2] = max(sc[2], d)
            sc[3] += d
            sc[4] += 1
    sc[0] = t
    scan0(raw)
start0 = dev.scene.start
def start(now):
    t = time.ticks_us()
    r = start0(now)
    if r:
        fr[0] = t
    return r
show0 = hal.show_leds
def show(grb):
    if fr[0]:
        d = time.ticks_diff(time.ticks_us(), fr[0])
        fr[0] = 0
        fr[1] = max(fr[1], d)
        fr[2] += d
        fr[3] += 1
    show0(grb)
hal.scan = scan
dev.scene.start = start
hal.show_leds = show
worst = 0
worst_at = 0
passes = 0
begin = time.ticks_ms()
end = time.ticks_add(begin, MS)
print('loop-start')
while time.ticks_diff(end, time.ticks_ms()) > 0:
    t0 = time.ticks_us()
    dev.step(time.ticks_ms())
    d = time.ticks_diff(time.ticks_us(), t0)
    if d > worst:
        worst = d
        worst_at = time.ticks_diff(time.ticks_ms(), begin)
    passes += 1
hal.release()
print()
print('loop', MS * 1000 / passes, worst, worst_at, dev.mode)
print('scans', sc[1], sc[2], sc[3] // max(1, sc[4]), sc[4])
print('frames', fr[1], fr[2] // max(1, fr[3]), fr[3])
"""

LIT = ((0, 0, 200), (200, 0, 0))  # what the host lights, alternately
STEADY_MS = 300  # the host's frames (HELLO, the scene, the display) are taken by then


def scene_payload(cells):
    # every cell lit and pulsing, the effect whose brightness changes every frame: every
    # 20 ms frame re-renders every cell, and the limiter acts
    return P.Scene(tuple(P.Cell((37 * i) % 256, (91 * i) % 256, (53 * i) % 256,
                                effect=P.PULSE) for i in range(cells))).payload()


def pct(values, q):
    v = sorted(values)
    return v[min(len(v) - 1, round(q * (len(v) - 1)))]


def light_presses(path, eb, ready, stop, errors):
    """The host: a `Board` on the pty whose clock is the emulated one (the chip runs
    slower than real time here; the link's timers must count its time), lighting each
    pressed cell alone, in LIT's colours by turns."""
    try:
        with Board.open(path, clock=eb.clock, handshake_timeout=5.0) as board:
            n = board.info.cells
            ready.set()
            presses = 0
            while not stop.is_set():
                for item in board.poll(0.002):
                    if isinstance(item, P.KeyEvent) and item.pressed and not item.control:
                        cells = [P.OFF] * n
                        cells[item.index] = P.Cell(*LIT[presses % 2])
                        board.set_scene(P.Scene(tuple(cells), 255))
                        presses += 1
    except Exception as e:  # reported by the benchmark, which would otherwise wait
        errors.append(e)
        ready.set()


def press_to_light(board, spec, rounds):
    """(latencies, scan interval, wire time, walk figures) in ms, from `rounds` presses."""
    import random
    import threading
    rng = random.Random(32)
    cells = spec["cells"]
    with tempfile.TemporaryDirectory() as tmp:
        uf2 = os.path.join(tmp, "board.uf2")
        with open(uf2, "wb") as f:
            f.write(board_uf2(board))
        with EmulatedBoard(uf2, spec["rows"], spec["cols"], cells, free_run=True,
                           clock_us=200, trace=True) as eb:
            path = eb.open_pty()
            eb.wait(lambda e: e["ev"] == "usb", 60)
            ready, stop, errors = threading.Event(), threading.Event(), []
            host = threading.Thread(target=light_presses, args=(path, eb, ready, stop, errors),
                                    daemon=True)
            host.start()
            try:
                ready.wait(300)
                if errors:
                    raise errors[0]
                return _rounds(eb, rng, cells, rounds)
            finally:
                stop.set()
                host.join(30)


def _rounds(eb, rng, cells, rounds):
    out, wires, stages = [], [], []
    eb.query("rowtiming")  # the scan intervals from here on
    for k in range(rounds):
        cell = (k * 37 + 5) % cells
        n = len(eb.events)
        # 20-40 ms apart in emulated time, so presses fall at every phase of the loop
        eb.schedule([[rng.randint(20_000, 40_000), cell, True]])
        press = eb.wait(lambda e: e["ev"] == "key" and e["down"], 120, n)
        want = list(LIT[k % 2])
        frame = eb.wait(lambda e: e["ev"] == "leds" and e["t"] > press["t"]
                        and e["rgb"][cell] == want, 120, n)
        out.append((frame["end"] - press["t"]) / 1e6)
        wires.append((frame["end"] - frame["start"]) / 1e6)
        # the stages: the press's EVENTS leaving the chip, the host's bytes arriving
        told = next(e["t"] for e in eb.events[n:] if e["ev"] == "cdc-out"
                    and e["t"] > press["t"])
        answer = [e["t"] for e in eb.events[n:] if e["ev"] == "host-bytes"
                  and told <= e["t"] < frame["start"]]
        if answer:
            # the host writes its ACK and the CELLS separately: the chip's own share
            # ends at the frame's start and begins with the last of them
            stages.append(((told - press["t"]) / 1e6, (answer[-1] - told) / 1e6,
                           (frame["start"] - answer[0]) / 1e6,
                           (frame["start"] - answer[-1]) / 1e6))
        eb.schedule([[rng.randint(2_000, 10_000), cell, False]])
    timing = eb.query("rowtiming")
    scan = timing["walkGapSum"] / max(1, timing["walks"]) / 1e6
    return out, scan, sorted(wires)[len(wires) // 2], timing, stages


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="knockabout")
    ap.add_argument("--seconds", type=float, default=2.0,
                    help="emulated seconds of main loop (default 2)")
    ap.add_argument("--rounds", type=int, default=100,
                    help="presses timed from key to light (default 100; 0: none)")
    ap.add_argument("--latency-only", action="store_true",
                    help="only the press-to-light rounds")
    args = ap.parse_args(argv)
    with open(os.path.join(ROOT, "firmware", "boards.json")) as f:
        spec = json.load(f)[args.board]
    if not args.latency_only:
        timings(args, spec)
    if args.rounds:
        started = time.monotonic()
        lat, scan, wire, t, stages = press_to_light(args.board, spec, args.rounds)
        floor = scan + wire
        print(f"  press on the key pins to the last bit of the answering LED frame, "
              f"{len(lat)} presses, a host on the pty lighting the pressed cell:")
        print(f"    median {statistics.median(lat):.2f} ms, p95 {pct(lat, 0.95):.2f} ms, "
              f"worst {max(lat):.2f} ms")
        print(f"    floor {floor:.2f} ms = key scan interval {scan:.2f} ms (mean of "
              f"{t['walks']} row walks, longest {t['walkGapMax'] / 1e6:.2f}) + chain on the "
              f"wire {wire:.2f} ms; p95 / floor = {pct(lat, 0.95) / floor:.2f}")
        names = ("press -> EVENTS leaves the chip", "host's answer, to its last bytes",
                 "answer's first bytes -> frame start", "answer's last bytes -> frame start")
        for name, values in zip(names, zip(*stages)):
            print(f"    {name:38s} median {statistics.median(values):6.2f} ms, "
                  f"p95 {pct(values, 0.95):6.2f} ms")
        device = [a + c for a, _, _, c in stages]
        print(f"    the chip's share (all but the host), + wire: median "
              f"{statistics.median(device) + wire:.2f} ms, p95 {pct(device, 0.95) + wire:.2f} ms "
              f"({len(stages)} presses)")
        print(f"  ({time.monotonic() - started:.0f} s of wall time)")


def timings(args, spec):
    with tempfile.TemporaryDirectory() as tmp:
        uf2 = os.path.join(tmp, "board.uf2")
        with open(uf2, "wb") as f:
            f.write(board_uf2(args.board))
        started = time.monotonic()
        with EmulatedBoard(uf2, spec["rows"], spec["cols"], spec["cells"], free_run=True,
                           hold=("back",)) as eb:
            eb.wait(lambda e: e["ev"] == "usb", 60)
            payload = scene_payload(spec["cells"])
            n = len(eb.events)
            ms = int(args.seconds * 1000)
            code = SETUP.replace("SCENE", repr(payload)) + LOOP.replace(
                "STEADY", str(STEADY_MS)).replace("MS", str(ms))
            # the loop reads the host's frames from USB while it runs
            out = raw_exec(eb, code, 900, feed=(
                P.encode_frame(P.H_HELLO, 0, P.hello_payload(0x4B42)),
                P.encode_frame(P.H_SCENE, 1, payload),
                P.encode_frame(P.H_DISPLAY, 2, P.Display(("Red to move",), (3, 5), 6, True,
                                                         1).payload())))
            frames = [e for e in eb.events[n:] if e["ev"] == "leds" and e["rgb"]]
        wall = time.monotonic() - started
    figures = dict(line.split(None, 1) for line in out.splitlines()
                   if line.split(None, 1)[:1] in (["free"], ["scan"], ["frame"], ["page"],
                                                  ["loop"], ["scans"], ["frames"]))
    scan_avg, scan_worst = map(float, figures["scan"].split())
    frame_avg, frame_worst = map(float, figures["frame"].split())
    page_avg, page_worst = map(float, figures["page"].split())
    loop_avg, loop_worst, worst_at, mode = figures["loop"].split()
    scan_gap_all, scan_gap, scan_gap_mean, n_scans = map(int, figures["scans"].split())
    render_worst, render_mean, n_frames = map(int, figures["frames"].split())
    wires = sorted((e["end"] - e["start"]) / 1e6 for e in frames if len(e["rgb"]) == spec["cells"])
    wire = wires[len(wires) // 2] if wires else float("nan")
    print(f"RP2040 at 125 MHz (rp2040js), MicroPython 1.27.0, board {args.board} "
          f"({spec['cells']} cells, {spec['rows']}x{spec['cols']})")
    print(f"  free heap after boot (gc.mem_free)   {int(figures['free']) / 1024:8.1f} KB")
    print(f"  full key scan + debounce             {scan_avg / 1000:8.3f} ms "
          f"(worst {scan_worst / 1000:.3f})")
    print(f"  whole frame in one go: render + DMA  {frame_avg / 1000:8.3f} ms "
          f"(all {spec['cells']} cells of a new scene; the loop renders in slices)")
    print(f"  scene frame on the wire (WS2812)     {wire:8.3f} ms "
          f"(median of {len(wires)} full frames decoded, bit-timing errors: "
          f"{sum(len(e['errors']) for e in frames)})")
    for e in frames:
        if e["errors"]:
            print(f"    first timing error, in a frame of {len(e['rgb'])} LEDs at "
                  f"{e['t'] / 1e6:.1f} ms: {e['errors'][0]}")
            break
    print(f"  main loop, every cell pulsing, from {STEADY_MS} ms on:")
    print(f"    key scan interval                  {scan_gap_mean / 1000:8.3f} ms "
          f"(worst {scan_gap / 1000:.3f}, {n_scans} scans)")
    print(f"    frame start to DMA start (sliced)  {render_mean / 1000:8.3f} ms "
          f"(worst {render_worst / 1000:.3f}, {n_frames} frames)")
    print(f"    frame start to last LED bit        {(render_worst / 1000 + wire):8.3f} ms "
          f"(worst render + wire)")
    print(f"  worst key scan interval from 0 ms    {scan_gap_all / 1000:8.3f} ms "
          f"(the pass that takes the host's frames)")
    print(f"  one OLED page (I2C, 400 kHz)         {page_avg / 1000:8.3f} ms")
    print(f"  main loop: mean pass {float(loop_avg) / 1000:.3f} ms, worst "
          f"{int(loop_worst) / 1000:.3f} ms at {worst_at} ms of {args.seconds:g} s "
          f"(the host's frames arrive from 0 ms; mode {mode}, 1 = host)")
    print(f"  ({wall:.0f} s of wall time)")


if __name__ == "__main__":
    main()
