"""The figures of benchmarks/arena.md: every pairing its targets name, with the budget used.

    python3 benchmarks/arena.py [--games N] [--seed S] [--only NAME ...] [--list]

Each pairing is a `knockboard arena` run (same code: `knockboard.arena.run_arena`); the
strong bot gets an *iteration* budget per move, so the figures are reproducible from the
seed on any machine, and the report shows the time per move it took here.  The iteration
budgets below are reduced from what 1 s per move allows on a fast machine so that 200 games
per pairing fit on the project's 2-core machine; the measured ms/move is printed beside
each figure.  Figures are printed, never asserted; a missed target is reported as missed.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "host"))

from knockboard.arena import format_report, run_arena, wilson_interval  # noqa: E402
from knockboard.games import game_names, get_game  # noqa: E402

# name, game, options, bots, target for the first bot, strong iterations, move cap
PAIRINGS = [
    ("knockabout-greedy-random", "knockabout", {}, "greedy,random", 0.75, None, 500),
    ("dodgeball-greedy-random", "dodgeball", {}, "greedy,random", 0.75, None, 1500),
    ("ko2-greedy-random", "ko", {"players": 2}, "greedy,random", 0.75, None, 1000),
    ("knockoff2-greedy-random", "knockoff", {"players": 2}, "greedy,random", 0.75, None,
     1000),
    ("knockabout-strong-greedy", "knockabout", {}, "strong,greedy", 0.75, 1000, 500),
    ("dodgeball-strong-greedy", "dodgeball", {}, "strong,greedy", 0.75, 300, 1000),
    ("ko2-strong-greedy", "ko", {"players": 2}, "strong,greedy", 0.75, 500, 1000),
    ("knockoff2-strong-greedy", "knockoff", {"players": 2}, "strong,greedy", 0.75, 1000,
     1000),
    # 4-player K.O.: about 800 plies a game, set-up included; 200 iterations keep 200 games
    # within about 10 minutes here.  (Before the K.O. score knew a lost seat, three greedy
    # seats dragged these games on for ever: 18 of 24 games hit the cap.)
    ("ko4-strong-3greedy", "ko", {"players": 4}, "strong,greedy,greedy,greedy", 0.40, 200,
     5000),
    ("knockoff4-strong-3greedy", "knockoff", {"players": 4}, "strong,greedy,greedy,greedy",
     0.40, 1000, 1000),
]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="*", default=None, metavar="NAME",
                        help="pairing names (or prefixes) to run")
    parser.add_argument("--list", action="store_true", help="list the pairings and stop")
    args = parser.parse_args(argv)
    chosen = [p for p in PAIRINGS
              if not args.only or any(p[0].startswith(o) for o in args.only)]
    if args.list:
        for p in chosen:
            print(p[0])
        return 0
    summary = []
    for name, game_name, options, bots, target, iterations, cap in chosen:
        if game_name not in game_names():
            summary.append(f"{name:<26} skipped: game {game_name!r} is not registered")
            continue
        game = get_game(game_name, **options)
        start = time.perf_counter()
        result = run_arena(game, bots.split(","), args.games, args.seed,
                           budget=30.0, iterations=iterations, max_decisions=cap)
        elapsed = time.perf_counter() - start
        print(f"== {name}: knockboard arena {game_name} --bots {bots} --games {args.games} "
              f"--seed {args.seed}"
              + "".join(f" --option {k}={v}" for k, v in options.items())
              + (f" --iterations {iterations} --budget 30" if iterations else "")
              + f" --max-moves {cap}")
        print(format_report(result))
        print(f"({elapsed:.0f} s)\n", flush=True)
        first = result.entries[0]
        rate = first.wins / first.games
        lo, hi = wilson_interval(first.wins, first.games)
        per_move = 1000 * first.seconds / max(first.moves, 1)
        verdict = "met" if rate >= target else "NOT met"
        summary.append(f"{name:<26} {first.name:<6} {rate:.3f} [{lo:.3f}, {hi:.3f}] "
                       f"target {target:.2f} {verdict:<7} {args.games} games, "
                       f"{'iterations ' + str(iterations) if iterations else 'no search':<15}"
                       f" {per_move:.1f} ms/move")
    print("summary (first bot's win rate, 95% Wilson interval):")
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
