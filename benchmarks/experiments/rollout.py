"""A bot-strength experiment: do rollouts of the greedy bot itself pick better moves than
the greedy bot (Knock-Off, K.O.)?

The rollout bot tried here, not shipped (short rollouts did as well as the other
searchers, longer ones worse than the greedy bot; figures in benchmarks/arena.md): it lists
every way to finish its own turn (as `lookahead.py` does), keeps the WIDTH best by the
greedy bot's one-ply expectation, and plays each ROLLOUTS times for DEPTH decisions with
greedy bots in every seat, its own included (so the opponents are modelled exactly); a
rollout that does not reach the end is valued by the strong bot's `evaluate`.  Every
candidate's rollouts use the same dice streams (common random numbers), so the candidates
are compared on equal luck.  This is one step of policy improvement on the greedy bot:
with exact values (endless rollouts to the end) it could not do worse than the greedy bot.

    python3 benchmarks/experiments/rollout.py knockoff --games 60 --width 6 --rollouts 16 --depth 12
    python3 benchmarks/experiments/rollout.py knockoff --games 60 --width 6 --rollouts 8 --depth 30
"""

import random
import time

from lookahead import LookaheadBot, against_greedy, common_arguments, game_of, report

from knockboard.bots.greedy import GreedyBot
from knockboard.bots.heuristics import evaluate
from knockboard.games import sample_chance


class RolloutBot(LookaheadBot):
    """The lookahead bot's choice among its best turn endings, each valued by rollouts."""

    name = "rollout"

    def __init__(self, seed, width, rollouts, depth):
        super().__init__(seed, width)
        self.streams = random.Random(seed)        # the dice streams shared by the candidates
        self.rollouts = rollouts
        self.depth = depth
        self.first = 0

    def choose(self, state):
        if len(state.legal_actions()) > 1:       # a forced move is played without a look
            self.first = self.streams.getrandbits(40)
        return super().choose(state)

    def _after_turn(self, state, me):
        return sum(self._rollout(state, me, self.first + r) for r in range(self.rollouts))

    def _rollout(self, state, me, seed):
        dice = random.Random(seed)
        greedy = GreedyBot(seed)
        applied = decisions = 0
        while not state.is_terminal() and decisions < self.depth:
            if state.is_chance_node():
                state.apply(sample_chance(state, dice))
            else:
                state.apply(greedy.choose(state))
                decisions += 1
            applied += 1
        value = evaluate(state)[me]
        for _ in range(applied):
            state.undo()
        return value


def main(argv=None):
    parser = common_arguments(__doc__.split("\n\n")[0], games=60)
    parser.add_argument("--width", type=int, default=6)
    parser.add_argument("--rollouts", type=int, default=16)
    parser.add_argument("--depth", type=int, default=12)
    args = parser.parse_args(argv)
    game = game_of(args)
    started = time.perf_counter()
    wins, seconds, moves = against_greedy(
        game, lambda seed: RolloutBot(seed, args.width, args.rollouts, args.depth),
        args.games, args.seed)
    report(f"rollout(width {args.width}, {args.rollouts} rollouts, depth {args.depth})",
           game, args.games, wins, seconds, moves, started)


if __name__ == "__main__":
    main()
