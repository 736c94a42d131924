"""Soak: 1,000 computer-vs-computer games (KNOCKabout, Knock-Off, K.O., Dodgeball in turn)
back to back on the headless simulator, the same four boards and sessions all along;
prints errors and memory every SAMPLE games: host (allocated blocks, live objects,
resident size, a tracemalloc window at the start and at the end) and firmware (what each
board's firmware core holds).

    python3 tests/soak/long_play.py [--games 1000] [--sample 100]

Exit status 1 on any error or if memory grew."""

import argparse

import _paths  # noqa: F401

from longplay import LINEUP, LongPlay

FAULT_FREE = {"rejected commands": 0, "bad frames to the host": 0,
              "bad frames to the board": 0, "board errors": 0, "reconnects": 0}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--sample", type=int, default=100)
    ap.add_argument("--window", type=int, default=5, help="traced games of each short game")
    args = ap.parse_args()
    print("lineup: " + "; ".join(f"{g} {o or ''} {'-'.join(s)}" for g, o, s in LINEUP))
    lp = LongPlay()
    errors = []
    lp.play(len(LINEUP))
    held0, top0 = lp.traced_window(args.window)
    first = lp.sample()
    print(f"traced window at the start: {held0} B held after {2 * args.window} games "
          f"({', '.join(top0)})")
    print(f"{'games':>6}{'plies':>9}{'wall s':>8}{'blocks':>9}{'objects':>9}{'rss KB':>8}"
          f"{'firmware B':>11}")

    def show(s):
        print(f"{s['games']:>6}{s['plies']:>9}{s['wall s']:>8}{s['blocks']:>9}"
              f"{s['objects']:>9}{s['rss KB']:>8}{s['firmware bytes']:>11}", flush=True)
    show(first)
    while lp.played < args.games:
        try:
            lp.play(min(args.sample, args.games - lp.played))
        except Exception as err:          # noqa: BLE001 - any error is the finding
            errors.append(f"after {lp.played} games: {type(err).__name__}: {err}")
            print("ERROR", errors[-1], flush=True)
            lp.played += 1
            continue
        show(lp.sample())
    held1, top1 = lp.traced_window(args.window)
    last = lp.sample()
    print(f"traced window at the end:   {held1} B held after {2 * args.window} games "
          f"({', '.join(top1)})")
    faults = lp.faults()
    grew = {k: last[k] - first[k] for k in ("blocks", "objects", "firmware bytes")}
    leak = grew["firmware bytes"] != 0 or grew["objects"] > first["objects"] // 100 \
        or grew["blocks"] > first["blocks"] // 50 or held1 > 2 * max(held0, 100_000)
    print(f"faults: {faults}")
    print(f"growth from game {first['games']} to {last['games']}: {grew}, rss "
          f"{first['rss KB']} -> {last['rss KB']} KB")
    bad = errors or faults != FAULT_FREE or leak
    print(f"long play: {lp.played} games, {lp.plies} plies: "
          + ("FAILED" if bad else "no error, no leak") + f" ({last['wall s']:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
