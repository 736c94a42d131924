"""Fit the strong bot's Dodgeball value (`bots/dodgeball_value.py`) by self-play.

    python3 benchmarks/train_dodgeball.py [--games N] [--seed S] [--hidden H] [--steps K]
                                          [--epsilon E] [--out FILE] [--cache FILE]
                                          [--searcher WEIGHTS [--iterations I]]

Needs numpy (`pip install 'knockboard[train]'`); playing with the result does not.

1. **Self-play.**  N games of two greedy bots (the one-ply player that shares the score),
   each of whose decisions is, with chance E, a uniformly random legal action instead, so
   that the positions include ones a careful player reaches on purpose (a ball kept, a pawn
   left out of reach) and not only the greedy bot's own.  Dice and bots are seeded from S.
   With `--searcher WEIGHTS` one seat of each game (alternately) is the strong bot instead,
   searching I iterations a move with the value in WEIGHTS (a file this script wrote): a
   second round of self-play, on the positions the searching player itself reaches.
2. **Positions.**  Every position where a team has just finished its turn (the positions
   the turn search ends its lines at), with its features (`dodgeball_value.features`),
   labelled 1 if that team went on to win.  Unfinished games (move cap) are left out.
3. **Fit.**  The games are split 80/20 into training and held-out positions (by game, so a
   game's positions are never on both sides).  A logistic model of the score alone, a
   linear logistic model of all features and a one-layer tanh network (H units) are fitted
   by full-batch Adam on the log loss (K steps, L2 1e-3, weights drawn from S); the held-out
   log loss of each is printed, and the network (H = 0: the linear model) is written to
   FILE with the feature scaling and this command.  The same S and arguments give the same
   file.  `--cache FILE` keeps the self-play positions of (N, S, E) in FILE, so that other
   fits of the same games skip the self-play (the slow part: about a second a game).
"""

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "host"))

from knockboard.bots import StrongBot  # noqa: E402
from knockboard.bots.dodgeball_value import (FEATURE_NAMES, WEIGHTS_FILE,  # noqa: E402
                                             features, load_model, turn_over)
from knockboard.bots.greedy import GreedyBot  # noqa: E402
from knockboard.games import get_game, sample_chance  # noqa: E402

MAX_DECISIONS = 1500
L2 = 1e-3


def players(rng, g, searcher):
    """The two seats of game g: greedy bots, or with `searcher` (a weights file and an
    iteration budget) the strong bot searching with those weights in seat g % 2."""
    bots = [GreedyBot(seed=rng.randrange(1 << 30)) for _ in range(2)]
    if searcher:
        path, iterations = searcher
        strong = StrongBot(seed=rng.randrange(1 << 30), budget=None, iterations=iterations)
        strong.value_model = load_model(path)
        bots[g % 2] = strong
    return bots


def decide(state, bots, rng, epsilon):
    """The seat's bot's action, or with chance `epsilon` a uniformly random legal one."""
    if rng.random() < epsilon:
        return rng.choice(state.legal_actions())
    return bots[state.current_player()].choose(state)


def self_play(games, seed, epsilon, searcher=None):
    """(feature rows, labels, game index per row) of `games` self-play games."""
    game = get_game("dodgeball")
    rows, labels, which = [], [], []
    unfinished = 0
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        bots = players(rng, g, searcher)
        state = game.new_initial_state()
        seen = []                           # (features, team that just finished)
        decisions = 0
        while not state.is_terminal() and decisions < MAX_DECISIONS:
            if state.is_chance_node():
                if turn_over(state) and not state.dice_held()[0][state.active]:
                    seen.append((features(state), state.active))
                state.apply(sample_chance(state, rng))
                continue
            state.apply(decide(state, bots, rng, epsilon))
            decisions += 1
        winner = state.winner()
        if winner is None:
            unfinished += 1
            continue
        for x, team in seen:
            rows.append(x)
            labels.append(1.0 if team == winner else 0.0)
            which.append(g)
    return rows, labels, which, unfinished


def json_cached(path, key, compute):
    """compute()'s JSON-ready result, read from the file `path` where it holds one made
    for `key` (the options it depends on), else computed and written there (`path` None
    or empty: computed, nothing written). The trainers' self-play caches."""
    if path and os.path.exists(path):
        with open(path) as f:
            data = json.load(f)
        if data["key"] == key:
            return data["value"]
    value = compute()
    if path:
        with open(path, "w") as f:
            json.dump({"key": key, "value": value}, f)
    return value


def cached_self_play(args):
    """self_play(), read from or written to args.cache when one is given."""
    key = [args.games, args.seed, args.epsilon, args.searcher, args.iterations]
    searcher = (args.searcher, args.iterations) if args.searcher else None
    return json_cached(args.cache, key,
                       lambda: self_play(args.games, args.seed, args.epsilon, searcher))


def fit(np, x, y, hidden, steps, seed):
    """A tanh layer of `hidden` units (0: none, a linear logistic model) fitted by Adam."""
    rng = np.random.default_rng(seed)
    n, d = x.shape
    params = {"v": np.zeros(hidden if hidden else d), "c": np.zeros(1)}
    if hidden:
        params["w"] = rng.normal(0.0, 1.0 / np.sqrt(d), (d, hidden))
        params["b"] = np.zeros(hidden)
    moments = {k: (np.zeros_like(p), np.zeros_like(p)) for k, p in params.items()}
    for step in range(1, steps + 1):
        h = np.tanh(x @ params["w"] + params["b"]) if hidden else x
        p = 1.0 / (1.0 + np.exp(-(h @ params["v"] + params["c"][0])))
        err = (p - y) / n
        grads = {"v": h.T @ err + L2 * params["v"], "c": np.array([err.sum()])}
        if hidden:
            back = np.outer(err, params["v"]) * (1.0 - h * h)
            grads["w"] = x.T @ back + L2 * params["w"]
            grads["b"] = back.sum(axis=0)
        adam_step(np, params, grads, moments, step)
    return params


def adam_step(np, params, grads, moments, step):
    """One step of Adam (rate 0.01) on `params` in place; `moments` per parameter, zeros at
    first (the Knock-Off shares' fit, `train_knockoff_shares.py`, uses this too)."""
    for k, g in grads.items():
        m, v = moments[k]
        m[:] = 0.9 * m + 0.1 * g
        v[:] = 0.999 * v + 0.001 * g * g
        params[k] -= 0.01 * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step))
                                                       + 1e-8)


def predict(np, params, x):
    h = np.tanh(x @ params["w"] + params["b"]) if "w" in params else x
    return 1.0 / (1.0 + np.exp(-(h @ params["v"] + params["c"][0])))


def log_loss(np, p, y):
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit_and_write(np, parser, args, rows, labels, which, feature_names, command, start):
    """Split the positions 80/20 by game, fit the score alone, a linear model and the
    network (args.hidden units; 0 keeps the linear one), print their held-out log loss and
    write the model kept to args.out with the feature scaling and `command` (the Knock-Off
    value's training, `train_knockoff.py`, uses this too)."""
    x, y, g = np.array(rows, dtype=float), np.array(labels), np.array(which)
    test = g >= int(args.games * 0.8)
    if test.all() or not test.any():
        parser.error("too few finished games to hold some out")
    mean, scale = x[~test].mean(axis=0), x[~test].std(axis=0) + 1e-6
    z = (x - mean) / scale
    score_col = feature_names.index("score")
    for name, cols, hidden in (("score alone", [score_col], 0),
                               ("linear, all features", list(range(x.shape[1])), 0),
                               (f"tanh network, {args.hidden} units", None, args.hidden)):
        if cols is None and not hidden:
            break                   # --hidden 0: the linear model above is the one kept
        zz = z if cols is None else z[:, cols]
        params = fit(np, zz[~test], y[~test], hidden, args.steps, args.seed)
        held, trained = predict(np, params, zz[test]), predict(np, params, zz[~test])
        right = float(np.mean((held > 0.5) == (y[test] > 0.5)))
        print(f"{name:<28} held-out log loss {log_loss(np, held, y[test]):.4f} ({right:.1%}"
              f" called right; training {log_loss(np, trained, y[~test]):.4f})")
    write_weights(args.out, {"command": command, "positions": len(rows)}, feature_names,
                  mean, scale, params, args.hidden, params["c"][0], start)


def write_weights(path, head, feature_names, mean, scale, params, hidden, constant, start):
    """A fitted model as bots/value_model.py reads it: `head` (the command that made it, ...)
    first, then the features, their scaling, the hidden units (none: a linear model) and
    the output weights with `constant` last."""
    data = dict(head)
    data.update({
        "features": list(feature_names),
        "mean": [round(float(v), 6) for v in mean],
        "scale": [round(float(v), 6) for v in scale],
        "hidden": [[round(float(v), 6) for v in list(params["w"][:, j]) + [params["b"][j]]]
                   for j in range(hidden)],        # empty: a linear model
        "output": [round(float(v), 6) for v in list(params["v"]) + [constant]],
    })
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    print(f"wrote {path} ({time.perf_counter() - start:.0f} s in all)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=8)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--out", default=WEIGHTS_FILE)
    parser.add_argument("--searcher", default=None, metavar="WEIGHTS",
                        help="one seat is the strong bot searching with these weights")
    parser.add_argument("--iterations", type=int, default=10,
                        help="the --searcher's iterations a move")
    parser.add_argument("--cache", default=None,
                        help="keep the self-play positions here (a JSON file)")
    args = parser.parse_args(argv)
    if args.games < 2 or args.hidden < 0 or args.steps < 1 or not 0 <= args.epsilon <= 1:
        parser.error("need --games >= 2, --hidden >= 0, --steps >= 1, 0 <= --epsilon <= 1")
    try:
        import numpy as np
    except ImportError:
        parser.error("training needs numpy: pip install 'knockboard[train]'")
    start = time.perf_counter()
    rows, labels, which, unfinished = cached_self_play(args)
    print(f"self-play: {args.games} games ({unfinished} unfinished), {len(rows)} positions, "
          f"{time.perf_counter() - start:.0f} s")
    command = ("python3 benchmarks/train_dodgeball.py"
               f" --games {args.games} --seed {args.seed} --hidden {args.hidden}"
               f" --steps {args.steps} --epsilon {args.epsilon}"
               + (f" --searcher {args.searcher} --iterations {args.iterations}"
                  if args.searcher else ""))
    fit_and_write(np, parser, args, rows, labels, which, FEATURE_NAMES, command, start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
