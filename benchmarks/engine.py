"""Engine speed: plies per second and random full games per second.

    python3 benchmarks/engine.py [GAME ...] [--seconds S] [--option KEY=VALUE ...]

A ply is one `legal_actions()` call plus one `apply()` of a randomly chosen action (chance
outcomes sampled with their probabilities, and counted as plies too).  "plies/s" replays
random games and counts plies; "games/s" counts complete random games from the real start,
set-up phases and roll-offs included.  Figures are printed, never asserted.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "host"))

from knockboard.games import game_names, get_game, sample_chance  # noqa: E402

MAX_PLIES = 100_000  # a game that would not end is a bug; stop it instead of hanging


def random_game(game, rng):
    state = game.new_initial_state()
    plies = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply(action)
        plies += 1
        if plies > MAX_PLIES:
            raise RuntimeError(f"{game.name}: a random game ran past {MAX_PLIES} plies")
    return plies


def measure(game, seconds, seed=1):
    rng = random.Random(seed)
    games = plies = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        plies += random_game(game, rng)
        games += 1
    elapsed = time.perf_counter() - start
    return games, plies, elapsed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=None, metavar="GAME")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    options = {}
    for pair in args.option:
        key, _, value = pair.partition("=")
        options[key] = int(value) if value.isdigit() else value
    names = args.games or game_names()
    print(f"{'game':<12} {'plies/s':>10} {'games/s':>9} {'plies/game':>11}  (python "
          f"{sys.version.split()[0]}, {args.seconds:g} s each)")
    for name in names:
        game = get_game(name, **options)
        games, plies, elapsed = measure(game, args.seconds)
        print(f"{name:<12} {plies / elapsed:>10.0f} {games / elapsed:>9.1f} "
              f"{plies / max(games, 1):>11.1f}")


if __name__ == "__main__":
    main()
