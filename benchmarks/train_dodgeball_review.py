"""Refit the Dodgeball value to the review's own searched turns (fitted value iteration): a
candidate for the review's estimator, tried and not shipped (docs/review.md, "The identity").

    python3 benchmarks/train_dodgeball_review.py [--games N] [--seed S] [--iterations I]
                                                 [--rounds R] [--every K] [--hidden H]
                                                 [--won W] [--steps K] [--workers W]
                                                 [--cache DIR] --out FILE

Needs numpy (`pip install 'knockboard[train]'`); reviewing with the result does not.

The review (`review/estimator.py`) values a Dodgeball turn's end, at the last of the dice
for the next turn, by the learnt value, and the position after that die by its tree search
of the turn that follows (I iterations a position, that turn's end valued by the learnt
value again).  Its sum check misses by what the value at the turn's end and the average,
over the die, of the searched turn after it disagree (docs/review.md, "The identity").
The strong bot's value was fitted on who won, and every searched turn gains a little more
than it expects: over a long game the misses added up to more than a chance's range.

1. **Positions.**  N seeded games (`review.seeded.bot_game`, seeds S, S+1, ...) of the
   arena's bots: greedy v random, random v greedy, greedy v strong, strong v greedy in
   turn; every K-th of each game's turn ends valued by the learnt value (at the last die).
2. **Targets.**  Round 1: with the strong bot's value (`bots/dodgeball_value.json`), each
   position's target is the review's own look-ahead, the average over the last die of the
   review's value after it (`Estimator.chances`, the same code and budget as a review), for
   the team whose turn ended.  Round r > 1: the same, with round r - 1's fitted value in
   the search's leaves and at the next turn's end.  `--won W`: each target mixed with
   the who-won label of its position, W of the label to 1 - W of the look-ahead.
3. **Fit.**  A logistic model (a tanh layer of H units; 0: linear) of the bot's features
   (`dodgeball_value.features`; `value_model` format) fitted by `train_dodgeball.fit` to
   the targets (the log loss against a chance: it stays a chance to win) on 80% of the
   games; printed per round, on the held-out 20%: the mean gap (the look-ahead minus the
   value) and its mean absolute size for the value that made the targets and for the
   refitted one, and the log loss against who won.  Each round's fit is written to FILE with this
   command (the last round's stays): `benchmarks/review_slack.py --value FILE` and
   `benchmarks/review.py --value FILE` review with it.

`--cache DIR` keeps each game's positions and each round's targets (keyed by the value
that made them), so a run that stopped carries on; about 0.4 s of CPU a position at 40
iterations.  `--workers W` spreads the games over W processes.
"""

import argparse
import hashlib
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "host"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from knockboard.bots.dodgeball_value import (FEATURE_NAMES, DodgeballValueModel,  # noqa: E402
                                             features, load_model)
from knockboard.games import get_game  # noqa: E402
from knockboard.review.estimator import (EXPECT, Estimator, _expectation_of,  # noqa: E402
                                         learnt_roll)
from knockboard.review.seeded import bot_game  # noqa: E402
from train_dodgeball import fit, predict, log_loss, write_weights  # noqa: E402

PAIRINGS = (("greedy", "random"), ("random", "greedy"), ("greedy", "strong"),
            ("strong", "greedy"))
BOT_ITERATIONS = 10         # the strong bot's, as the review's seeded games play it


def turn_ends(record, every):
    """The record's positions where the review values a turn's end by the learnt value,
    every `every`-th of them, each with the team whose turn ended and whether it won."""
    state = record.initial_state()
    known = learnt_roll(state.game, load_model())
    found = []
    for text in record.actions:
        action = state.parse_action(text)
        if state.is_chance_node() and known(state) not in (None, EXPECT):
            found.append(state.clone())
        state.apply(action)
    winner = state.winner()
    return [(s, s.active, 1.0 if s.active == winner else 0.0) for s in found[::every]]


def game_targets(job):
    """(features, target, won) of one game's positions, the targets the review's own
    look-ahead with the value in `weights` (None: the strong bot's)."""
    seed, every, iterations, weights = job
    game = get_game("dodgeball")
    record = bot_game("dodgeball", PAIRINGS[seed % len(PAIRINGS)], seed, {},
                      iterations=BOT_ITERATIONS)
    if record.status != "finished":
        return []
    model = load_model() if weights is None else DodgeballValueModel(weights)
    estimator = Estimator(game, iterations, 0, value_model=model)
    rows = []
    for state, team, won in turn_ends(record, every):
        target = _expectation_of(estimator, state)[team]
        rows.append((features(state), target, won))
    return rows


def cached(cache, seed, every, iterations, weights):
    """game_targets(), read from or written to the cache directory when one is given."""
    job = (seed, every, iterations, weights)
    if not cache:
        return game_targets(job)
    # keyed by the model's numbers, not by the command that wrote them (which names the
    # number of rounds: a longer run reuses a shorter one's targets)
    model = None if weights is None else {k: v for k, v in weights.items()
                                          if k not in ("command", "positions")}
    key = hashlib.sha256(json.dumps((seed, every, iterations, model),
                                    sort_keys=True).encode()).hexdigest()[:16]
    path = os.path.join(cache, f"game{seed}-{key}.json")
    if os.path.exists(path):
        with open(path) as f:
            return [tuple(row) for row in json.load(f)]
    rows = game_targets(job)
    with open(path, "w") as f:
        json.dump(rows, f)
    return rows


def _cached_job(args):
    return args[0], cached(*args[1:])


def targets(args, weights):
    """{seed: rows} of every game, in args.workers processes."""
    jobs = [(seed, args.cache, seed, args.every, args.iterations, weights)
            for seed in range(args.seed, args.seed + args.games)]
    if args.workers > 1:
        from multiprocessing import Pool
        with Pool(args.workers) as pool:
            return dict(pool.map(_cached_job, jobs, chunksize=1))
    return dict(_cached_job(job) for job in jobs)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--every", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=8)
    parser.add_argument("--won", type=float, default=0.0,
                        help="the who-won label's weight in the targets (0 to 1)")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cache", default=None)
    parser.add_argument("--out", required=True, help="the weights file to write")
    args = parser.parse_args(argv)
    if (args.games < 5 or args.iterations < 1 or args.rounds < 1 or args.every < 1
            or args.steps < 1 or args.workers < 1 or args.hidden < 0
            or not 0 <= args.won <= 1):
        parser.error("need --games >= 5, --hidden >= 0, 0 <= --won <= 1 and --iterations, "
                     "--rounds, --every, --steps, --workers >= 1")
    try:
        import numpy as np
    except ImportError:
        parser.error("training needs numpy: pip install 'knockboard[train]'")
    if args.cache:
        os.makedirs(args.cache, exist_ok=True)
    start = time.perf_counter()
    command = ("python3 benchmarks/train_dodgeball_review.py"
               f" --games {args.games} --seed {args.seed} --iterations {args.iterations}"
               f" --rounds {args.rounds} --every {args.every} --hidden {args.hidden}"
               + (f" --won {args.won}" if args.won else "") + f" --steps {args.steps}")
    weights = None
    held_out = set(range(args.seed + int(args.games * 0.8), args.seed + args.games))
    for round_number in range(1, args.rounds + 1):
        by_game = targets(args, weights)
        rows = [(seed, row) for seed, game_rows in sorted(by_game.items())
                for row in game_rows]
        x = np.array([r[0] for _, r in rows], dtype=float)
        won = np.array([r[2] for _, r in rows])
        look = np.array([r[1] for _, r in rows])
        y = (1.0 - args.won) * look + args.won * won
        test = np.array([seed in held_out for seed, _ in rows])
        if test.all() or not test.any():
            parser.error("too few finished games to hold some out")
        old = load_model() if weights is None else DodgeballValueModel(weights)
        before = np.array([old.win_chance(r) for r in x])
        mean, scale = x[~test].mean(axis=0), x[~test].std(axis=0) + 1e-6
        z = (x - mean) / scale
        params = fit(np, z[~test], y[~test], args.hidden, args.steps, args.seed)
        after = predict(np, params, z)
        print(f"round {round_number}: {len(by_game)} games, {len(rows)} positions "
              f"({int(test.sum())} held out), {time.perf_counter() - start:.0f} s")
        for name, value in (("value that made the targets", before), ("refitted", after)):
            gap = look[test] - value[test]
            print(f"  {name:<28} held-out gap mean {gap.mean():+.4f}, "
                  f"mean absolute {np.abs(gap).mean():.4f}; log loss against who won "
                  f"{log_loss(np, value[test], won[test]):.4f}")
        # each round's fit written as the file will hold it, and read back: the next
        # round's targets are made with exactly the weights a review would load
        write_weights(args.out, {"command": command, "positions": len(rows)},
                      FEATURE_NAMES, mean, scale, params, args.hidden, params["c"][0], start)
        with open(args.out) as f:
            weights = json.load(f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
