"""Board remake speed: each PCB placed, routed and written again as tests/boards/ does
(hardware/pcbs.py make into a scratch folder), timed, and compared with the committed files.

    python3 benchmarks/route_boards.py [BOARD ...] [--repo PATH]

Prints per board the seconds of routing (hardware/routing/route.py, wall and CPU) and of
the whole remake (placing, routing, pcbnew writing the .kicad_pcb, BOM, CPL, renders), and
whether the files equal the committed ones: "same", "same but the inputs hash" (the
.kicad_pcb differs only in its title block's hash line: the hashed code changed, the
board did not) or the files that differ. --repo times another checkout's code against its
own committed boards (a before/after of a change: `--repo /path/to/main`). Figures are
printed, never asserted. Needs KiCad's pcbnew (Debian's /usr/bin/python3), as the tests do.
"""

import argparse
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUFFIXES = (".kicad_pcb", "-bom.csv", "-cpl.csv")


def compare(name, made_dir, pcb_dir):
    """'same', 'same but the inputs hash' or the names of the files that differ."""
    differ, hash_only = [], False
    for suffix in SUFFIXES:
        with open(os.path.join(pcb_dir, name + suffix), "rb") as f:
            committed = f.read()
        with open(os.path.join(made_dir, name + suffix), "rb") as f:
            made = f.read()
        if made == committed:
            continue
        a, b = committed.splitlines(), made.splitlines()
        changed = [x for x, y in zip(a, b) if x != y]
        if (suffix == ".kicad_pcb" and len(a) == len(b) and len(changed) == 1
                and b"inputs sha256" in changed[0]):
            hash_only = True
        else:
            differ.append(name + suffix)
    if differ:
        return "DIFFER: " + ", ".join(differ)
    return "same but the inputs hash" if hash_only else "same"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("boards", nargs="*", help="board names (default: every board)")
    ap.add_argument("--repo", default=HERE, help="the checkout whose code and boards to use")
    args = ap.parse_args()
    repo = os.path.abspath(args.repo)
    sys.path[:0] = [repo, os.path.join(repo, "host")]
    from hardware import pcbs
    from hardware.routing import route

    boards = pcbs.boards(repo)
    names = [b[0] for b in boards]
    unknown = [n for n in args.boards if n not in names]
    if unknown:
        sys.exit(f"unknown board {', '.join(unknown)}: the boards are {', '.join(names)}")
    timing = {}
    plain_route = route.route

    def timed_route(plan, attempts=None):
        # pcbs.make routes through route.route: its time, apart from placing and writing
        wall, cpu = time.perf_counter(), time.process_time()
        out = plain_route(plan, attempts)
        timing["route"] = (time.perf_counter() - wall, time.process_time() - cpu)
        return out
    route.route = timed_route
    print(f"{'board':26} {'route s':>8} {'route CPU s':>12} {'remake s':>9}  output")
    total = [0.0, 0.0, 0.0]
    for name, text, extra, plan_maker in boards:
        if args.boards and name not in args.boards:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            pcbs.make(name, text, plan_maker, pcbs.inputs_hash(name, text, extra), tmp,
                      os.path.join(tmp, "renders"), log=lambda *_: None)
            whole = time.perf_counter() - start
            verdict = compare(name, tmp, os.path.join(repo, pcbs.PCB_DIR))
        wall, cpu = timing.pop("route")
        for i, v in enumerate((wall, cpu, whole)):
            total[i] += v
        print(f"{name:26} {wall:8.1f} {cpu:12.1f} {whole:9.1f}  {verdict}", flush=True)
    print(f"{'total':26} {total[0]:8.1f} {total[1]:12.1f} {total[2]:9.1f}")


if __name__ == "__main__":
    main()
