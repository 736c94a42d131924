"""Soak: seeded scripted games of the four games with the board unplugged at random moments,
in the middle of knock chains and of dice rolls; every game must end with the record of the
same game never unplugged, the board restored after every replug.

    python3 tests/soak/unplug.py [--seeds 10] [--games ...]

Exit status 1 on any difference or any board not restored."""

import argparse
import time
from collections import Counter

import _paths  # noqa: F401

from rig import GAMES, play_scripted
from unplug import play_unplugged


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10, help="unplug schedules per game")
    ap.add_argument("--games", default=",".join(sorted(GAMES)))
    args = ap.parse_args()
    t0 = time.perf_counter()
    bad = 0
    print(f"{'game':<11}{'games':>6}{'same':>6}{'unplugs':>8}{'random':>7}{'chain':>6}"
          f"{'roll':>6}{'restored':>9}{'max s':>6}{'pressed again':>14}{'presses':>8}")
    grand = Counter()
    for game in args.games.split(","):
        clean, _ = play_scripted(game)
        tot = Counter()
        max_s = 0.0
        for seed in range(1, args.seeds + 1):
            try:
                rig, f = play_unplugged(game, seed)
            except AssertionError as err:
                print(f"  {game} seed {seed}: FAILED: {err}")
                bad += 1
                continue
            same = rig.session.record.actions == clean.session.record.actions \
                and rig.received == rig.made
            bad += not same
            tot.update(games=1, same=int(same), unplugs=f["unplugs"],
                       random=f.get("random moment", 0), chain=f.get("mid knock chain", 0),
                       roll=f.get("mid dice roll", 0), restored=f["restores checked"],
                       again=f.get("presses made again", 0),
                       presses=sum(1 for k in rig.made if k[2]))
            max_s = max(max_s, f["max restore s"])
        grand.update(tot)
        print(f"{game:<11}{tot['games']:>6}{tot['same']:>6}{tot['unplugs']:>8}"
              f"{tot['random']:>7}{tot['chain']:>6}{tot['roll']:>6}{tot['restored']:>9}"
              f"{max_s:>6.1f}{tot['again']:>14}{tot['presses']:>8}", flush=True)
    verdict = f"FAILED {bad}" if bad else "every game equal, every replug restored"
    print(f"unplug: {grand['unplugs']} unplugs ({grand['chain']} mid chain, {grand['roll']} "
          f"mid roll) in {grand['games']} games: {verdict} ({time.perf_counter() - t0:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
