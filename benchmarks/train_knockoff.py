"""Fit the strong bot's two-player Knock-Off value (`bots/knockoff_value.py`) by self-play.

    python3 benchmarks/train_knockoff.py [--games N] [--seed S] [--hidden H] [--steps K]
                                         [--epsilon E] [--out FILE] [--cache FILE]

Needs numpy (`pip install 'knockboard[train]'`); playing with the result does not.  The fit
is the Dodgeball value's (`train_dodgeball.py`: full-batch Adam on the log loss, L2 1e-3,
an 80/20 split by game, the same weights file format); only the games and the positions
differ:

1. **Self-play.**  N two-player games of two greedy bots (the one-ply player of the
   hand-made score), each of whose decisions is, with chance E, a uniformly random legal
   action instead, so that the positions include ones a careful player reaches on purpose
   and not only the greedy bot's own.  Dice and bots are seeded from S.
2. **Positions.**  Every position where a player is about to roll its two dice (the
   positions the search ends its lines at), with its features for that player
   (`knockoff_value.features`), labelled 1 if that player went on to win.  Unfinished
   games (move cap) are left out.
3. **Fit** by `train_dodgeball.fit_and_write`: the held-out log loss of the score alone,
   of a linear model and of the network (H units; H = 0 keeps the linear one) is printed,
   and the model kept is written to FILE with the feature scaling and this command.  The
   same S and arguments give the same file.  `--cache FILE` keeps the self-play positions
   of (N, S, E) in FILE (as position texts: the features are computed afresh, so a cache
   outlives a change of features).

The defaults are the shipped weights' command (4 000 games, 154 751 positions; about 4
minutes of self-play and 4 of fitting on the shared machine).
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "host"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from knockboard.bots.greedy import GreedyBot  # noqa: E402
from knockboard.bots.heuristics import win_shares  # noqa: E402
from knockboard.bots.knockoff_value import FEATURE_NAMES, WEIGHTS_FILE, features  # noqa: E402
from knockboard.games import get_game, sample_chance  # noqa: E402
from benchmarks.train_dodgeball import decide, fit_and_write, json_cached  # noqa: E402

MAX_DECISIONS = 2000


def roller(state):
    """The player about to roll a turn's dice (not a roll-off's), in Knock-Off or K.O.;
    None elsewhere."""
    if state.game.name == "ko":
        from knockboard.games.ko.constants import TURN
        return state.cur if state.phase == TURN else None
    return None if state.rolls else state.player


def play(games, seed, epsilon, players=2, name="knockoff"):
    """(position texts, the player about to roll in each, its game's result (each
    player's share of the win), game index per row, unfinished games) of the self-play of
    `players`-player games of `name` (Knock-Off or K.O.): the positions where a player is
    about to roll (the learnt shares' training, `train_knockoff_shares.py`, uses this
    too)."""
    game = get_game(name, players=players)
    texts, rollers, results, which = [], [], [], []
    unfinished = 0
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        bots = [GreedyBot(seed=rng.randrange(1 << 30)) for _ in range(players)]
        state = game.new_initial_state()
        seen = []                           # (position, the player about to roll)
        decisions = 0
        while not state.is_terminal() and decisions < MAX_DECISIONS:
            if state.is_chance_node():
                who = roller(state)
                if who is not None:
                    seen.append((state.to_position(), who))
                state.apply(sample_chance(state, rng))
                continue
            state.apply(decide(state, bots, rng, epsilon))
            decisions += 1
        if not state.is_terminal():
            unfinished += 1
            continue
        result = win_shares(state.returns())
        for text, who in seen:
            texts.append(text)
            rollers.append(who)
            results.append(result)
            which.append(g)
    return texts, rollers, results, which, unfinished


def self_play(games, seed, epsilon):
    """(position texts, labels, game index per row, unfinished games) of the two-player
    self-play: the positions where a player is about to roll, labelled 1 if that player
    won."""
    texts, rollers, results, which, unfinished = play(games, seed, epsilon)
    labels = [result[r] for r, result in zip(rollers, results)]
    return texts, labels, which, unfinished


def cached_self_play(args):
    """self_play(), read from or written to args.cache when one is given (the features
    are computed afresh from the positions, so a cache outlives a change of features)."""
    key = [args.games, args.seed, args.epsilon]
    return json_cached(args.cache, key, lambda: self_play(args.games, args.seed, args.epsilon))


def feature_rows(texts):
    game = get_game("knockoff", players=2)
    rows = []
    for text in texts:
        state = game.from_position(text)
        rows.append(features(state, state.player))
    return rows


def self_play_arguments(parser, games, steps, out, out_help=None):
    """The self-play and fitting options of the Knock-Off trainers (this one's and
    train_knockoff_shares.py's), with their defaults."""
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=8)
    parser.add_argument("--steps", type=int, default=steps)
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--out", default=out, help=out_help)
    parser.add_argument("--cache", default=None,
                        help="keep the self-play positions here (a JSON file)")


def parse_self_play(parser, argv):
    """The arguments, each out of range refused in one line, and numpy (training needs
    it: refused in one line without)."""
    args = parser.parse_args(argv)
    if args.games < 5 or args.hidden < 0 or args.steps < 1 or not 0 <= args.epsilon <= 1:
        parser.error("need --games >= 5, --hidden >= 0, --steps >= 1, 0 <= --epsilon <= 1")
    try:
        import numpy
    except ImportError:
        parser.error("training needs numpy: pip install 'knockboard[train]'")
    return args, numpy


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    self_play_arguments(parser, games=4000, steps=2000, out=WEIGHTS_FILE)
    args, np = parse_self_play(parser, argv)
    start = time.perf_counter()
    texts, labels, which, unfinished = cached_self_play(args)
    rows = feature_rows(texts)
    print(f"self-play: {args.games} games ({unfinished} unfinished), {len(rows)} positions, "
          f"{time.perf_counter() - start:.0f} s")
    command = ("python3 benchmarks/train_knockoff.py"
               f" --games {args.games} --seed {args.seed} --hidden {args.hidden}"
               f" --steps {args.steps} --epsilon {args.epsilon}")
    fit_and_write(np, parser, args, rows, labels, which, FEATURE_NAMES, command, start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
