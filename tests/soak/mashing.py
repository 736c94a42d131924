"""Soak: button mashing, 10,000 random key events per game (cells, controls, long holds,
several keys at once) on each of the four boards, refereed after every event. With
--person the masher also walks the menu to its entries (seats, physical dice entered on the
board, edit mode, new games) and pulls the cable now and then.

    python3 tests/soak/mashing.py [--events 10000] [--seed 1] [--games ...] [--person]"""

import argparse
import time

import _paths  # noqa: F401

from mash import mash
from rig import GAMES

COLUMNS = ("events", "presses", "cell presses", "refused", "errors buzzed", "accepted",
           "judged independently", "actions played", "actions taken back", "games",
           "events queued by the board", "events received by the host", "wall seconds")
PERSON_COLUMNS = ("menu entries chosen", "edits made", "dice entered on the board", "unplugs")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", default=",".join(sorted(GAMES)))
    ap.add_argument("--person", action="store_true",
                    help="use the menu, edit mode and dice entry; pull the cable")
    args = ap.parse_args()
    columns = COLUMNS + (PERSON_COLUMNS if args.person else ())
    t0 = time.perf_counter()
    bad = 0
    print("game        " + " | ".join(columns))
    for game in args.games.split(","):
        try:
            rig, c = mash(game, args.events, args.seed, person=args.person,
                          unplugs=args.person)
        except AssertionError as err:
            bad += 1
            print(f"{game}: FAILED: {err}", flush=True)
            continue
        # with the cable pulled, events and buzzes die with the board
        if not args.person and (c["events queued by the board"] !=
                                c["events received by the host"] or
                                c["errors asked"] != c["errors buzzed"]):
            bad += 1
        print(f"{game:<11} " + " | ".join(str(c[k]) for k in columns), flush=True)
    verdict = f"FAILED {bad}" if bad else "no crash, only legal actions, every refused " \
        "press flashed and buzzed" + ("" if args.person else ", no key event lost")
    print(f"mashing: {verdict} ({time.perf_counter() - t0:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
