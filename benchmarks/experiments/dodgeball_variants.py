"""Screen Dodgeball score variants fast: a one-ply bot with a changed score against the
greedy bot (milliseconds a move, so hundreds of games in minutes).

A variant is the score module (`bots/dodgeball_score.py`) loaded a second time with some
constants changed (`NAME=VALUE`, the derived reach values recomputed); the bot is the greedy
bot with that score (one ply, a throw's dice averaged, its declarations one ply too).
Games are the arena's (`run_arena`: seats rotated, dice shared per rotation).

    python3 benchmarks/experiments/dodgeball_variants.py --games 200 WAITING_REACH=1.5
"""

import argparse
import importlib.util
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path[:0] = [os.path.join(ROOT, "host"), ROOT]

from knockboard import arena  # noqa: E402
from knockboard.arena import run_arena, wilson_interval  # noqa: E402
from knockboard.bots import dodgeball_score  # noqa: E402
from knockboard.bots.greedy import GreedyBot  # noqa: E402
from knockboard.games import get_game  # noqa: E402


def variant_module(changes):
    """The score module loaded anew with `changes` (name -> value) applied."""
    spec = importlib.util.spec_from_file_location("knockboard.bots._dodgeball_variant",
                                                  dodgeball_score.__file__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, value in changes.items():
        if not hasattr(module, name):
            raise SystemExit(f"no constant {name} in dodgeball_score")
        setattr(module, name, value)
    handover = module.BALL_CARRIED + module.BALL_LOOSE
    if "REACH_CATCHER" not in changes:
        module.REACH_CATCHER = module.GAIN_CATCHER + module.THROW_BONUS - handover
    if "REACH_CARRIER" not in changes:
        module.REACH_CARRIER = module.GAIN_CARRIER + module.THROW_BONUS - handover
    return module


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("changes", nargs="*", help="NAME=VALUE")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    changes = {}
    for text in args.changes:
        name, _, value = text.partition("=")
        changes[name] = float(value)
    module = variant_module(changes)
    made = arena.make_arena_bot

    def make(name, seed, budget, iterations, game_name=None):
        if name == "variant":
            return GreedyBot(seed, module.score)
        return made(name, seed, budget, iterations, game_name)

    arena.make_arena_bot = make
    arena.ARENA_BOTS = arena.ARENA_BOTS + ("variant",)
    result = run_arena(get_game("dodgeball"), ["variant", "greedy"], args.games, args.seed,
                       budget=30.0, max_decisions=1500)
    wins = result.entries[0].wins
    low, high = wilson_interval(wins, args.games)
    print(f"{' '.join(args.changes) or 'unchanged'}: {wins:g} of {args.games},"
          f" {wins / args.games:.3f} [{low:.3f}, {high:.3f}], unfinished {result.unfinished},"
          f" plies {result.plies / args.games:.0f} a game")


if __name__ == "__main__":
    main()
