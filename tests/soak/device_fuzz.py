"""Soak: random frames of every type, garbage and key presses into the firmware core
(tests/fw/test_fw_robustness.py's fuzzer), on CPython and inside the MicroPython VM; prints
frames fed, the device's answers, frames it rejected as damaged, and the VM heap sampled
between bursts (it must stay flat).

    python3 tests/soak/device_fuzz.py [--frames 100000] [--vm-frames 10000]"""

import argparse
import os
import random
import re
import sys
import time

import _paths  # noqa: F401

sys.path.insert(0, os.path.join(_paths.ROOT, "tests", "fw"))

import mpvm  # noqa: E402
from test_device_robustness import flat as heap_is_flat  # noqa: E402


def cpython(frames, board):
    import test_fw_robustness as T
    random.seed(2026)
    fz = T.Fuzz(board)
    t0 = time.perf_counter()
    while fz.sent < frames:
        fz.burst(100)
    T.recovers(fz)
    return fz, time.perf_counter() - t0


def vm(frames, board):
    per_chunk = max(10, min(500, frames // 12))     # a dozen heap samples at least
    why = mpvm.missing()
    if why:
        raise SystemExit(f"MicroPython VM unavailable: {why}")
    setup = (f"import gc, random\nimport test_fw_robustness as T\nrandom.seed(2026)\n"
             f"fz = T.Fuzz({board!r})\nfz.burst(100)\n")
    sample = ("while fz.hal.pending_input():\n    fz.run(1)\n"
              "fz.hal.tones = []\nfz.hal.take_tx()\ngc.collect()\n"
              "print('HEAP', gc.mem_alloc(), fz.sent, fz.answers, fz.dev.dec.errors)\n")
    code = [setup, sample] + [f"fz.burst({per_chunk})\n", sample] * (frames // per_chunk) \
        + ["T.recovers(fz)\nprint('RECOVERED')\n"]
    t0 = time.perf_counter()
    rc, out = mpvm.run(code, timeout=3600)
    if rc:
        raise SystemExit("VM run failed:\n" + out[-3000:])
    rows = [[int(x) for x in m] for m in re.findall(r"^HEAP (\d+) (\d+) (\d+) (\d+)$", out,
                                                       re.M)]
    return rows, "RECOVERED" in out, time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=100_000)
    ap.add_argument("--vm-frames", type=int, default=10_000)
    ap.add_argument("--board", default="knockabout")
    args = ap.parse_args()
    fz, secs = cpython(args.frames, args.board)
    print(f"CPython: {fz.sent} random frames/chunks to the {args.board} core, "
          f"{fz.answers} well-formed answers, {fz.dev.dec.errors} damaged frames "
          f"dropped, {fz.dev.errors} ERROR answers, 0 crashes, recovered ({secs:.0f} s)")
    rows, recovered, secs = vm(args.vm_frames, args.board)
    heaps = [r[0] for r in rows]
    last = rows[-1]
    print(f"MicroPython VM: {last[1]} random frames/chunks, {last[2]} answers, {last[3]} "
          f"damaged frames dropped, recovered: {recovered} ({secs:.0f} s)")
    print(f"VM heap after each burst (bytes): first {heaps[0]}, min {min(heaps)}, max "
          f"{max(heaps)}, last {heaps[-1]} over {len(heaps)} samples: {heaps}")
    flat = heap_is_flat(heaps)
    print("device fuzz: " + ("no crash, heap flat" if flat and recovered else "FAILED"))
    return 0 if flat and recovered else 1


if __name__ == "__main__":
    raise SystemExit(main())
