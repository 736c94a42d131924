"""A bot-strength experiment: is there a better Knock-Off score to be had than the greedy
bot's own (`heuristics.knockoff`)?

Greedy bots play each other; every position at the start of a turn is kept, from both
players' sides, with whether that player went on to win.  Two logistic models of the
result are fitted on one set of games and judged on others (log loss, lower is better;
0.693 is a coin):
- "score": the greedy bot's score and whose turn it is (2 inputs);
- "features": that plus, per side (own minus the other's), the price still to pay to bring
  the best three pawns to the top, its square, the fourth pawn's price, pawns on top and
  their square, the price at risk of the next throw and of the one after, pawns within an
  opponent's reach, pawns at home (11 inputs).
If the features told much more about the result than the score does, a strong bot valued
with them would have an edge over the greedy bot that no search gives it.  To see whether
the small difference there is counts in play, a one-ply bot valued by each fitted model
plays the greedy bot (`--games`, arena-style, as in `lookahead.py`).

    python3 benchmarks/experiments/knockoff_value.py --train 1000 --test 300 --games 200
"""

import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "host"))

from lookahead import against_greedy, report  # noqa: E402
from knockboard.bots.greedy import GreedyBot  # noqa: E402
from knockboard.bots.heuristics import _KOF_PAYS, knockoff  # noqa: E402
from knockboard.games import get_game, sample_chance  # noqa: E402
from knockboard.games.knockoff.position import ROLL  # noqa: E402


def side(state, p):
    game = state.game
    board = game.board
    n = game.num_players
    sources = [list(state.pos[q]) + ([game.homes[q]] if state.home[q] else [])
               for q in range(n)]
    prices = []
    risk_now = risk_later = 0.0
    on_top = reachable = 0
    for x in state.pos[p]:
        level = board.level[x]
        price = level * (level + 1) // 2
        safe_now = safe_later = 1.0
        for q in range(n):
            for src in sources[q] if q != p else ():
                c = board.cost[src].get(x)
                if c is not None:
                    if q == state.player:
                        safe_now *= 1.0 - _KOF_PAYS[c]
                    else:
                        safe_later *= 1.0 - _KOF_PAYS[c]
        risk_now += price * (1.0 - safe_now)
        risk_later += price * (1.0 - safe_later)
        reachable += safe_now < 1.0 or safe_later < 1.0
        prices.append(price)
        on_top += level == board.top
    prices.sort(reverse=True)
    prices += [0] * (4 - len(prices))
    to_pay = sum(21 - price for price in prices[:3])
    return [to_pay, to_pay * to_pay / 63.0, prices[3], on_top, on_top * on_top,
            risk_now, risk_later, reachable, state.home[p]]


def inputs(state, p):
    mine, theirs = side(state, p), side(state, 1 - p)
    turn = 1.0 if state.player == p else -1.0
    return [knockoff(state, p) / 30.0, turn] + [a - b for a, b in zip(mine, theirs)]


def positions(games, seed):
    """(inputs, won) for every turn start of `games` greedy-v-greedy games, both sides."""
    game = get_game("knockoff", players=2)
    rng = random.Random(seed)
    rows = []
    for _ in range(games):
        state = game.new_initial_state()
        bots = [GreedyBot(rng.random()), GreedyBot(rng.random())]
        kept = []
        while not state.is_terminal():
            if state.is_chance_node():
                if state.phase == ROLL:
                    kept.append((inputs(state, 0), inputs(state, 1)))
                state.apply(sample_chance(state, rng))
            else:
                state.apply(bots[state.current_player()].choose(state))
        won = [r > 0 for r in state.returns()]
        for x0, x1 in kept:
            rows += [(x0, won[0]), (x1, won[1])]
    return rows


def _p(w, x):
    z = sum(a * b for a, b in zip(w, x))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def fit(rows, columns, steps=8, ridge=1e-3):
    """Logistic regression by Newton's method (with an intercept)."""
    data = [([1.0] + [x[c] for c in columns], y) for x, y in rows]
    d = len(columns) + 1
    w = [0.0] * d
    for _ in range(steps):
        grad = [0.0] * d
        hess = [[0.0] * d for _ in range(d)]
        for x, y in data:
            p = _p(w, x)
            r = p - y
            s = p * (1.0 - p)
            for i in range(d):
                grad[i] += r * x[i]
                si = s * x[i]
                row = hess[i]
                for j in range(i + 1):
                    row[j] += si * x[j]
        for i in range(d):
            grad[i] += ridge * w[i]
            hess[i][i] += ridge
            for j in range(i):
                hess[j][i] = hess[i][j]
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step)]
    return w


def _solve(a, b):
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [a - f * b for a, b in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def judge(w, rows, columns):
    loss = right = 0.0
    for x, y in rows:
        p = min(1 - 1e-9, max(1e-9, _p(w, [1.0] + [x[c] for c in columns])))
        loss -= math.log(p) if y else math.log(1.0 - p)
        right += (p > 0.5) == y
    return loss / len(rows), right / len(rows)


class ValuedBot:
    """One ply, like the greedy bot, but valued by a fitted model's odds of winning."""

    def __init__(self, seed, w, columns):
        self.rng = random.Random(seed)
        self.w = w
        self.columns = columns

    def choose(self, state):
        me = state.current_player()
        scored = []
        for action in state.legal_actions():
            state.apply(action)
            if state.is_terminal():
                value = 1.0 if state.returns()[me] > 0 else 0.0
            else:
                x = inputs(state, me)
                value = _p(self.w, [1.0] + [x[c] for c in self.columns])
            state.undo()
            scored.append((value, self.rng.random(), action))
        return max(scored)[2]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=int, default=1000, help="games to fit on")
    parser.add_argument("--test", type=int, default=300, help="games to judge on")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=0,
                        help="games of each model's one-ply bot against the greedy bot")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    train = positions(args.train, args.seed)
    test = positions(args.test, args.seed + 1)
    print(f"{len(train)} positions to fit on, {len(test)} to judge on "
          f"({time.perf_counter() - started:.0f} s)")
    every = list(range(len(train[0][0])))
    for name, columns in (("score", [0, 1]), ("features", every)):
        w = fit(train, columns)
        loss, right = judge(w, test, columns)
        print(f"{name:<9} log loss {loss:.4f}  right {right:.3f}  "
              f"weights {' '.join(f'{v:+.3f}' for v in w)}")
        if args.games:
            game = get_game("knockoff", players=2)
            played = time.perf_counter()
            wins, seconds, moves = against_greedy(
                game, lambda seed: ValuedBot(seed, w, columns), args.games, args.seed)
            report(f"one ply valued by '{name}'", game, args.games, wins, seconds, moves,
                   played)


if __name__ == "__main__":
    main()
