"""The figures of benchmarks/arena.md: random, greedy, strong and clairvoyant against greedy.

    python3 benchmarks/arena.py [--games N] [--first-game K] [--seed S] [--only NAME ...]
                                [--list]

One row per game, player count and tested bot: the tested bot in the first listed seat,
greedy bots in the others (`knockboard arena GAME --bots X,greedy[,greedy,greedy]`, the same
code: `knockboard.arena.run_arena`; seats rotated, the games of one rotation on the same
dice).  The clairvoyant reads the arena's dice stream ahead (`bots/clairvoyant.py`): its
win rate is the ceiling of what this search can win against the greedy bot.  The search bots
get the *iteration* budget they play with at the board (`bots/levels.playing_iterations`:
the `hard` level's, 600 a move, or a game's own search's), the same for strong and
clairvoyant, so the figures are those of the opponent people play and reproducible from the
seed on any machine; such a move takes 0.05-0.4 s on average here, the slowest K.O. ones
up to about 1.5 s (`benchmarks/bot_budget.py --iterations 600 --budget 5`), and `--budget
30` is only a cap, never reached.  Figures are printed, never asserted.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "host"))

from knockboard.arena import format_report, run_arena, wilson_interval  # noqa: E402
from knockboard.bots.knockoff_search import PLAY_ITERATIONS as KNOCKOFF_ITERATIONS  # noqa: E402
from knockboard.bots.levels import playing_iterations  # noqa: E402
from knockboard.games import game_names, get_game  # noqa: E402

TESTED = ("random", "greedy", "strong", "clairvoyant")
# name prefix, game, options, search iterations per move (the board's), move cap, default games
GAMES = [
    ("knockabout", "knockabout", {}, playing_iterations("knockabout"), 500, 400),
    # Dodgeball's turn search counts scored positions: its own budget, 30
    ("dodgeball", "dodgeball", {}, playing_iterations("dodgeball"), 1500, 400),
    ("ko2", "ko", {"players": 2}, playing_iterations("ko"), 1000, 400),
    # Two-player Knock-Off: its own search (bots/knockoff_search.py), an iteration being one
    # end of the turn looked at one turn further: its own budget, 30, covers every end of
    # every turn seen (25 at most), as the board's 600 do.
    ("knockoff2", "knockoff", {"players": 2}, KNOCKOFF_ITERATIONS, 1000, 400),
    # 4-player K.O.: about 350 plies a game, a quarter of them the tested bot's, so a row
    # with search costs an hour or two of one core: split it with --first-game.
    ("ko4", "ko", {"players": 4}, playing_iterations("ko"), 2000, 400),
    ("knockoff4", "knockoff", {"players": 4}, playing_iterations("knockoff"), 1000, 400),
]
PAIRINGS = [(f"{prefix}-{bot}", game, options,
             ",".join([bot] + ["greedy"] * (options.get("players", 2) - 1)),
             iterations if bot in ("strong", "clairvoyant") else None, cap, games)
            for prefix, game, options, iterations, cap, games in GAMES for bot in TESTED]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None,
                        help="games per row (default: the row's own, 400)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first-game", type=int, default=0, metavar="K",
                        help="play the row's games K .. K+N-1 only (a game follows from the "
                             "seed and its number alone: a row split over processes adds up "
                             "to the whole row)")
    parser.add_argument("--only", nargs="*", default=None, metavar="NAME",
                        help="pairing names (or prefixes) to run")
    parser.add_argument("--list", action="store_true", help="list the pairings and stop")
    args = parser.parse_args(argv)
    if args.first_game < 0:
        parser.error("--first-game: a game number from 0 on")
    chosen = [p for p in PAIRINGS
              if not args.only or any(p[0].startswith(o) for o in args.only)]
    if args.list:
        for p in chosen:
            print(p[0])
        return 0
    summary = []
    for name, game_name, options, bots, iterations, cap, games in chosen:
        games = args.games or games
        if game_name not in game_names():
            summary.append(f"{name:<26} skipped: game {game_name!r} is not registered")
            continue
        game = get_game(game_name, **options)
        start = time.perf_counter()
        result = run_arena(game, bots.split(","), games, args.seed,
                           budget=30.0, iterations=iterations, max_decisions=cap,
                           first=args.first_game)
        elapsed = time.perf_counter() - start
        part = (f"games {args.first_game}-{args.first_game + games - 1} of "
                if args.first_game else "")
        print(f"== {name}: {part}knockboard arena {game_name} --bots {bots} "
              f"--games {args.first_game + games} --seed {args.seed}"
              + "".join(f" --option {k}={v}" for k, v in options.items())
              + (f" --iterations {iterations} --budget 30" if iterations else "")
              + f" --max-moves {cap}")
        print(format_report(result))
        print(f"({elapsed:.0f} s)\n", flush=True)
        first = result.entries[0]
        rate = first.wins / first.games
        lo, hi = wilson_interval(first.wins, first.games)
        per_move = 1000 * first.seconds / max(first.moves, 1)
        summary.append(f"{name:<24} {first.wins:>6g}/{games} {rate:.3f} [{lo:.3f}, {hi:.3f}] "
                       f"unfinished {result.unfinished}, "
                       f"{'iterations ' + str(iterations) if iterations else 'no search':<15}"
                       f" {per_move:.1f} ms/move")
    print("summary (first bot's win rate, 95% Wilson interval):")
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
