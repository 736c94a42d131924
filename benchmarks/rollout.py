"""An experiment for issue 9: do rollouts of the greedy bot itself pick better moves than
the greedy bot (Knock-Off, K.O.)?

The rollout bot tried here, not shipped (it did worse than the greedy bot; figures in
benchmarks/arena.md): it lists every way to finish its own turn (as `lookahead.py` does),
keeps the WIDTH best by the greedy bot's one-ply expectation, and plays each ROLLOUTS times
for DEPTH decisions with greedy bots in every seat, its own included (so the opponents are
modelled exactly); a rollout that does not reach the end is valued by the strong bot's
`evaluate`.  Every candidate's rollouts use the same dice streams (common random numbers),
so the candidates are compared on equal luck.  This is one step of policy improvement on
the greedy bot: with exact values it could not do worse than the greedy bot.

    python3 benchmarks/rollout.py knockoff --games 60 --width 6 --rollouts 16 --depth 12
    python3 benchmarks/rollout.py knockoff --games 60 --width 6 --rollouts 8 --depth 30
"""

import random
import time

from lookahead import LookaheadBot, against_greedy, common_arguments, game_of, report

from knockboard.bots.greedy import GreedyBot
from knockboard.bots.heuristics import evaluate
from knockboard.games import sample_chance


class RolloutBot:
    name = "rollout"

    def __init__(self, seed, width, rollouts, depth):
        self.rng = random.Random(seed)
        self.width = width
        self.rollouts = rollouts
        self.depth = depth
        self.turn_ends = LookaheadBot(seed)._turn_ends

    def choose(self, state):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        leaves = []
        self.turn_ends(state, me, [], leaves)
        leaves.sort(key=lambda leaf: (-leaf[0], leaf[1]))
        first = self.rng.getrandbits(40)          # the dice streams shared by the candidates
        best, best_total = None, None
        for _, _, path in leaves[:self.width]:
            for action in path:
                state.apply(action)
            total = sum(self._rollout(state, me, first + r) for r in range(self.rollouts))
            for _ in path:
                state.undo()
            if best_total is None or total > best_total:
                best, best_total = path[0], total
        return best

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
