"""The levels' win rates against each other (docs/bots.md, "Levels"): easy v fair, fair v
hard, easy v hard in every two-player game.

    python3 benchmarks/levels.py [--games N] [--seed S] [--only NAME ...] [--list]

Each row is `knockboard arena GAME --bots A,B` with the two levels (the same code,
`knockboard.arena.run_arena`: seats rotated, the games of one rotation on the same dice, a
game past the move cap unfinished); the `hard` level searches the board's iterations a move
(`bots/levels.py`), with a time cap of 30 s that is never reached, so the figures follow
from the seed on any machine.  The pairs with the search bot cost far more a game (K.O.:
about 15 s), so they play fewer games (the row's own count, printed).  Figures are printed,
never asserted; the last lines are the markdown rows of docs/bots.md's table.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "host"))

# benchmarks/arena.py: the games' names and move caps
try:
    from benchmarks.arena import GAMES  # imported (the tests: the repository on the path)
except ImportError:
    from arena import GAMES  # type: ignore[no-redef]  # run as a script: its folder on the path
from knockboard.arena import format_report, run_arena, wilson_interval  # noqa: E402
from knockboard.games import get_game  # noqa: E402

TWO_PLAYER = ("knockabout", "dodgeball", "ko2", "knockoff2")
TITLES = {"knockabout": "KNOCKabout", "dodgeball": "Dodgeball", "ko2": "K.O., 2 players",
          "knockoff2": "Knock-Off, 2 players"}
PAIRS = (("easy", "fair"), ("fair", "hard"), ("easy", "hard"))
# games a row: 200, fewer with the search bot where its games are dear (what a niced share
# of the shared 2-core machine played in the hour the table had: a K.O. game with the hard
# level is about 20 s of CPU); Dodgeball's fair v hard, the closest pair, got more
HARD_GAMES = {"knockabout-fair-hard": 100, "knockabout-easy-hard": 100,
              "dodgeball-fair-hard": 200, "dodgeball-easy-hard": 100,
              "ko2-fair-hard": 40, "ko2-easy-hard": 40}
CAPS = {prefix: (game, options, cap) for prefix, game, options, _, cap, _ in GAMES}
ROWS = [(f"{prefix}-{a}-{b}", prefix, a, b, HARD_GAMES.get(f"{prefix}-{a}-{b}", 200))
        for prefix in TWO_PLAYER for a, b in PAIRS]


def command(game_name, options, bots, games, seed, cap):
    return (f"knockboard arena {game_name} --bots {bots} --games {games} --seed {seed}"
            + "".join(f" --option {k}={v}" for k, v in options.items())
            + f" --budget 30 --max-moves {cap}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None,
                        help="games per row (default: the row's own, 200 or fewer with hard)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="*", default=None, metavar="NAME",
                        help="row names (or prefixes) to run")
    parser.add_argument("--list", action="store_true",
                        help="list the rows and their games and stop")
    args = parser.parse_args(argv)
    chosen = [r for r in ROWS if not args.only or any(r[0].startswith(o) for o in args.only)]
    if args.list:
        print("\n".join(f"{r[0]:<22} {r[4]} games" for r in chosen))
        return 0
    table = []
    for name, prefix, first, second, games in chosen:
        games = args.games or games
        game_name, options, cap = CAPS[prefix]
        bots = f"{first},{second}"
        start = time.perf_counter()
        result = run_arena(get_game(game_name, **options), [first, second], games, args.seed,
                           budget=30.0, max_decisions=cap)
        elapsed = time.perf_counter() - start
        print(f"== {name}: {command(game_name, options, bots, games, args.seed, cap)}")
        print(format_report(result))
        print(f"({elapsed:.0f} s)\n", flush=True)
        wins = result.entries[0].wins
        lo, hi = wilson_interval(wins, games)
        table.append(f"| {TITLES[prefix]} | {first} v {second} | {wins:g} / {games} | "
                     f"{wins / games:.3f} [{lo:.3f}, {hi:.3f}] | {result.unfinished} | "
                     f"{elapsed:.0f} s |")
    print("| game | pair (first's wins) | wins / games | win rate [95% Wilson] | "
          "unfinished | time |")
    print("| --- | --- | ---: | --- | ---: | ---: |")
    print("\n".join(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
