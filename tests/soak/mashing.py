"""Soak: button mashing, 10,000 random key events per game (cells, controls, long holds,
several keys at once) on each of the four boards, refereed after every event.

    python3 tests/soak/mashing.py [--events 10000] [--seed 1] [--games ...]"""

import argparse
import time

import _paths  # noqa: F401

from mash import mash
from rig import GAMES

COLUMNS = ("events", "presses", "cell presses", "refused", "errors buzzed", "accepted",
           "judged independently", "actions played", "actions taken back", "games",
           "events queued by the board", "events received by the host", "wall seconds")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", default=",".join(sorted(GAMES)))
    args = ap.parse_args()
    t0 = time.perf_counter()
    bad = 0
    print("game        " + " | ".join(COLUMNS))
    for game in args.games.split(","):
        try:
            rig, c = mash(game, args.events, args.seed)
        except AssertionError as err:
            bad += 1
            print(f"{game}: FAILED: {err}", flush=True)
            continue
        if c["events queued by the board"] != c["events received by the host"] or \
                c["errors asked"] != c["errors buzzed"]:
            bad += 1
        print(f"{game:<11} " + " | ".join(str(c[k]) for k in COLUMNS), flush=True)
    verdict = f"FAILED {bad}" if bad else "no crash, only legal actions, every refused " \
        "press flashed and buzzed, no key event lost"
    print(f"mashing: {verdict} ({time.perf_counter() - t0:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
