"""Firmware figures: memory after boot in the MicroPython VM, bytes per full scene update,
encode/decode rates of both codecs.

    python3 benchmarks/firmware.py [--board knockabout] [--seconds S]

Memory is gc.mem_alloc() in MicroPython's WebAssembly port (npm, run by Node.js; `npm ci`
installs it) after importing the firmware core and building the Device with a fake HAL:
the firmware's own heap, bytecode included, without the rp2 HAL's few hundred bytes. The
.mpy row loads the mpy-cross output, as the Pico does. Rates in the VM are WebAssembly on
this machine, not a 133 MHz Cortex-M0+: read them as relative figures. Printed, never
asserted (the tests assert the limits that matter).
"""

import argparse
import json
import os
import re
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "tests"))

from knockboard.device import protocol as P  # noqa: E402

import mpvm  # noqa: E402

VM_CODE = r"""
import gc, time, json
# FRAMES (a host's HELLO, SCENE, DISPLAY) come prebuilt from CPython, so that only the
# firmware's own allocations are counted below.
boards = json.load(open('/fw/boards.json'))
gc.collect()
base = gc.mem_alloc()
import app, board as B
from fakehal import FakeHal
pins = json.load(open('/fw/pinmap.json'))
cfg = B.make(boards, pins, {'board': BOARD})
hal = FakeHal(cfg)
dev = app.Device(hal, cfg)
for i in range(20):
    dev.step(hal.now); hal.now += 1
gc.collect()
boot = gc.mem_alloc() - base
for f in FRAMES:
    hal.rx.extend(f)
    for i in range(20):
        dev.step(hal.now); hal.now += 1
for i in range(1500):
    dev.step(hal.now); hal.now += 1
    if len(hal.tx) > 256:
        hal.tx = bytearray()  # what a host would have read
hal.tx = bytearray()
gc.collect()
live = gc.mem_alloc() - base
print('MEM', boot, live)
"""

VM_RATES = r"""
# step cost with 127 pulsing cells (render every 20 ms)
t0 = time.ticks_ms()
for i in range(2000):
    dev.step(hal.now); hal.now += 1
print('STEP_US', time.ticks_diff(time.ticks_ms(), t0) * 1000 // 2000)
# decoder and encoder rates on scene frames
import protocol as PR
n = cfg.cells
scene = bytes([255, n >> 8, n & 255]) + bytes([200, 40, 10, 2]) * n
enc = PR.Encoder()
enc.body[2:2 + len(scene)] = scene
wire = bytes(enc.frame(0x10, 3, len(scene)))
dec = PR.Decoder()
k = 0
t0 = time.ticks_ms()
while time.ticks_diff(time.ticks_ms(), t0) < 1000:
    for b in wire:
        dec.feed(b)
    k += 1
ms = time.ticks_diff(time.ticks_ms(), t0)
print('DEC', k * 1000 // ms, k * len(wire) * 1000 // ms)
enc.body[2:2 + len(scene)] = scene
k = 0
t0 = time.ticks_ms()
while time.ticks_diff(time.ticks_ms(), t0) < 1000:
    enc.frame(0x10, 3, len(scene))
    k += 1
ms = time.ticks_diff(time.ticks_ms(), t0)
print('ENC', k * 1000 // ms, k * len(wire) * 1000 // ms)
"""


def host_frames(board):
    with open(os.path.join(ROOT, "firmware", "boards.json")) as f:
        n = json.load(f)[board]["cells"]
    scene = P.Scene(tuple(P.Cell(200, 40, 10, P.PULSE) for _ in range(n)))
    display = P.Display(("Red to move", "roll 7"), (3, 4), 6, True, 1)
    return [P.encode_frame(P.H_HELLO, 0, P.hello_payload(0x1234)),
            P.encode_frame(P.H_SCENE, 1, scene.payload()),
            P.encode_frame(P.H_DISPLAY, 2, display.payload())]


def vm_figures(board, use_mpy, rates=True):
    files = {**mpvm.firmware_files(), **mpvm.test_files()}
    tmp = None
    if use_mpy:
        from knockboard.device.flash import compile_firmware
        tmp = tempfile.mkdtemp()
        for path in compile_firmware(tmp):
            name = os.path.basename(path)
            if name.endswith(".mpy"):
                files.pop("/fw/" + name[:-4] + ".py", None)
                files["/fw/" + name] = path
    rc, out = mpvm.run(f"BOARD = {board!r}\nFRAMES = {host_frames(board)!r}\n" + VM_CODE
                       + (VM_RATES if rates else ""),
                       files=files)
    if rc:
        raise SystemExit("MicroPython VM run failed:\n" + out)
    got = {}
    for key in ("MEM", "STEP_US", "DEC", "ENC") if rates else ("MEM",):
        m = re.search(rf"^{key} (.*)$", out, re.M)
        got[key] = [int(x) for x in m.group(1).split()]
    return got


def rate(fn, seconds):
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        fn()
        n += 1
    return n / (time.perf_counter() - t0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="knockabout")
    ap.add_argument("--seconds", type=float, default=1.0)
    args = ap.parse_args()
    with open(os.path.join(ROOT, "firmware", "boards.json")) as f:
        boards = json.load(f)
    if args.board not in boards:
        raise SystemExit(f"unknown board {args.board!r}: {', '.join(sorted(boards))}")

    print("bytes per full scene update (SCENE frame on the wire + the device's ACK):")
    ack = len(P.encode_frame(P.D_ACK, 1))
    for name, b in sorted(boards.items(), key=lambda kv: -kv[1]["cells"]):
        n = b["cells"]
        dark = len(P.encode_frame(P.H_SCENE, 1, P.Scene.blank(n).payload()))
        lit = len(P.encode_frame(P.H_SCENE, 1, P.Scene(
            tuple(P.Cell(200, 40, 10, P.PULSE) for _ in range(n))).payload()))
        worst = len(P.encode_frame(P.H_SCENE, 125, P.Scene(
            tuple(P.Cell(0x7E, 0x7D, 0x03, P.SOLID) for _ in range(n)), 0x7E).payload()))
        print(f"  {name:11s} {n:3d} cells: {dark} bytes typical, {worst} worst case "
              f"(every colour byte escaped), + {ack} ACK; lit scene {lit}")

    n = boards[args.board]["cells"]
    scene = P.Scene(tuple(P.Cell(200, 40, 10, P.PULSE) for _ in range(n)))
    wire = P.encode_frame(P.H_SCENE, 1, scene.payload())
    enc = rate(lambda: P.encode_frame(P.H_SCENE, 1, scene.payload()), args.seconds)
    dec = P.Decoder()
    drate = rate(lambda: dec.feed(wire), args.seconds)
    print(f"host codec (CPython {sys.version.split()[0]}), {args.board} scene frame of "
          f"{len(wire)} bytes:")
    print(f"  encode {enc:,.0f} frames/s ({enc * len(wire) / 1e6:.1f} MB/s), "
          f"decode {drate:,.0f} frames/s ({drate * len(wire) / 1e6:.1f} MB/s)")

    why = mpvm.missing()
    if why:
        print(f"MicroPython VM figures skipped: {why}")
        return
    for use_mpy in (False, True):
        g = vm_figures(args.board, use_mpy)
        kind = ".mpy (mpy-cross)" if use_mpy else ".py source"
        boot, live = g["MEM"]
        print(f"MicroPython 1.27 VM, firmware core as {kind}, {args.board} ({n} cells):")
        print(f"  memory after boot: {boot:,} bytes ({boot / 1024:.1f} KiB; target < 64 KiB); "
              f"with a host session, full scene and display: {live:,} bytes")
        print(f"  device step with {n} pulsing cells: {g['STEP_US'][0]} us average")
        print(f"  firmware decoder: {g['DEC'][0]} scene frames/s ({g['DEC'][1]:,} B/s); "
              f"encoder: {g['ENC'][0]} frames/s ({g['ENC'][1]:,} B/s)")


if __name__ == "__main__":
    main()
