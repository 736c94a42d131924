"""K.O. figures beyond the generic benchmark: board table build time, and what games look
like with random players and with players who knock out whenever they can.

    python3 benchmarks/ko_stats.py [--games N] [--seed S]

Printed, never asserted.  The generic speed benchmark is `benchmarks/engine.py ko`.
"""

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "host"))

from knockboard.games import get_game, sample_chance  # noqa: E402
from knockboard.games.ko.board import KOBoard  # noqa: E402
from knockboard.games.ko.board import STANDARD  # noqa: E402


def play(game, rng, greedy):
    """One game from the quick start; returns (plies, throws, passes, knock-outs, points)."""
    state = game.new_initial_state()
    throws = passes = knocks = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state, rng)
            throws += 1
        else:
            legal = state.legal_actions()
            hits = [a for a in legal if a < game.setup_base
                    and state.occ[a % game.num_spaces] >= 0]
            action = rng.choice(hits if greedy and hits else legal)
            passes += action == game.pass_action
        state.apply(action)
        knocks += state.last_knockout() is not None
    return len(state.history), throws, passes, knocks, state.points()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    start = time.perf_counter()
    for _ in range(10):
        KOBoard(STANDARD)
    print(f"standard board: data check + reach tables {(time.perf_counter() - start) * 100:.1f}"
          " ms per build")
    print(f"\n{'players':<8} {'policy':<8} {'plies':>7} {'throws':>7} {'passes':>7} "
          f"{'knocks':>7} {'win share per seat':<28} games/s")
    for players in (2, 3, 4):
        game = get_game("ko", players=players, quick_start=True)
        for greedy in (False, True):
            rng = random.Random(args.seed)
            rows = []
            wins = [0.0] * players
            start = time.perf_counter()
            for _ in range(args.games):
                plies, throws, passes, knocks, points = play(game, rng, greedy)
                rows.append((plies, throws, passes, knocks))
                best = max(points)
                leaders = [s for s, p in enumerate(points) if p == best]
                for seat in leaders:
                    wins[seat] += 1 / len(leaders)
            rate = args.games / (time.perf_counter() - start)
            means = [statistics.mean(col) for col in zip(*rows)]
            share = " ".join(f"{w / args.games:.2f}" for w in wins)
            print(f"{players:<8} {'knock' if greedy else 'random':<8} {means[0]:>7.0f} "
                  f"{means[1]:>7.0f} {means[2]:>7.0f} {means[3]:>7.1f} {share:<28} {rate:.0f}")


if __name__ == "__main__":
    main()
