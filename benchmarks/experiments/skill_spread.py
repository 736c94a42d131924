"""A bot-strength experiment: how far apart can two one-ply players be in K.O. and
Knock-Off?

The "plain" bot is the greedy bot without the score's threat terms: it values a position by
the rules' currency alone (Knock-Off: the price paid to climb, with the greedy bot's top-row
bonus, but no chance of being knocked home; K.O.: points, with the settled-result rule, but
no knock-outs threatened).  So it neither sees a threat coming nor looks for one; all else
(the one ply, the chance step after a move averaged) is the greedy bot's.  Its win rate
against the greedy bot shows what knowing the threats one throw ahead is worth, the largest
piece of knowledge the greedy bot has over a player who only counts.

    python3 benchmarks/experiments/skill_spread.py knockoff --games 200
    python3 benchmarks/experiments/skill_spread.py ko --games 200
"""

import time
from functools import partial

from lookahead import against_greedy, common_arguments, game_of, report

from knockboard.bots import heuristics
from knockboard.bots.greedy import GreedyBot


PLAIN = {"knockoff": partial(heuristics.knockoff, risk=False),
         "ko": partial(heuristics.ko, threats=False)}


class PlainBot(GreedyBot):
    name = "plain"

    def choose(self, state):
        name = state.game.name
        scorers = heuristics._SCORERS
        kept = heuristics.scorer_for(name)
        scorers[name] = PLAIN[name]           # the greedy bot's search, the plain score
        try:
            return super().choose(state)
        finally:
            scorers[name] = kept


def main(argv=None):
    parser = common_arguments(__doc__.split("\n\n")[0], games=200)
    args = parser.parse_args(argv)
    game = game_of(args)
    started = time.perf_counter()
    wins, seconds, moves = against_greedy(game, PlainBot, args.games, args.seed)
    report("plain (no threats)", game, args.games, wins, seconds, moves, started)


if __name__ == "__main__":
    main()
