"""Fit three- or four-player K.O.'s learnt shares to the review's own look-ahead (fitted
value iteration), on the review's own kind of games.

    python3 benchmarks/train_ko_shares_review.py [--players N] [--seeds FIRST LAST]
                                                 [--rounds R] [--jobs J] [--hidden H]
                                                 [--steps K] [--start FILE] [--out FILE]

Needs numpy (`pip install 'knockboard[train]'`).

The self-play shares (`train_knockoff_shares.py --game ko --players N`) are fitted to who
won in games of greedy bots; the review asks something else of them: that the shares
before a throw equal the average, over the throw, of the thrower's best turn valued by
the same shares (`docs/review.md`, "The identity").  Each round:

1. **Positions.**  Every position where a seat is about to throw, in the games of greedy
   and random bots that `review_slack.py` reviews (seats alternating, greedy first on
   even seeds), seeds FIRST to LAST (default 100-299: not the 1-90 it is measured on).
2. **Targets.**  Each position's review value of the throw: the average over the 21
   throws of the review's estimator (`estimator.TurnEstimator`, the indifferent mover
   included) with the previous round's shares (the first round: FILE, default
   `benchmarks/ko_sharesN_selfplay.json`, the self-play shares of N players (default 3),
   kept so that the same command makes the same file).  J processes share the seeds.
3. **Fit.**  The same conditional logit as the self-play's (H tanh units, K steps of Adam,
   weights drawn from seed 1) on those soft targets, over the games of the first 80% of
   the seeds; the held-out mean gap to the targets is printed, of the previous shares
   and of the fit.

The last round's shares are written to FILE (default: the committed
`bots/ko_sharesN.json`) with this command; the same arguments give the same file.
"""

import argparse
import os
import sys
import tempfile
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "host"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from knockboard.bots import ko_shares  # noqa: E402
from knockboard.games import get_game  # noqa: E402
from knockboard.review.estimator import TurnEstimator, _expectation_of  # noqa: E402
from knockboard.review.seeded import bot_game  # noqa: E402
from benchmarks.review_slack import seats_for  # noqa: E402
from benchmarks.train_dodgeball import write_weights  # noqa: E402
from benchmarks.train_knockoff import roller  # noqa: E402
from benchmarks.train_knockoff_shares import (fit_shares, softmax,  # noqa: E402
                                              standardise, utilities)

# the player counts the review values by refitted shares, and their self-play shares
SELF_PLAY = {n: os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             f"ko_shares{n}_selfplay.json") for n in (3, 4)}


def targets_of(job):
    """(seed, [(position text, target shares)]) of one seeded game of `players`, valued by
    the shares in `path`."""
    seed, players, path = job
    game = get_game("ko", players=players)
    estimator = TurnEstimator(game, 2, 0, ko_shares=ko_shares.load_model(players, path))
    record = bot_game("ko", seats_for(seed, players), seed, {"players": players},
                      iterations=10)
    rows = []
    if record.status != "finished":
        return seed, rows
    state = record.initial_state()
    for text in record.actions:
        if state.is_chance_node() and roller(state) is not None:
            rows.append((state.to_position(), list(_expectation_of(estimator, state))))
        state.apply(state.parse_action(text))
    return seed, rows


def one_round(np, args, previous, out, command, t0):
    """Targets by the shares in `previous`, the fit written to `out`."""
    players = args.players
    jobs = [(seed, players, previous) for seed in range(args.seeds[0], args.seeds[1] + 1)]
    with Pool(args.jobs) as pool:
        games = sorted(pool.map(targets_of, jobs, chunksize=1))
    game = get_game("ko", players=players)
    texts = [text for _, rows in games for text, _ in rows]
    y = np.array([target for _, rows in games for _, target in rows])
    which = np.array([seed for seed, rows in games for _ in rows])
    states = [game.from_position(t) for t in texts]
    x = np.array([ko_shares.feature_rows(state) for state in states], dtype=float)
    held = which >= args.seeds[0] + int((args.seeds[1] - args.seeds[0] + 1) * 0.8)
    z, mean, scale = standardise(np, x, ~held)
    before = ko_shares.load_model(players, previous)
    gap = np.abs(np.array([before.shares(state) for state, h in zip(states, held) if h])
                 - y[held]).mean()
    params = fit_shares(np, z[~held], y[~held], args.hidden, args.steps, 1)
    fitted = softmax(np, utilities(np, params, z[held])[0])
    print(f"  {len(y)} positions of {len(games)} games; held-out mean gap to the targets: "
          f"previous shares {gap:.4f}, fit {np.abs(fitted - y[held]).mean():.4f}",
          flush=True)
    write_weights(out, {"command": command, "players": players, "positions": len(y)},
                  ko_shares.FEATURE_NAMES, mean, scale, params, args.hidden, 0.0, t0)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3, choices=tuple(SELF_PLAY))
    parser.add_argument("--seeds", type=int, nargs=2, default=(100, 299),
                        metavar=("FIRST", "LAST"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=8)
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--start", default=None, metavar="FILE",
                        help="the first round's shares (default: the self-play shares, "
                             "benchmarks/ko_sharesN_selfplay.json)")
    parser.add_argument("--out", default=None, metavar="FILE",
                        help="default: the committed bots/ko_sharesN.json")
    args = parser.parse_args(argv)
    if args.seeds[1] - args.seeds[0] < 1:
        parser.error("--seeds: at least 2 games (the last fifth, at least one, is held out)")
    for name in ("rounds", "jobs", "steps"):
        if getattr(args, name) < 1:
            parser.error(f"--{name}: a whole number from 1")
    if args.hidden < 0:
        parser.error("--hidden: a whole number from 0")
    try:
        import numpy as np
    except ImportError:
        parser.error("needs numpy: pip install 'knockboard[train]'")
    if args.start:
        try:
            ko_shares.load_model(args.players, args.start)
        except (OSError, ValueError, KeyError) as err:
            parser.error(f"--start {args.start}: {err}")
    command = ("python3 benchmarks/train_ko_shares_review.py "
               + (f"--players {args.players} " if args.players != 3 else "")
               + f"--seeds {args.seeds[0]} {args.seeds[1]} --rounds {args.rounds} "
               f"--hidden {args.hidden} --steps {args.steps}"
               + (f" --start {args.start}" if args.start else ""))
    t0 = time.perf_counter()
    previous = args.start or SELF_PLAY[args.players]
    last = args.out or ko_shares.WEIGHTS_FILES[args.players]
    with tempfile.TemporaryDirectory() as rounds:       # the rounds before the last
        for k in range(1, args.rounds + 1):
            out = last if k == args.rounds else os.path.join(rounds, f"round{k}.json")
            print(f"round {k}: targets by {previous}", flush=True)
            one_round(np, args, previous, out, command, t0)      # prints "wrote ..."
            previous = out
    return 0


if __name__ == "__main__":
    sys.exit(main())
