r"""A bot-strength experiment: does a turn-deep expectimax beat the greedy bot where the
strong bot's tree search does not (K.O. and Knock-Off)?

The lookahead bot tried here, not shipped (it did no better than `strong`; figures in
benchmarks/arena.md): for the player to act it lists every way to finish its own turn
(all its decisions until a chance step or another player), takes the WIDTH best of them by
the greedy bot's one-ply expectation, and values each exactly over the next chance step's
outcomes, with whoever acts after it playing the greedy bot's choice (by `score`) until the
next chance step, where the heuristic score decides.  So it sees the opponent's actual
best reply to every roll instead of the score's threat estimate.

    python3 benchmarks/experiments/lookahead.py knockoff --games 200 --seed 1 --players 2
    python3 benchmarks/experiments/lookahead.py ko --games 40 --seed 1 --players 2 \
        --option quick_start=1

Games are played like `knockboard arena`'s (seat rotation, shared dice per block, the
arena's seeds); the printout is the lookahead seat's win rate with its 95% interval.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "host"))

from knockboard.arena import _seed, dice_seed, play_game, wilson_interval  # noqa: E402
from knockboard.bots import make_bot  # noqa: E402
from knockboard.bots.greedy import expected_score  # noqa: E402
from knockboard.bots.heuristics import score  # noqa: E402
from knockboard.games import get_game  # noqa: E402

LEAF_CAP = 400        # turn completions listed at most (K.O. set-up has many)
FOLLOW_CAP = 12       # decisions played by the greedy model before the score decides


class LookaheadBot:
    name = "lookahead"

    def __init__(self, seed=None, width=8):
        self.rng = random.Random(seed)
        self.width = width

    def choose(self, state):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        leaves = []
        self._turn_ends(state, me, [], leaves)
        leaves.sort(key=lambda leaf: (-leaf[0], leaf[1]))
        best, best_value = None, None
        for _, _, path in leaves[:self.width]:
            for action in path:
                state.apply(action)
            value = self._after_turn(state, me)
            for _ in path:
                state.undo()
            if best_value is None or value > best_value:
                best, best_value = path[0], value
        return best

    def _turn_ends(self, state, me, path, leaves):
        actions = state.legal_actions()
        self.rng.shuffle(actions)
        for action in actions:
            state.apply(action)
            path.append(action)
            if (not state.is_terminal() and not state.is_chance_node()
                    and state.current_player() == me and len(leaves) < LEAF_CAP):
                self._turn_ends(state, me, path, leaves)
            else:
                leaves.append((expected_score(state, me), len(leaves), list(path)))
            path.pop()
            state.undo()

    def _after_turn(self, state, me):
        if state.is_terminal() or not state.is_chance_node():
            return self._greedy_until_chance(state, me)
        total = 0.0
        for outcome, probability in state.chance_outcomes():
            state.apply(outcome)
            total += probability * self._greedy_until_chance(state, me)
            state.undo()
        return total

    def _greedy_until_chance(self, state, me):
        applied = 0
        while (applied < FOLLOW_CAP and not state.is_terminal()
               and not state.is_chance_node()):
            player = state.current_player()
            best, best_value = None, None
            for action in state.legal_actions():
                state.apply(action)
                value = score(state, player)
                state.undo()
                if best_value is None or value > best_value:
                    best, best_value = action, value
            state.apply(best)
            applied += 1
        value = score(state, me)
        for _ in range(applied):
            state.undo()
        return value


def against_greedy(game, make_searcher, games, seed):
    """Play `games` arena-style games (seat rotation, shared dice per block, the arena's
    seeds) of one searcher, made by make_searcher(seed), against greedy bots in every other
    seat.  Returns (the searcher's wins, its seconds, its moves)."""
    n = game.num_players
    wins = 0.0
    seconds = moves = 0
    for g in range(games):
        rotation = g % n
        dice = random.Random(dice_seed(seed, g, n))
        seat = rotation                       # the searcher is listed first
        bots = [make_searcher(_seed(seed, g, 2, 0)) if s == seat
                else make_bot("greedy", seed=_seed(seed, g, 2, (s - rotation) % n))
                for s in range(n)]
        shares, _, _, spent, made = play_game(game, bots, dice)
        wins += shares[seat] if shares else 0.0
        seconds += spent[seat]
        moves += made[seat]
    return wins, seconds, moves


def report(label, game, games, wins, seconds, moves, started):
    n = game.num_players
    low, high = wilson_interval(wins, games)
    print(f"{game.name} {n}p {label} v {n - 1} greedy: "
          f"{wins:g}/{games} = {wins / games:.3f} [{low:.3f}, {high:.3f}], "
          f"{1000 * seconds / max(1, moves):.1f} ms/move, "
          f"{time.perf_counter() - started:.0f} s")


def common_arguments(description, games=100):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("game", choices=("ko", "knockoff"))
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    return parser


def game_of(args):
    options = dict(item.split("=", 1) for item in args.option)
    return get_game(args.game, players=args.players, **options)


def main(argv=None):
    parser = common_arguments(__doc__.split("\n\n")[0])
    parser.add_argument("--width", type=int, default=8)
    args = parser.parse_args(argv)
    game = game_of(args)
    started = time.perf_counter()
    wins, seconds, moves = against_greedy(
        game, lambda seed: LookaheadBot(seed, args.width), args.games, args.seed)
    report(f"lookahead(width {args.width})", game, args.games, wins, seconds, moves, started)


if __name__ == "__main__":
    main()
