"""Dodgeball as a race of throws: what the mix of throws is worth, solved exactly.

    python3 benchmarks/dodgeball_race.py [--ours U] [--at-carriers C] [--theirs-at-carriers K]

Every throw hands its ball to the other team (a hit leaves it on the target's square, a
catch puts it in the target's hands, a miss is placed by the target's owner next to the
target, and the greedy bot keeps what it places), so over a game the two teams' throws
alternate ball by ball and their counts differ by at most the three balls.  What a player
can change is **whose** throws they are (U, the share of the game's throws that are its
own: above 1/2 only if the other team cannot throw back the balls it receives) and **at
whom**: a throw at a carrier (which may only dodge, D-4) puts the target out 15/36 and
risks nothing; at a pawn that catches, the target is out 21/36 and the thrower 15/36.

The model keeps exactly that: from 5 pawns against 5, each throw is the player's with
chance U, at a carrier with chance C (the player's throws) or K (the other's), and its
result is drawn with the rules' probabilities; a miss changes nothing.  The chance to take
the other team's last pawn first is solved exactly over the (own, other) pawn counts.  It
is fed with the shares measured in play (`experiments/dodgeball_exposure.py`, which counts
each side's throws and their targets) and prints the win chance it gives them, and the
shares a player would need for a win rate of 0.62 (issue 33's target).
"""

import argparse
from functools import lru_cache

# A throw at a pawn that catches: target out if the thrower's die is at least the
# target's (21 of 36), else the thrower is out (15 of 36); at a carrier (dodge only):
# target out if the thrower's die is higher (15 of 36), else a miss.
AT_CATCHER_OUT = 21 / 36
AT_CATCHER_THROWER_OUT = 15 / 36
AT_CARRIER_OUT = 15 / 36
PAWNS = 5


def win_chance(ours: float, at_carriers: float, theirs_at_carriers: float,
               pawns: int = PAWNS) -> float:
    """The chance that the player wins the race from `pawns` against `pawns`."""
    for name, x in (("ours", ours), ("at_carriers", at_carriers),
                    ("theirs_at_carriers", theirs_at_carriers)):
        if not 0.0 <= x <= 1.0:
            raise ValueError(f"{name} must be a share in [0, 1], got {x}")
    if pawns < 1:
        raise ValueError("pawns must be at least 1")
    theirs = 1.0 - ours
    # Per throw: the other team loses a pawn / the player loses one.
    they_lose = (ours * (at_carriers * AT_CARRIER_OUT + (1 - at_carriers) * AT_CATCHER_OUT)
                 + theirs * (1 - theirs_at_carriers) * AT_CATCHER_THROWER_OUT)
    we_lose = (theirs * (theirs_at_carriers * AT_CARRIER_OUT
                         + (1 - theirs_at_carriers) * AT_CATCHER_OUT)
               + ours * (1 - at_carriers) * AT_CATCHER_THROWER_OUT)
    if they_lose + we_lose == 0:
        raise ValueError("no throw can put a pawn out: the race never ends")
    p = they_lose / (they_lose + we_lose)

    @lru_cache(maxsize=None)
    def value(own: int, other: int) -> float:
        if other == 0:
            return 1.0
        if own == 0:
            return 0.0
        return p * value(own, other - 1) + (1 - p) * value(own - 1, other)

    return value(pawns, pawns)


def needed(target: float, fixed: dict, lever: str) -> float:
    """The smallest share of `lever` (the others as in `fixed`) at which the win chance
    reaches `target`, by bisection; 1.0 + a small margin if even a share of 1 falls short."""
    args = dict(fixed)
    args[lever] = 1.0
    if win_chance(**args) < target:
        return float("inf")
    low, high = 0.0, 1.0
    for _ in range(40):
        mid = (low + high) / 2
        args[lever] = mid
        if win_chance(**args) >= target:
            high = mid
        else:
            low = mid
    return high


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # Defaults: the strong bot against the greedy bot, 60 arena games (benchmarks/arena.md).
    parser.add_argument("--ours", type=float, default=251 / 511,
                        help="the player's share of the game's throws")
    parser.add_argument("--at-carriers", type=float, default=36 / 251,
                        help="the share of the player's throws aimed at a carrier")
    parser.add_argument("--theirs-at-carriers", type=float, default=45 / 260,
                        help="the share of the other team's throws aimed at a carrier")
    parser.add_argument("--target", type=float, default=0.62)
    args = parser.parse_args(argv)
    mix = {"ours": args.ours, "at_carriers": args.at_carriers,
           "theirs_at_carriers": args.theirs_at_carriers}
    try:
        base = win_chance(**mix)
    except ValueError as error:
        parser.error(str(error))
    print(f"throws ours {args.ours:.3f}, ours at a carrier {args.at_carriers:.3f}, theirs at"
          f" a carrier {args.theirs_at_carriers:.3f}: win chance {base:.3f}")
    print(f"for {args.target}, one share changed, the others as given:")
    for lever in mix:
        share = needed(args.target, mix, lever)
        shown = "out of reach (even 1.0 falls short)" if share == float("inf") else f"{share:.3f}"
        print(f"   {lever}: {shown}")
    spared = dict(mix, theirs_at_carriers=0.0)
    print(f"with no throw of theirs at a carrier ({win_chance(**spared):.3f}):")
    for lever in ("ours", "at_carriers"):
        share = needed(args.target, spared, lever)
        shown = "out of reach" if share == float("inf") else f"{share:.3f}"
        print(f"   {lever}: {shown}")


if __name__ == "__main__":
    main()
