"""Why the generic tree search did not gain in two-player Knock-Off: how often it plays the
greedy bot's own move.

    python3 benchmarks/experiments/knockoff_agreement.py [--positions N] [--seed S]
                                                        [--iterations I ...]

N decision positions with a choice, evenly spaced over seeded games of two greedy bots
(`bot_budget.sample_positions`, one game per 10 positions, seeds S, S+1, ...).  On each, the
greedy bot's best moves (every action tied for its best expected score) and the moves of
the generic tree search (`StrongBot.search_choose`, I iterations) and of the turn search
(`bots/knockoff_search.py`, 30 iterations) are compared: the share of positions where each
plays one of the greedy bot's best moves.  Figures are printed, never asserted.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "host"))
sys.path.insert(0, os.path.join(HERE, ".."))

from bot_budget import sample_positions  # noqa: E402
from knockboard.bots import StrongBot  # noqa: E402
from knockboard.bots.greedy import best_actions  # noqa: E402
from knockboard.games import get_game  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, nargs="+", default=[200, 1000])
    args = parser.parse_args(argv)
    game = get_game("knockoff", players=2)
    positions = []
    seed = args.seed
    while len(positions) < args.positions:
        positions += sample_positions(game, 10, seed)
        seed += 1
    positions = positions[:args.positions]
    agree = {f"tree search, {i} iterations": 0 for i in args.iterations}
    agree["turn search"] = 0
    for k, state in enumerate(positions):
        best = set(best_actions(state))
        for i in args.iterations:
            bot = StrongBot(seed=k, budget=None, iterations=i)
            agree[f"tree search, {i} iterations"] += bot.search_choose(state.clone()) in best
        agree["turn search"] += StrongBot(seed=k, budget=None, iterations=30).choose(
            state.clone()) in best
    print(f"{len(positions)} positions of greedy games (seeds {args.seed}..{seed - 1}); "
          "share playing one of the greedy bot's best moves:")
    for name, count in agree.items():
        print(f"  {name:<32} {count:4d} / {len(positions)} = {count / len(positions):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
