"""How much of Dodgeball any fair player can win against the uniformly random player.

    python3 benchmarks/dodgeball_ceiling.py [--games N] [--seed S] [--tested BOT]
                                            [--against BOT] [--iterations N]

Issue 20 asks the greedy bot to beat the random bot in 90% of the games.  The clairvoyant
ceiling says nothing about that target (it knows the throw dice; a fair player does not), so
this script bounds what a player that does not know them can win, in two parts:

1. **The ball economy, solved exactly.**  A model that keeps what the rules fix and gives the
   fair player every doubt.  Fixed by the rules: a throw is a duel of two dice (against a
   target that catches the thrower wins 21/36 and is out 15/36; against one that dodges,
   which a carrier must, it wins 15/36 and risks nothing); every throw hands its ball to the
   target's team (a hit leaves it on the target's square, a catch in the target's hands, a
   miss where the target's owner places it next to the target), except a miss the random
   owner happens to place on the thrower's half (probability `r`); the starting balls are the
   only balls nobody had to throw first (the fair player gets `s` of the three).  Given to the
   fair player: it may throw as often as it likes with every ball it holds, a carrier of the
   random team is always within reach once that team holds a ball, and the random player's
   throws only ever come at the fair player's catchers, when the fair player lets them (it
   chooses catch or dodge).  The random player declares catch or dodge at random.  States
   are (own pawns, random's pawns, balls held by the fair player); value iteration gives the
   best win probability from 5 against 5.  The same model against a player that catches
   whatever it may and keeps its misses (as the greedy bot does) bounds what the strong bot
   could win against the greedy one, if the greedy bot never threw at a carrier.
2. **What the tested bot gets of `s` and `r`**, counted in real arena games (`knockboard
   arena`'s seats and dice) against the random bot, or another (`--against`): start balls
   taken, throws and throws at carriers, and of its misses the share the other bot placed on
   the tested bot's half; and, at the start of each of its turns, the best share of a miss's
   squares on its half over the other team's pawns (`best_return`): `r` is the player's to
   raise by its choice of targets, and this says how far and how often it could.

Figures are printed, never asserted.
"""

import argparse
import os
import sys
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "host"))

from knockboard.arena import run_arena  # noqa: E402
from knockboard.games import get_game  # noqa: E402
from knockboard.games.dodgeball import HALF, THROW, TURN, _decode  # noqa: E402

PAWNS = 5
BALLS = 3
HIT_CATCHER = 21 / 36      # the thrower wins against a target that catches (ties too)
HIT_DODGER = 15 / 36       # ... against one that dodges (ties are misses)


def options(value, returned, u, t, b, catches=False):
    """The fair player's choices in state (own pawns u, random's t, balls held b), each with
    its win probability under `value` (a dict of the states' values).  `catches`: the other
    player catches every throw it may catch (as the greedy bot declares), instead of
    declaring at random."""
    def v(u, t, b):
        if t == 0:
            return 1.0
        if u == 0:
            return 0.0
        return value[(u, t, b)]

    choices = {}
    if b < BALLS:
        # Let the random team throw one of its balls at a catcher, which catches or dodges.
        choices["let it throw, catch"] = (HIT_CATCHER * v(u - 1, t, b + 1)
                                          + (1 - HIT_CATCHER) * v(u, t - 1, b + 1))
        choices["let it throw, dodge"] = (HIT_DODGER * v(u - 1, t, b + 1)
                                          + (1 - HIT_DODGER) * v(u, t, b + 1))
    if b:
        miss = returned * v(u, t, b) + (1 - returned) * v(u, t, b - 1)
        dodged = HIT_DODGER * v(u, t - 1, b - 1) + (1 - HIT_DODGER) * miss
        caught = HIT_CATCHER * v(u, t - 1, b - 1) + (1 - HIT_CATCHER) * v(u - 1, t, b - 1)
        if b < BALLS:
            choices["throw at a carrier"] = dodged     # it must dodge
        choices["throw at a catcher"] = caught if catches else (caught + dodged) / 2
    return choices


def solve(returned, catches=False, tolerance=1e-12):
    """Best win probability of the fair player per state (own, theirs, balls held), its
    turn, when a miss comes back to its half with probability `returned`."""
    value = {(u, t, b): 0.0 for u in range(1, PAWNS + 1) for t in range(1, PAWNS + 1)
             for b in range(BALLS + 1)}
    while True:
        change = 0.0
        for state, old in value.items():
            new = max(options(value, returned, *state, catches).values())
            change = max(change, abs(new - old))
            value[state] = new
        if change < tolerance:
            return value


def best_from_start(returned, catches=False):
    """The best win probability from 5 v 5 for 0, 1, 2 and 3 starting balls taken."""
    value = solve(returned, catches)
    return [value[(PAWNS, PAWNS, s)] for s in range(BALLS + 1)]


def best_return(state, team):
    """The largest share of a miss's squares on `team`'s half, over the other team's pawns
    as targets, and over its carriers only: what a throw could get back from an owner that
    places a missed ball at random."""
    board, carry = state.squares()[:2]
    best = best_carrier = 0.0
    for target in range(64):
        if board[target] == 1 - team:
            squares = state.miss_squares(target)
            share = sum(1 for s in squares if s in HALF[team]) / len(squares)
            best = max(best, share)
            if carry[target]:
                best_carrier = max(best_carrier, share)
    return best, best_carrier


def _bucket(share):
    return ">= 0.5" if share >= 0.5 else ">= 0.3" if share >= 0.3 else "< 0.3"


def count_game(counts, tested_seat):
    """An arena observer counting start balls, throws and returned misses per bot, and at
    the start of the tested bot's turns the best return a throw could hope for."""
    def observe(state, seat, action):
        who = "tested" if seat == tested_seat else "other"
        board, carry, loose, start = (list(x) for x in state.squares()[:4])
        throw = state.throw
        if who == "tested" and state.stage == TURN and throw is None \
                and state.dice_held()[1][seat] == 0:
            counts["tested turns"] += 1
            for name, share in zip(("any", "carrier"), best_return(state, seat)):
                counts[f"return {name} {_bucket(share)}"] += 1
        kind, _, _, target = _decode(action)
        state.apply(action)
        try:
            counts[who + " start balls"] += sum(start) - sum(state.squares()[3])
            if kind == THROW:
                counts[who + " throws"] += 1
                counts[who + " throws at a carrier"] += carry[target]
            if throw is not None and throw[4] is not None:
                # The target's owner placed a missed ball: on whose half did it land?
                now = state.squares()[2]
                landed = next(s for s in range(64) if now[s] > loose[s])
                thrower = "other" if who == "tested" else "tested"
                counts[thrower + " misses placed"] += 1
                counts[thrower + " misses returned"] += landed in HALF[board[throw[0]]]
        finally:
            state.undo()
    return observe


def measure(tested, other, games, seed, max_moves, iterations=None):
    """Arena games of `tested` against `other` (seats rotated, dice shared as in `knockboard
    arena`), counted by `count_game`."""
    counts = Counter()
    result = run_arena(get_game("dodgeball"), [tested, other], games, seed, budget=30.0,
                       iterations=iterations, max_decisions=max_moves,
                       observer=lambda listed: count_game(counts, listed.index(0)))
    counts["games"] = games
    counts["unfinished"] = result.unfinished
    counts["tested wins"] = result.entries[0].wins
    return counts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tested", default="greedy")
    parser.add_argument("--against", default="random", help="the other bot (default random)")
    parser.add_argument("--iterations", type=int, default=100,
                        help="a search bot's iterations per move (as benchmarks/arena.py)")
    parser.add_argument("--max-moves", type=int, default=1500)
    args = parser.parse_args(argv)

    print("1. The ball economy against the random player, solved exactly: the best win")
    print("   probability of a fair player from 5 v 5, by starting balls taken (s) and the")
    print("   share of its misses the random player places on its half (r)")
    print("   r     s=0    s=1    s=2    s=3")
    for returned in (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0):
        row = best_from_start(returned)
        print(f"   {returned:.1f}  " + "  ".join(f"{x:.3f}" for x in row))

    print("\n   The same against a player that catches every throw it may (the greedy bot's")
    print("   declaration) and places every miss on its own half (r = 0), but still throws")
    print("   only at the fair player's catchers and only when let:")
    print("          " + "  ".join(f"{x:.3f}" for x in best_from_start(0.0, catches=True)))

    counts = measure(args.tested, args.against, args.games, args.seed, args.max_moves,
                     args.iterations)
    n = counts["games"]
    other = args.against
    print(f"\n2. {args.tested} v {other}, {n} arena games (seed {args.seed}, seats rotated):")
    print(f"   {args.tested} wins {counts['tested wins']:g} of {n}"
          f" ({counts['tested wins'] / n:.3f}), unfinished {counts['unfinished']}")
    taken = counts["tested start balls"] / n
    print(f"   starting balls taken a game: {taken:.2f} of 3"
          f" ({other}: {counts['other start balls'] / n:.2f})")
    throws, others = counts["tested throws"], counts["other throws"]
    print(f"   throws a game: {throws / n:.2f} ({other}: {others / n:.2f}); at a carrier:"
          f" {counts['tested throws at a carrier'] / max(throws, 1):.3f}"
          f" ({other}: {counts['other throws at a carrier'] / max(others, 1):.3f})")
    placed = counts["tested misses placed"]
    share = counts["tested misses returned"] / max(placed, 1)
    print(f"   its misses {other} placed: {placed}, on {args.tested}'s half: {share:.3f}")
    turns = max(counts["tested turns"], 1)
    for name in ("any", "carrier"):
        shares = ", ".join(f"{bucket} {counts[f'return {name} {bucket}'] / turns:.3f}"
                           for bucket in (">= 0.5", ">= 0.3", "< 0.3"))
        print(f"   its turns by the best return of a throw at {name} target: {shares}")
    s = min(BALLS, round(taken))
    catches = other != "random"
    print(f"   the model's best at s = {s}, r = {share:.2f}"
          f"{' against a player that catches' if catches else ''}:"
          f" {best_from_start(share, catches)[s]:.3f}")


if __name__ == "__main__":
    main()
