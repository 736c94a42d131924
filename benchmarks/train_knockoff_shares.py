"""Fit the learnt shares of the win by self-play: three- and four-player Knock-Off's
(`bots/knockoff_shares.py`), or with `--game ko` two- and three-player K.O.'s
(`bots/ko_shares.py`).

    python3 benchmarks/train_knockoff_shares.py [--game {knockoff,ko}] --players N
                                                [--games N] [--seed S]
                                                [--hidden H] [--steps K] [--epsilon E]
                                                [--out FILE] [--cache FILE]

Needs numpy (`pip install 'knockboard[train]'`); playing with the result does not.

1. **Self-play** as the two-player value's (`train_knockoff.play`): N games of greedy bots,
   each decision with chance E a uniformly random legal action instead; dice and bots
   seeded from S.  Unfinished games (move cap) are left out.
2. **Positions.**  Every position where a player is about to roll its two dice, with the
   features of every player there (the game's `feature_rows`), labelled with the result
   (each player's share of the win: K.O.'s equal points share it).
3. **Fit.**  A conditional logit: each player's utility is the same function of its own
   features (H tanh units, or H = 0 a linear one), the shares the softmax of the utilities,
   fitted by full-batch Adam (K steps, L2 1e-3, weights drawn from S) on the multinomial
   log loss over 80% of the games; the held-out log loss (and how often the largest share
   is the winner's) of equal shares, of the score alone, of a linear model and of the
   network is printed, and the model kept is written to FILE (default: the committed
   weights for that player count) with the feature scaling and this command.  The same
   arguments give the same file.  `--cache FILE` keeps the self-play positions.

The committed weights' commands are in their files (`bots/knockoff_shares3.json`,
`knockoff_shares4.json`, `ko_shares2.json`, `ko_shares3.json`).
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "host"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from knockboard.bots import knockoff_shares, ko_shares  # noqa: E402
from knockboard.games import get_game  # noqa: E402
from benchmarks.train_dodgeball import L2, adam_step, json_cached, write_weights  # noqa: E402,E501
from benchmarks.train_knockoff import (parse_self_play, play,  # noqa: E402
                                       self_play_arguments)


# per game: the module of its shares (FEATURE_NAMES, WEIGHTS_FILES: the player counts it
# has weights for, feature_rows) and the feature that is its hand-made score's baseline
SHARES = {"knockoff": (knockoff_shares, "score"), "ko": (ko_shares, "points")}


def cached_play(args):
    """play()'s texts, results, which game each position is of and the unfinished games,
    read from or written to args.cache when one is given."""
    key = [args.game, args.players, args.games, args.seed, args.epsilon]

    def compute():
        texts, _, results, which, unfinished = play(args.games, args.seed, args.epsilon,
                                                    args.players, args.game)
        return texts, results, which, unfinished
    return json_cached(args.cache, key, compute)


def feature_rows(texts, name, players):
    """Per position, the features of every player (positions x players x features)."""
    game = get_game(name, players=players)
    module = SHARES[name][0]
    return [module.feature_rows(game.from_position(text)) for text in texts]


def utilities(np, params, z):
    """Each player's utility (positions x players) and the hidden layer (or None)."""
    if "w" in params:
        h = np.tanh(z @ params["w"] + params["b"])
        return h @ params["v"], h
    return z @ params["v"], None


def softmax(np, u):
    e = np.exp(u - u.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def fit_shares(np, z, won, hidden, steps, seed):
    """The conditional logit (a tanh layer of `hidden` units, 0: linear) fitted by Adam on
    the multinomial log loss; z: positions x players x features, won: each player's share
    of the result (one-hot, or split where players tie)."""
    rng = np.random.default_rng(seed)
    n, _, d = z.shape
    params = {"v": np.zeros(hidden if hidden else d)}
    if hidden:
        params["w"] = rng.normal(0.0, 1.0 / np.sqrt(d), (d, hidden))
        params["b"] = np.zeros(hidden)
    moments = {k: (np.zeros_like(p), np.zeros_like(p)) for k, p in params.items()}
    for step in range(1, steps + 1):
        u, h = utilities(np, params, z)
        err = (softmax(np, u) - won) / n                # d loss / d utility
        if h is None:
            grads = {"v": np.einsum("ipd,ip->d", z, err) + L2 * params["v"]}
        else:
            grads = {"v": np.einsum("iph,ip->h", h, err) + L2 * params["v"]}
            back = err[:, :, None] * params["v"] * (1.0 - h * h)
            grads["w"] = np.einsum("ipd,iph->dh", z, back) + L2 * params["w"]
            grads["b"] = back.sum(axis=(0, 1))
        adam_step(np, params, grads, moments, step)
    return params


def standardise(np, x, train):
    """The features (positions x players x features) scaled by the mean and spread of the
    training positions' rows, and that mean and scale (written with the weights)."""
    flat = x[train].reshape(-1, x.shape[2])
    mean, scale = flat.mean(axis=0), flat.std(axis=0) + 1e-6
    return (x - mean) / scale, mean, scale


def log_loss(np, shares, won):
    """The cross-entropy of the result's shares (one-hot: minus the log of the winner's)."""
    return float(-np.mean((won * np.log(np.clip(shares, 1e-9, 1.0))).sum(axis=1)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(SHARES), default="knockoff")
    parser.add_argument("--players", type=int, required=True, choices=(2, 3, 4))
    self_play_arguments(parser, games=1500, steps=1500, out=None,
                        out_help="default: the committed weights' file")
    args, np = parse_self_play(parser, argv)
    module, score_name = SHARES[args.game]
    counts = tuple(module.WEIGHTS_FILES)
    if args.players not in counts:
        parser.error(f"{args.game} has learnt shares for {counts} players, not {args.players}")
    out = args.out or module.WEIGHTS_FILES[args.players]
    start = time.perf_counter()
    texts, results, which, unfinished = cached_play(args)
    x = np.array(feature_rows(texts, args.game, args.players), dtype=float)
    print(f"self-play: {args.games} games of {args.players} ({unfinished} unfinished), "
          f"{len(texts)} positions, {time.perf_counter() - start:.0f} s", flush=True)
    won = np.array(results, dtype=float)
    test = np.array(which) >= int(args.games * 0.8)
    if test.all() or not test.any():
        parser.error("too few finished games to hold some out")
    z, mean, scale = standardise(np, x, ~test)
    equal = np.full(won[test].shape, 1.0 / args.players)
    print(f"{'equal shares':<28} held-out log loss {log_loss(np, equal, won[test]):.4f}")
    score_col = module.FEATURE_NAMES.index(score_name)
    for name, cols, hidden in (("score alone", [score_col], 0),
                               ("linear, all features", list(range(x.shape[2])), 0),
                               (f"tanh network, {args.hidden} units", None, args.hidden)):
        if cols is None and not args.hidden:
            break                   # --hidden 0: the linear model above is the one kept
        zz = z if cols is None else z[:, :, cols]
        params = fit_shares(np, zz[~test], won[~test], hidden, args.steps, args.seed)
        held = softmax(np, utilities(np, params, zz[test])[0])
        trained = softmax(np, utilities(np, params, zz[~test])[0])
        right = float(np.mean(won[test][np.arange(len(held)), held.argmax(axis=1)] > 0))
        print(f"{name:<28} held-out log loss {log_loss(np, held, won[test]):.4f} "
              f"({right:.1%} called right; training {log_loss(np, trained, won[~test]):.4f})",
              flush=True)
    command = ("python3 benchmarks/train_knockoff_shares.py"
               + ("" if args.game == "knockoff" else f" --game {args.game}")
               + f" --players {args.players} --games {args.games} --seed {args.seed}"
               f" --hidden {args.hidden} --steps {args.steps} --epsilon {args.epsilon}")
    # the utility's constant is 0: a softmax does not move when every utility does
    write_weights(out, {"command": command, "players": args.players, "positions": len(texts)},
                  module.FEATURE_NAMES, mean, scale, params, args.hidden, 0.0, start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
