"""An experiment for issue 9: how far apart can two one-ply players be in K.O. and
Knock-Off?

The "plain" bot is the greedy bot without the score's threat terms: it values a position by
the rules' currency alone (Knock-Off: the price paid to climb, with the greedy bot's top-row
bonus, but no chance of being knocked home; K.O.: points, with the settled-result rule, but
no knock-outs threatened).  So it neither sees a threat coming nor looks for one; all else
(the one ply, the chance step after a move averaged) is the greedy bot's.  Its win rate
against the greedy bot shows what knowing the threats one throw ahead is worth, the largest
piece of knowledge the greedy bot has over a player who only counts.

    python3 benchmarks/skill_spread.py knockoff --games 200
    python3 benchmarks/skill_spread.py ko --games 200
"""

import time

from lookahead import against_greedy, common_arguments, game_of, report

from knockboard.bots import heuristics
from knockboard.bots.greedy import GreedyBot
from knockboard.games.ko import TURN


def plain_knockoff(state, player):
    level = state.game.board.level
    top = state.game.board.top

    def progress(p):
        climbed = sorted((level[x] * (level[x] + 1) // 2 for x in state.pos[p]), reverse=True)
        climbed += [0] * (4 - len(climbed))
        on_top = sum(level[x] == top for x in state.pos[p])
        return sum(climbed[:3]) + 0.3 * climbed[3] + 6.0 * on_top * on_top

    return progress(player) - max(progress(q) for q in range(state.game.num_players)
                                  if q != player)


def plain_ko(state, player):
    points = state.points()
    value = points[player] - max(p for i, p in enumerate(points) if i != player)
    if state.phase != TURN:
        return value
    settled = heuristics._ko_settled(state, player, points)
    if settled and len(points) > 2:
        return settled * heuristics.WIN
    return value + settled * (heuristics.WIN - heuristics._KO_MARGIN)


PLAIN = {"knockoff": plain_knockoff, "ko": plain_ko}


class PlainBot(GreedyBot):
    name = "plain"

    def choose(self, state):
        name = state.game.name
        scorers = heuristics._BY_GAME
        kept = scorers[name]
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
