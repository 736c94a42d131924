"""The strong bot's time and memory a move at its default budget (1 s a move).

    python3 benchmarks/bot_budget.py [--positions N] [--seed S] [--budget S] [--only NAME ...]
                                     [--iterations N]

For every game the arena measures (`arena.PAIRINGS`' strong pairings), N decision positions
are taken, evenly spaced, from a seeded game of greedy bots (forced moves skipped: no bot
searches them).  On each the strong bot then chooses, as it does at the board:

- **time**: the wall time of `choose()` with the time budget alone, as the board calls it
  (Dodgeball's and two-player Knock-Off's searches then stop at their own
  `PLAY_ITERATIONS` if that comes first), or with `--iterations N` as well, as the arena
  calls it; mean and largest per game, and how many moves ran more than 5% over the
  budget (a search stops between iterations, so a move may overshoot by one iteration and
  by the ordering of the root's moves);
- **memory**: the peak of Python's traced allocations (`tracemalloc`) during a search of the
  same size (an iteration budget equal to what the timed run reached: tracemalloc slows the
  search, so a timed run under it would build a smaller tree), with the nodes it held;
- **the bound**: the tree search holds at most `max_nodes` nodes; the same search with
  `max_nodes` cut to CAP nodes and twice its iterations shows the peak staying at the level
  of CAP nodes however long the search runs.  Dodgeball's turn search
  (`bots/dodgeball_search.py`) has no node cap: its passes of growing beams end with the
  widest one, so its memory is bounded by that schedule; the bound shown for it is the whole
  schedule searched without any budget (slow: up to a minute a position).  Two-player
  Knock-Off's search (`bots/knockoff_search.py`) is bounded by the turn: the bound shown is
  every end of the turn looked at one turn further.

Figures are printed, never asserted (the tests check the node bound itself,
`tests/test_bots.py`).
"""

import argparse
import math
import os
import random
import sys
import time
import tracemalloc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "host"))

from arena import PAIRINGS  # noqa: E402
from knockboard.bots import GreedyBot, StrongBot  # noqa: E402
from knockboard.games import get_game, sample_chance  # noqa: E402

CAP = 2_000                  # nodes, for the bound check
OVER = 1.05                  # a move "over budget": more than 5% over it
UNLIMITED = 10**9            # iterations: Dodgeball's search then ends with its schedule
MAX_DECISIONS = 3_000        # a greedy game that long is cut (4-player K.O. can stall)


def sample_positions(game, count, seed):
    """`count` decision positions with more than one legal action, evenly spaced over a game
    of greedy bots (seeded dice and bots)."""
    dice = random.Random(seed)
    bots = [GreedyBot(seed=seed * 10 + i) for i in range(game.num_players)]
    state = game.new_initial_state()
    seen = []
    decisions = 0
    while not state.is_terminal() and decisions < MAX_DECISIONS:
        if state.is_chance_node():
            state.apply(sample_chance(state, dice))
            continue
        if len(state.legal_actions()) > 1:
            seen.append(state.clone())
        state.apply(bots[state.current_player()].choose(state))
        decisions += 1
    if len(seen) <= count:
        return seen
    step = len(seen) / count
    return [seen[int(i * step)] for i in range(count)]


def timed(state, seed, budget, iterations=None):
    bot = StrongBot(seed=seed, budget=budget, iterations=iterations)
    start = time.perf_counter()
    bot.choose(state.clone())
    return time.perf_counter() - start, bot.last_stats


def traced(state, seed, iterations, max_nodes=None):
    """Peak traced bytes of a search of `iterations` iterations (no time limit), and its
    nodes (Dodgeball's turn search: the positions it scored)."""
    kwargs = {} if max_nodes is None else {"max_nodes": max_nodes}
    bot = StrongBot(seed=seed, budget=None, iterations=max(1, iterations), **kwargs)
    state = state.clone()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        bot.choose(state)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    return peak, bot.last_stats.get("nodes", 0)


def bound(state, seed, iterations, own_search):
    """(peak bytes, nodes) of the search with its bound reached: CAP nodes and twice the
    iterations, or a game's own search (`own_search`) unlimited: Dodgeball's whole beam
    schedule, every end of a two-player Knock-Off turn looked at one turn further."""
    if own_search:
        return traced(state, seed, UNLIMITED)
    return traced(state, seed, 2 * iterations, max_nodes=CAP)


def measure(name, game, positions, seed, budget, cap=None):
    times, iterations, peaks, nodes, capped = [], [], [], [], []
    # The generic tree search lists its root's candidates; a game's own search does not
    # (two-player Knock-Off has one, four-player Knock-Off the generic search).
    own_search = False
    for i, state in enumerate(positions):
        seconds, stats = timed(state, seed + i, budget, cap)
        times.append(seconds)
        done = stats.get("iterations", 0)
        iterations.append(done)
        if done:
            own_search = "candidates" not in stats
            peak, held = traced(state, seed + i, done)
            peaks.append(peak)
            nodes.append(held)
            capped.append(bound(state, seed + i, done, own_search))
    over = sum(1 for t in times if t > budget * OVER)
    mean_ms = 1000 * sum(times) / len(times)
    print(f"{name:12s} {len(positions):3d} positions  ms/move mean {mean_ms:6.0f}"
          f" max {1000 * max(times):6.0f}  over budget+5%: {over}"
          f"  iterations mean {sum(iterations) / len(iterations):7.0f}")
    if peaks:
        per_node = [p / n for p, n in zip(peaks, nodes) if n]
        how = ("its own search, no budget" if own_search
               else f"capped at {CAP} nodes, twice the iterations")
        mean_mb = sum(peaks) / len(peaks) / 2**20
        print(f"{'':12s} memory: peak {max(peaks) / 2**20:6.1f} MB (mean {mean_mb:.1f}),"
              f" nodes max {max(nodes):6d}, {sum(per_node) / len(per_node):5.0f} bytes a node;"
              f" {how}: peak {max(p for p, _ in capped) / 2**20:.1f} MB,"
              f" nodes max {max(n for _, n in capped)}")
    sys.stdout.flush()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--only", nargs="*", default=None, metavar="NAME")
    parser.add_argument("--iterations", type=int, default=None,
                        help="an iteration budget as well (the time budget then a cap)")
    args = parser.parse_args(argv)
    if args.positions < 1 or not (args.budget > 0 and math.isfinite(args.budget)):
        parser.error("--positions must be at least 1 and --budget a positive number")
    if args.iterations is not None and args.iterations < 1:
        parser.error("--iterations must be at least 1")
    print(f"strong bot, budget {args.budget:g} s a move"
          + (f" and {args.iterations} iterations" if args.iterations else "")
          + f", {args.positions} positions a game, "
          f"seed {args.seed}; Python {sys.version.split()[0]}, {os.cpu_count()} cores")
    for name, game_name, options, bots, _, _, _ in PAIRINGS:
        if not bots.startswith("strong"):
            continue
        if args.only and not any(name.startswith(o) for o in args.only):
            continue
        game = get_game(game_name, **options)
        positions = sample_positions(game, args.positions, args.seed)
        measure(name.split("-")[0], game, positions, args.seed, args.budget, args.iterations)
    return 0


if __name__ == "__main__":
    sys.exit(main())
