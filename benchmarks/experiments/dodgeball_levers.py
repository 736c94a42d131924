"""Bot-strength experiments: does the strong bot win more in Dodgeball if it pulls one of
the ball economy's levers?

The ball economy (`../dodgeball_economy.py`, `../dodgeball_ceiling.py`) says the whole edge
of best play over the greedy bot's policy lies in the share of the greedy bot's throws that
come at the player's carriers (which must dodge: 15/36 for the thrower, no risk) while it
holds a ball: the strong bot shows them to about 0.9 of those throws, and the model's value
at that exposure is about what it wins.  This plays the strong bot with its learnt value
less PENALTY for each throw the other team's known dice allow at its carriers at the end
of its turn (the value's own feature `their_throws_at_carriers`, in expected throws),
against the greedy bot in the arena's games (the same games as `knockboard arena dodgeball
--bots strong,greedy --iterations N --budget 30 --max-moves 1500`), and prints the counts of
`dodgeball_ceiling.py` (exposure among them) and the model's values.

The second lever, `--max-start-balls K`: the strong bot takes at most K starting balls (it
does not search moves that would pick up another).  In games of two greedy bots the team
that took fewer starting balls won more (0.82, 0.63, 0.39, 0.31 for 0, 1, 2, 3 of them);
a strong bot that took none won 0.44 of 100 games, so the count alone is not the cause.

    python3 benchmarks/experiments/dodgeball_levers.py --penalty 0.1 --games 100
    python3 benchmarks/experiments/dodgeball_levers.py --penalty 0 --max-start-balls 1
"""

import argparse
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path[:0] = [os.path.join(ROOT, "host"), ROOT]

from benchmarks import dodgeball_ceiling  # noqa: E402
from knockboard.bots import dodgeball_search, dodgeball_value, strong  # noqa: E402

AT_CARRIERS = dodgeball_value.FEATURE_NAMES.index("their_throws_at_carriers")
AT_OTHERS = dodgeball_value.FEATURE_NAMES.index("their_throws_at_others")


class PenalisedValue(dodgeball_value.DodgeballValueModel):
    """The learnt value, less `penalty` a throw the other team can make at a carrier."""

    def __init__(self, data, penalty, deny=0.0):
        super().__init__(data)
        self.penalty = penalty
        self.deny = deny

    def win_chance(self, x):
        return (super().win_chance(x) - self.penalty * x[AT_CARRIERS]
                - self.deny * (x[AT_CARRIERS] + x[AT_OTHERS]))


def limit_start_balls(most):
    """Patch the turn search (this process only): a bot that has taken `most` starting
    balls does not search a move that would take another."""
    children = dodgeball_search._TurnSearch._children
    choose = dodgeball_search.choose

    def counted_choose(bot, state):
        before = sum(state.squares()[3])
        action = choose(bot, state)
        state.apply(action)
        bot.start_taken = getattr(bot, "start_taken", 0) + before - sum(state.squares()[3])
        state.undo()
        return action

    def limited_children(self, state, path):
        kids = children(self, state, path)
        if getattr(self.bot, "start_taken", 0) < most:
            return kids
        start = sum(state.squares()[3])
        kept = []
        for value, action in kids:
            state.apply(action)
            if sum(state.squares()[3]) == start:
                kept.append((value, action))
            state.undo()
        self.scored[path] = kept
        return kept

    dodgeball_search._TurnSearch._children = limited_children
    strong._SEARCHES["dodgeball"] = counted_choose      # what StrongBot calls


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--penalty", type=float, default=0.05)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--deny", type=float, default=0.0,
                        help="less this a throw the other team's known dice allow at any"
                             " of the bot's pawns (carrier or not)")
    parser.add_argument("--max-start-balls", type=int, default=None)
    args = parser.parse_args(argv)
    if args.games < 1 or args.penalty < 0:
        parser.error("need --games >= 1 and --penalty >= 0")
    import json
    with open(dodgeball_value.WEIGHTS_FILE) as f:
        model = PenalisedValue(json.load(f), args.penalty, args.deny)
    dodgeball_value._MODEL[:] = [model]     # what every strong bot of this process loads
    if args.max_start_balls is not None:
        limit_start_balls(args.max_start_balls)
    dodgeball_ceiling.main(["--tested", "strong", "--against", "greedy", "--games",
                            str(args.games), "--seed", str(args.seed), "--iterations",
                            str(args.iterations)])


if __name__ == "__main__":
    main()
