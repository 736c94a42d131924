"""How much of Dodgeball a fair player can win: the ball economy against play.

    python3 benchmarks/dodgeball_ceiling.py [--games N] [--seed S] [--tested BOT]
                                            [--against BOT] [--iterations N]

The model (`dodgeball_economy.py`, solved exactly) keeps what the rules fix about balls and
throws: the dice duel of a throw, every throw handing its ball to the other team except the
misses the target's owner places on the thrower's half, a ball thrown only from a pawn's
hands (tempo).  The share r of a throw's misses that come back is the player's choice,
throw by throw, limited by the geometry: the engine's `miss_squares` for each pawn of the
other team, under the other bot's way of placing (the random bot at random, the greedy bot
on its own half whenever it can), in the formations the other bot's pawns stood in.

This script plays arena games of `--tested` against `--against` (`knockboard arena`'s
seats, dice and bots: the same games as `benchmarks/arena.py`'s row for the pair at the
same seed, games and iterations) and counts what the model needs and what it predicts:
starting balls taken (s), throws, the other bot's throws at the tested bot's carriers while
it had one (exposure), returned misses, the other team's formations, the other bot's rate
of throwing.  Then it prints the model's values at r, s:

- **bounds**: the best policy, r chosen per throw from the formations measured (and from a
  lone pawn's geometry; against the greedy bot, also with it throwing only at its measured
  rate); the other bot's throws come at a pawn of the player's choosing;
- **predictions**: the best policy with the tested bot's carriers exposed as measured, and
  the greedy bot's own policy, beside the tested bot's measured win rate, overall and by
  the starting balls it took.

Figures are printed, never asserted.
"""

import argparse
import math
import os
import sys
from collections import Counter

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path[:0] = [os.path.join(ROOT, "host"), ROOT]

from benchmarks.dodgeball_economy import (BALLS, Model, at_s,  # noqa: E402
                                          formation_shares, greedy, lone_pawn_geometry,
                                          random_bot)
from knockboard.arena import run_arena, wilson_interval  # noqa: E402
from knockboard.games import get_game  # noqa: E402
from knockboard.games.dodgeball.board import HALF  # noqa: E402
from knockboard.games.dodgeball.notation import THROW, decode  # noqa: E402
from knockboard.games.dodgeball.position import TURN  # noqa: E402


class GameCounter:
    """An arena observer for one game: start balls, throws (at carriers; the other bot's
    while the tested bot holds a ball), returned misses per bot; the other team's formation
    (best and mean miss share) at the start of the tested bot's turns; the other bot's
    turns holding a ball and its throws in them; the starting balls the tested bot took
    (`taken`: `measure` counts the game's result by it)."""

    def __init__(self, counts, geometry, tested_seat, keeps):
        self.counts, self.geometry = counts, geometry
        self.tested_seat, self.keeps = tested_seat, keeps
        self.holding = False
        self.taken = 0

    def __call__(self, state, seat, action):
        counts = self.counts
        who = "tested" if seat == self.tested_seat else "other"
        board, carry, loose, start = (list(x) for x in state.squares()[:4])
        throw = state.throw
        if state.stage == TURN and throw is None and state.dice_held()[1][seat] == 0:
            self._turn_starts(state, seat, who, board, carry)
        kind, _, _, target = decode(action)
        state.apply(action)
        try:
            taken = sum(start) - sum(state.squares()[3])
            counts[who + " start balls"] += taken
            self.taken += taken if who == "tested" else 0
            if kind == THROW:
                self._throw(who, seat, board, carry, target)
            if throw is not None and throw[4] is not None:
                self._miss_placed(state, who, board, loose, throw)
        finally:
            state.undo()

    def _turn_starts(self, state, seat, who, board, carry):
        if who == "tested":
            self.counts["tested turns"] += 1
            best, mean = formation_shares(state, seat, self.keeps)
            # To a twentieth (fewer classes to solve): the best share rounded up (a bound
            # stays a bound), the mean to the nearest.
            self.geometry[(math.ceil(best * 20 - 1e-9) / 20, round(mean * 20) / 20)] += 1
        self.holding = any(carry[s] and board[s] == seat for s in range(64))
        self.counts[who + " turns holding"] += self.holding

    def _throw(self, who, seat, board, carry, target):
        counts = self.counts
        counts[who + " throws"] += 1
        counts[who + " throws at a carrier"] += carry[target]
        counts[who + " throws holding"] += self.holding
        if who == "other" and any(carry[s] and board[s] == 1 - seat for s in range(64)):
            counts["other throws, tested holding"] += 1
            counts["other throws, tested holding, at a carrier"] += carry[target]

    def _miss_placed(self, state, who, board, loose, throw):
        """The target's owner placed a missed ball: on whose half did it land?"""
        now = state.squares()[2]
        landed = next(s for s in range(64) if now[s] > loose[s])
        thrower = "other" if who == "tested" else "tested"
        self.counts[thrower + " misses placed"] += 1
        self.counts[thrower + " misses returned"] += landed in HALF[board[throw[0]]]


def measure(tested, other, games, seed, max_moves, iterations=None):
    """Arena games of `tested` against `other` (seats rotated, dice shared as in `knockboard
    arena`): the counts of `GameCounter`, with each finished game's result by the starting
    balls the tested bot took, and the formations as a `Geometry`."""
    counts: Counter = Counter()
    shapes: Counter = Counter()
    keeps = other != "random"
    game: list = []                 # this game's counter
    before = [0.0, 0]               # the tested bot's wins and the unfinished games so far

    def observer(listed):
        game[:] = [GameCounter(counts, shapes, listed.index(0), keeps)]
        return game[0]

    def progress(_, result):
        wins, unfinished = result.entries[0].wins, result.unfinished
        if unfinished == before[1]:
            counts[f"s={game[0].taken} games"] += 1
            counts[f"s={game[0].taken} wins"] += wins - before[0]
        before[:] = [wins, unfinished]

    result = run_arena(get_game("dodgeball"), [tested, other], games, seed, budget=30.0,
                       iterations=iterations, max_decisions=max_moves, observer=observer,
                       progress=progress)
    counts["games"] = games
    counts["unfinished"] = result.unfinished
    counts["tested wins"] = result.entries[0].wins
    total = sum(shapes.values())
    geometry = [(n / total, best, mean) for (best, mean), n in sorted(shapes.items())]
    return counts, geometry


def other_throw_rate(counts) -> float:
    """The other bot's throws a turn in which it started holding a ball (at most 1)."""
    return min(1.0, counts["other throws holding"] / max(counts["other turns holding"], 1))


def _row(values):
    return "  ".join(f"{x:.3f}" for x in values)


def exposure(counts) -> float:
    """The share of the other bot's throws that came at a carrier of the tested bot's, of
    those it threw while the tested bot held a ball."""
    return (counts["other throws, tested holding, at a carrier"]
            / max(counts["other throws, tested holding"], 1))


def print_arena(args, counts, geometry):
    n, other, tested = counts["games"], args.against, args.tested
    wins = counts["tested wins"]
    low, high = wilson_interval(wins, n)
    print(f"Arena: {tested} v {other}, {n} games (seed {args.seed}, seats rotated):")
    print(f"   {tested} wins {wins:g} of {n}: {wins / n:.3f} [{low:.3f}, {high:.3f}],"
          f" unfinished {counts['unfinished']}")
    print(f"   starting balls taken a game (s): {counts['tested start balls'] / n:.2f} of 3"
          f" ({other}: {counts['other start balls'] / n:.2f})")
    throws, others = counts["tested throws"], counts["other throws"]
    print(f"   throws a game: {throws / n:.2f} ({other}: {others / n:.2f}); at a carrier:"
          f" {counts['tested throws at a carrier'] / max(throws, 1):.3f}"
          f" ({other}: {counts['other throws at a carrier'] / max(others, 1):.3f})")
    print(f"   {other}'s throws while {tested} held a ball:"
          f" {counts['other throws, tested holding']}, at a carrier: {exposure(counts):.3f}")
    placed = counts["tested misses placed"]
    print(f"   its misses {other} placed: {placed}, on {tested}'s half:"
          f" {counts['tested misses returned'] / max(placed, 1):.3f}")
    best = sum(p * b for p, b, _ in geometry)
    mean = sum(p * m for p, _, m in geometry)
    offered: Counter = Counter()
    for p, b, _ in geometry:
        offered[b] += p
    print("   the best share on offer (to a twentieth, rounded up), by its share of turns: "
          + ", ".join(f"{b:.2f} {p:.3f}" for b, p in sorted(offered.items())))
    print(f"   {other}'s formations at {tested}'s turns ({counts['tested turns']}): best miss"
          f" share on offer {best:.3f} on average, a pawn's {mean:.3f}")
    print(f"   {other} throws {other_throw_rate(counts):.3f} a turn it starts holding a ball")


def model_rows(args, counts, geometry):
    """(name, solved model) of the figures printed: bounds first, then predictions."""
    q = other_throw_rate(counts)
    opponent = greedy(1.0) if args.against != "random" else random_bot(q)
    bare = lone_pawn_geometry(opponent.keeps)
    x = exposure(counts)
    rows = [
        ("bound: best policy, r chosen per throw from the formations measured",
         Model(opponent, geometry)),
        (f"bound: best policy, r from a lone pawn's geometry (r <= {bare[0][1]:.2f})",
         Model(opponent, bare)),
        ("prediction for greedy: greedy's policy, a target's r regardless",
         Model(opponent, geometry, "greedy")),
    ]
    if counts["other throws, tested holding"] >= 20:
        rows.insert(2, (f"prediction for {args.tested}: best policy, its carriers exposed as"
                        f" measured ({x:.3f})", Model(opponent, geometry, exposed=x)))
    if args.against != "random":
        rows.insert(1, (f"bound: best policy, {args.against} throwing only at its measured"
                        f" rate {q:.3f}", Model(greedy(q), geometry)))
    return [(name, model.solve()) for name, model in rows]


def report(args):
    counts, geometry = measure(args.tested, args.against, args.games, args.seed,
                               args.max_moves, args.iterations)
    print_arena(args, counts, geometry)
    other = args.against
    habits = ("catches, keeps its misses" if other != "random"
              else "declares and places at random")
    taken = counts["tested start balls"] / counts["games"]
    print(f"\nThe model against {other}'s habits ({habits}): the model's value at r, s"
          f" (s = 0 1 2 3, and at the measured s = {taken:.2f})")
    rows = model_rows(args, counts, geometry)
    for name, model in rows:
        values = model.from_start()
        print(f"   {_row(values)}  {at_s(values, taken):.3f}   {name}")
    print(f"\nBy the starting balls {args.tested} took: games, its win rate [95% Wilson],"
          " the predictions above")
    for s in range(BALLS + 1):
        games = counts[f"s={s} games"]
        if games:
            wins = counts[f"s={s} wins"]
            low, high = wilson_interval(wins, games)
            predicted = "  ".join(f"{model.from_start()[s]:.3f}" for _, model in rows[-2:])
            print(f"   s = {s}: {games:4d}  {wins / games:.3f} [{low:.3f}, {high:.3f}]"
                  f"   {predicted}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tested", default="greedy")
    parser.add_argument("--against", default="random", help="the other bot (default random)")
    parser.add_argument("--iterations", type=int, default=30,
                        help="a search bot's iterations per move (as benchmarks/arena.py)")
    parser.add_argument("--max-moves", type=int, default=1500)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    report(args)


if __name__ == "__main__":
    main()
