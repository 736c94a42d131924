"""The review's sum check on seeded bot games (docs/review.md, "The identity, and the sum
check"): how far each player's start + luck - errors + others' moves misses its result.

    python3 benchmarks/review_slack.py GAME --players N [--seeds FIRST LAST] [--budget I]
                                       [--seats BOT,BOT..] [--generic] [--value FILE]
                                       [--shares FILE]

Per seed, a game of greedy and random bots (seats alternating, greedy first on even seeds;
`--seats`: these bots, one a player, in every game) played by `review.seeded.bot_game`,
reviewed by the game's estimator (`make_estimator`; `--generic`: the tree search with the
plain score instead, the estimator every game had before its learnt value; `--value FILE`:
Dodgeball's search with the value in that weights file (a candidate from
`train_dodgeball_review.py`, or the strong bot's) instead of the review's; `--shares
FILE`: K.O. valued by the learnt shares in that weights file, a candidate from
`train_knockoff_shares.py --game ko --out FILE` or `train_ko_shares_review.py --out FILE`,
instead of the committed)
at `--budget` iterations a position (default: the review's).
Prints each game's slack (the players' misses, absolute: their mean and the largest), then
the mean over games and players (what `estimator.STATED_SLACK` bounds), the worst, the
worst per roll (what `STATED_RATE` bounds) and the time to review 100 steps (and its CPU
time).  Figures are printed, never asserted.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "host"))

from knockboard.arena import ARENA_BOTS  # noqa: E402
from knockboard.games import OptionError, get_game  # noqa: E402
from knockboard.review import Roll, review_record, summarise  # noqa: E402
from knockboard.bots.dodgeball_value import load_model  # noqa: E402
from knockboard.bots.ko_shares import load_model as load_ko_shares  # noqa: E402
from knockboard.review.estimator import (Estimator, TurnEstimator,  # noqa: E402
                                         default_iterations)
from knockboard.review.seeded import bot_game  # noqa: E402


def seats_for(seed, players):
    """Seed's game's bots: greedy and random alternating, greedy first on even seeds."""
    return tuple(("greedy", "random")[(p + seed) % 2] for p in range(players))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seeds", type=int, nargs=2, default=(11, 20),
                        metavar=("FIRST", "LAST"))
    parser.add_argument("--budget", type=int, default=None)
    parser.add_argument("--seats", default=None, metavar="BOT,BOT..",
                        help="the bots, one a player (default: greedy and random alternating)")
    parser.add_argument("--generic", action="store_true",
                        help="the tree search with the plain score, not the learnt value")
    parser.add_argument("--value", default=None, metavar="FILE",
                        help="Dodgeball: the search with this value's weights file")
    parser.add_argument("--shares", default=None, metavar="FILE",
                        help="K.O.: the learnt shares in this weights file")
    args = parser.parse_args(argv)
    if args.value and args.game != "dodgeball":
        parser.error("--value: a Dodgeball value's weights file; only Dodgeball has one")
    if args.shares and (args.game != "ko" or args.generic):
        parser.error("--shares: K.O.'s learnt shares' weights file, without --generic")
    try:
        value = load_model(args.value) if args.value else None
    except (OSError, ValueError, KeyError) as err:
        parser.error(f"--value {args.value}: {err}")
    options = {"players": args.players}
    try:
        game = get_game(args.game, **options)
    except OptionError as err:
        # a game of a fixed count (Dodgeball, KNOCKabout) takes no players option
        options = {}
        game = get_game(args.game)
        if game.num_players != args.players:
            parser.error(str(err))
    try:
        shares = load_ko_shares(args.players, args.shares) if args.shares else None
    except (OSError, ValueError, KeyError) as err:
        parser.error(f"--shares {args.shares}: {err}")
    seated = args.seats.split(",") if args.seats else None
    if seated and (len(seated) != args.players or not set(seated) <= set(ARENA_BOTS)):
        parser.error(f"--seats: {args.players} bots, each one of {', '.join(ARENA_BOTS)}")
    budget = args.budget or default_iterations(args.game)
    misses, rates = [], []
    seconds = cpu = steps = 0.0
    for seed in range(args.seeds[0], args.seeds[1] + 1):
        seats = tuple(seated or seats_for(seed, args.players))
        record = bot_game(args.game, seats, seed, options, iterations=10)
        if record.status != "finished":
            print(f"seed {seed}: unfinished, left out")
            continue
        estimator = (Estimator(game, budget, 0, value_model=value)
                     if args.generic or value else
                     TurnEstimator(game, budget, 0, ko_shares=shares) if shares else None)
        start, start_cpu = time.perf_counter(), time.process_time()
        review = review_record(record, estimator=estimator, iterations=budget)
        seconds += time.perf_counter() - start
        cpu += time.process_time() - start_cpu
        steps += len(review.steps)
        rolls = sum(isinstance(s, Roll) for s in review.steps)
        game_misses = [abs(s.unexplained) for s in summarise(review)]
        misses += game_misses
        rates.append(max(game_misses) / rolls)
        print(f"seed {seed} {'/'.join(seats)}: {len(review.steps)} steps, {rolls} rolls, "
              f"slack mean {sum(game_misses) / len(game_misses):.3f} "
              f"max {max(game_misses):.3f}", flush=True)
    if not misses:
        parser.error("no finished game")
    print(f"slack over {len(rates)} games: mean {sum(misses) / len(misses):.3f}, "
          f"worst {max(misses):.3f}, worst a roll {max(rates):.4f}; "
          f"{100 * seconds / steps:.2f} s a 100 steps ({100 * cpu / steps:.2f} s of CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
