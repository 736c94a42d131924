"""Soak: the host process (`knockboard play --port <pty>`) SIGKILLed at random points of
scripted computer-vs-computer games of the four games on the simulator, then
`knockboard resume --port <pty>`, until KILLS kills; every resumed game must equal the
uninterrupted one.

    python3 tests/soak/host_killed.py [--kills 100] [--per-game 5] [--games ...]

Real processes and a real pseudo-terminal in real time: K.O. and Dodgeball games of two
greedy bots run to a thousand plies, so 100 kills take about ten minutes."""

import argparse
import os
import random
import tempfile
import time
from collections import Counter

import _paths  # noqa: F401

from killed import GAME_SEEDS, expected_record, kill_and_resume


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=100)
    ap.add_argument("--per-game", type=int, default=5, help="kill points per game")
    ap.add_argument("--games", default="knockabout,knockoff,dodgeball,ko")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    games = args.games.split(",")
    tot = Counter()
    per_game = Counter()
    bad = 0
    t0 = time.perf_counter()
    run = 0
    with tempfile.TemporaryDirectory() as tmp:
        while tot["kills"] < args.kills:
            game = games[run % len(games)]
            seed = GAME_SEEDS[game] + 100 * (run // len(games))
            run += 1
            expected = expected_record(game, seed)
            kills = min(args.per_game, args.kills - tot["kills"])
            try:
                f = kill_and_resume(game, kills, rng, os.path.join(tmp, f"{run}.sqlite3"),
                                    seed=seed, expected=expected)
            except AssertionError as err:
                bad += 1
                print(f"  {game} seed {seed}: FAILED: {err}", flush=True)
                continue
            tot.update(games=1, same=1, **{k: v for k, v in f.items() if k != "plies"})
            per_game[game] += f["kills"]
            print(f"  {game:<10} seed {seed:<4} {f['plies']:>5} plies, {f['kills']} kills "
                  f"({f['kills before the first action']} before the first move), "
                  f"{f['resumes']} resumes: equal", flush=True)
    verdict = f"FAILED {bad}" if bad else "every resumed game equal to the uninterrupted one"
    print(f"host killed: {tot['kills']} SIGKILLs ({dict(per_game)}), {tot['resumes']} "
          f"resumes, {tot['games']} games, {tot['taps']} OK presses: {verdict} "
          f"({time.perf_counter() - t0:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
