"""Where the clairvoyant's Dodgeball edge comes from: the dice of the throws, or the dice of
the turns?

The clairvoyant (`knockboard.bots.clairvoyant`) wins 0.840 against the greedy bot at the
strong bot's budget (`../arena.md`), the strong bot 0.522.  It knows two kinds of dice no
fair player knows: each throw's two dice (the duel: who is out, or a miss) and the three
dice its own team rolls at the end of each turn (the other team's next dice are in the
position for every player).  This plays the clairvoyant with one kind hidden, its search
taking those dice by their probabilities as the strong bot's does, in the arena's games
(the same seats, dice and bots as `knockboard arena dodgeball --bots clairvoyant,greedy
--seed 1 --iterations 30 --budget 30 --max-moves 1500`), and prints the row:

- `--sees turns`: every die but the duels' (a player that foresees its own next rolls);
- `--sees duels`: the duels' dice only;
- `--sees all`: the arena's clairvoyant (a check that the hook changes nothing).

A fair player knows less than `--sees turns`, so what that row wins beyond the strong bot
is what foreseeing the turns' dice is worth to this search, and what the full clairvoyant
wins beyond it is the duels' dice, which no skill can see.

    python3 benchmarks/experiments/dodgeball_foresight.py --sees turns --games 400
    python3 benchmarks/experiments/dodgeball_foresight.py --sees duels --games 200 --first-game 200
"""

import argparse
import os
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path[:0] = [os.path.join(ROOT, "host"), ROOT]

from knockboard.arena import format_report, run_arena  # noqa: E402
from knockboard.bots.clairvoyant import ClairvoyantBot  # noqa: E402
from knockboard.games import get_game  # noqa: E402

SEES = {"all": (True, True), "turns": (False, True), "duels": (True, False)}
SEEN = {"all": "every die", "turns": "every die but the duels'", "duels": "the duels' dice only"}


def hide(sees):
    """Every clairvoyant of this process sees only the dice `sees` names."""
    ClairvoyantBot.sees_duels, ClairvoyantBot.sees_turns = SEES[sees]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sees", choices=sorted(SEES), required=True)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--max-moves", type=int, default=1500)
    args = parser.parse_args(argv)
    if args.games < 1 or args.first_game < 0 or args.iterations < 1:
        parser.error("need --games >= 1, --first-game >= 0 and --iterations >= 1")
    hide(args.sees)
    start = time.perf_counter()
    result = run_arena(get_game("dodgeball"), ["clairvoyant", "greedy"], args.games,
                       args.seed, budget=30.0, iterations=args.iterations,
                       max_decisions=args.max_moves, first=args.first_game)
    print(f"clairvoyant seeing {SEEN[args.sees]}, games {args.first_game}-"
          f"{args.first_game + args.games - 1}, {time.perf_counter() - start:.0f} s")
    print(format_report(result))


if __name__ == "__main__":
    main()
