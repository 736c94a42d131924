"""The review against the arena (docs/bots.md, "Review"; docs/review.md): over the same
seeded games, does the review rank the bots as the arena does (random makes more error a
move than greedy, greedy more than strong), and how much of each game is luck?

    python3 benchmarks/review.py [--games N] [--seed S] [--budget ITERATIONS] [--only GAME ...]
                                 [--value FILE]

Per game, N games of random v greedy and N of greedy v strong (seats alternating; the strong
bot at the arena's 30 iterations a move, its own searches' budgets in Dodgeball and
two-player Knock-Off), played by `review.seeded.bot_game` on seeded dice, each reviewed at
`--budget` iterations a position (the default: the review's; `--value FILE`: Dodgeball's
search with the value in that weights file, a candidate from `train_dodgeball_review.py`,
or the strong bot's, instead of the review's).  Per bot: its error a move
(mean over its moves in all its games); per game: the luck share, the players' absolute
luck summed over (that + their errors summed), and the time to review a game, scaled to 100
steps (the reviews' own times, and the CPU time they took: the machine is shared, and
under load the CPU time is the one that says what the review costs).  Figures are printed,
never asserted; the last lines are the markdown rows of docs/bots.md's table.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "host"))

from knockboard.review import DEFAULT_ITERATIONS, review_record, summarise  # noqa: E402
from knockboard.bots.dodgeball_value import load_model  # noqa: E402
from knockboard.games import get_game  # noqa: E402
from knockboard.review.estimator import (GAME_ITERATIONS, Estimator,  # noqa: E402
                                         default_iterations)
from knockboard.review.seeded import bot_game  # noqa: E402

# (name, title, engine, options)
GAMES = (("knockabout", "KNOCKabout", "knockabout", {}),
         ("dodgeball", "Dodgeball", "dodgeball", {}),
         ("ko2", "K.O., 2 players", "ko", {"players": 2}),
         ("knockoff2", "Knock-Off, 2 players", "knockoff", {"players": 2}))
PAIRS = (("random", "greedy"), ("greedy", "strong"))
BOT_ITERATIONS = 30


def measure(engine, options, games, seed, budget, value=None):
    error = {b: [0.0, 0] for pair in PAIRS for b in pair}      # bot -> [error, moves]
    shares = {}                         # pairing -> [absolute luck, error] summed
    seconds = cpu = steps = 0.0
    unexplained = 0.0
    for pair in PAIRS:
        luck = err_total = 0.0
        for g in range(games):
            seats = pair if g % 2 == 0 else pair[::-1]
            record = bot_game(engine, seats, seed + g, options, iterations=BOT_ITERATIONS)
            if record.status != "finished":
                print(f"  {seats} seed {seed + g}: unfinished, left out", flush=True)
                continue
            start, start_cpu = time.perf_counter(), time.process_time()
            estimator = None
            if value is not None and engine == "dodgeball":
                estimator = Estimator(get_game(engine, **options),
                                      budget or default_iterations(engine), 0,
                                      value_model=value)
            review = review_record(record, estimator=estimator, iterations=budget)
            seconds += time.perf_counter() - start
            cpu += time.process_time() - start_cpu
            steps += len(review.steps)
            for s in summarise(review):
                bot = seats[s.player]
                error[bot][0] += s.error
                error[bot][1] += s.decisions
                luck += abs(s.luck)
                err_total += s.error
                unexplained = max(unexplained, abs(s.unexplained))
            print(f"  {seats[0]} v {seats[1]}, seed {seed + g}: {len(review.steps)} steps, "
                  f"{time.perf_counter() - start:.1f} s ({time.process_time() - start_cpu:.1f} s "
                  f"of CPU)", flush=True)
        shares[pair] = luck / (luck + err_total) if luck + err_total else 0.0
    per_move = {b: e / max(n, 1) for b, (e, n) in error.items()}
    return per_move, shares, 100 * seconds / max(steps, 1), 100 * cpu / max(steps, 1), unexplained


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games a pairing (default 4)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=int, default=None,
                        help="the review's iterations a position (default: the review's, "
                             f"{DEFAULT_ITERATIONS}; Dodgeball {GAME_ITERATIONS['dodgeball']})")
    parser.add_argument("--only", nargs="+", choices=[g[0] for g in GAMES])
    parser.add_argument("--value", default=None, metavar="FILE",
                        help="Dodgeball: the search with this value's weights file")
    args = parser.parse_args(argv)
    try:
        value = load_model(args.value) if args.value else None
    except (OSError, ValueError, KeyError) as err:
        parser.error(f"--value {args.value}: {err}")
    rows = []
    for name, title, engine, options in GAMES:
        if args.only and name not in args.only:
            continue
        print(f"{title}:", flush=True)
        per_move, shares, per100, cpu100, slack = measure(engine, options, args.games, args.seed,
                                                          args.budget, value)
        ranked = per_move["random"] > per_move["greedy"] > per_move["strong"]
        rows.append(f"| {title} | {per_move['random']:.4f} | {per_move['greedy']:.4f} | "
                    f"{per_move['strong']:.4f} | {'yes' if ranked else 'no'} | "
                    f"{shares[PAIRS[0]]:.2f} | {shares[PAIRS[1]]:.2f} | "
                    f"{slack:.2f} | {per100:.1f} s ({cpu100:.1f} s) |")
        print(rows[-1], flush=True)
    budget = "the review's default" if args.budget is None else args.budget
    print(f"\nreview budget {budget} iterations a position, {args.games} games a "
          f"pairing, seed {args.seed}")
    print("| game | random: error a move | greedy | strong | ranked as the arena | luck share, "
          "random v greedy | luck share, greedy v strong | sum check's slack (max) | review of "
          "100 steps (of CPU) |")
    print("| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
    for row in rows:
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
