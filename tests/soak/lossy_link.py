"""Soak: seeded scripted games of the four games on a lossy line (bytes dropped,
corrupted, duplicated, delayed at 0.1 %, 1 %, 5 %), each compared with the same game on a
clean line. Prints presses sent/received/acknowledged, retransmits and what was lost.

    python3 tests/soak/lossy_link.py [--seeds 5] [--rates 0.001,0.01,0.05] [--games ...]

Exit status 1 if any game differs from its clean run or any press was lost or doubled."""

import argparse
import time

import _paths  # noqa: F401

from rig import GAMES, PressLost, play_scripted


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5, help="line seeds per game and rate")
    ap.add_argument("--rates", default="0.001,0.01,0.05")
    ap.add_argument("--games", default=",".join(sorted(GAMES)))
    args = ap.parse_args()
    rates = [float(r) for r in args.rates.split(",")]
    games = args.games.split(",")
    t0 = time.perf_counter()
    bad = 0
    print(f"{'game':<11}{'rate':>6}{'games':>6}{'same':>6}{'presses':>8}{'events':>8}"
          f"{'recv':>8}{'acked':>8}{'lost':>5}{'dup':>5}{'rtx host':>9}{'rtx board':>10}"
          f"{'reconn':>7}{'faulted B':>10}{'in step':>8}{'max s':>7}")
    for game in games:
        clean, _ = play_scripted(game, 0.0)
        want = clean.session.record.actions
        for rate in rates:
            tot = dict(games=0, same=0, presses=0, events=0, recv=0, acked=0, lost=0, dup=0,
                       rh=0, rb=0, rc=0, fb=0, step=0, maxs=0.0)
            for seed in range(1, args.seeds + 1):
                try:
                    rig, f = play_scripted(game, rate, line_seed=seed)
                except PressLost as err:
                    print(f"  {game} {rate} seed {seed}: PRESS LOST: {err}")
                    bad += 1
                    continue
                tot["games"] += 1
                same = rig.session.record.actions == want and rig.made == clean.made
                tot["same"] += same
                tot["presses"] += f["presses made"]
                tot["events"] += f["events made"]
                tot["recv"] += f["events received by the host"]
                tot["acked"] += f["events acknowledged"]
                got, made = rig.received, rig.made
                tot["lost"] += max(0, len(made) - len(got))
                tot["dup"] += max(0, len(got) - len(made)) + (got != made and
                                                             len(got) == len(made))
                tot["rh"] += f["host retransmits"]
                tot["rb"] += f["board retransmits"]
                tot["rc"] += f["reconnects"]
                tot["fb"] += f["bytes faulted"]
                s = f["seconds to be in step at the end"]
                if s is not None:
                    tot["step"] += 1
                    tot["maxs"] = max(tot["maxs"], s)
                if not same or got != made:
                    bad += 1
                    print(f"  {game} {rate} seed {seed}: DIFFERS from the clean game")
            print(f"{game:<11}{rate:>6.3f}{tot['games']:>6}{tot['same']:>6}{tot['presses']:>8}"
                  f"{tot['events']:>8}{tot['recv']:>8}{tot['acked']:>8}{tot['lost']:>5}"
                  f"{tot['dup']:>5}{tot['rh']:>9}{tot['rb']:>10}{tot['rc']:>7}{tot['fb']:>10}"
                  f"{tot['step']:>8}{tot['maxs']:>7.1f}", flush=True)
    verdict = f"FAILED {bad}" if bad else \
        "nothing lost, nothing doubled, every record equal"
    print(f"lossy line: {verdict} ({time.perf_counter() - t0:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
