"""A learnt value for two-player Knock-Off positions between turns: the chance that the
player about to roll wins.

The strong bot's Knock-Off search (`knockoff_search.py`) ends its lines where a turn has
ended and a player is about to roll; this module values those positions.  The features are
what the rules make matter, computed in pure Python from the engine's lists, and the model
is the shared `value_model.ValueModel` (standardised features, one layer of tanh units or
none, a logistic output), fitted by `benchmarks/train_knockoff.py` on
positions of self-play games labelled with who won.  The weights are data
(`knockoff_value.json`, with the command that made them); playing needs no numerical
library.

The features, for the player about to roll ("me") and the other ("them"), each side's:

- climb: the price its three highest pawns have paid (level L costs 1 + ... + L from home,
  so three pawns on top are 63), and its fourth pawn's;
- pawns on the top row and pawns at home;
- danger: the climb it can expect to lose to the other's next throw (each pawn's price
  times the chance that a throw pays a move from one of the other's pawns or home base onto
  it, the same chance the hand-made score uses), mine after my own turn, theirs now;
- pawns on each level below the top (how far each still has to go, which the climb sums
  up);
- the hand-made score (`heuristics.knockoff`) from my side: the model learns how far to
  trust it.
"""

import os
from typing import Any, List

from .heuristics import _KOF_PAYS, knockoff as knockoff_score
from .value_model import ValueModel, loader

WEIGHTS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "knockoff_value.json")
FEATURE_NAMES = (
    "my_climb", "their_climb", "my_fourth", "their_fourth", "my_top", "their_top",
    "my_home", "their_home", "my_danger", "their_danger", "score",
) + tuple(f"{who}_on_{level}" for who in ("my", "their") for level in range(1, 6))


def _climbs(state: Any, p: int) -> List[int]:
    """The price paid by each of p's pawns on the board, highest first, four entries."""
    level = state.game.board.level
    climbed = sorted((level[x] * (level[x] + 1) // 2 for x in state.pos[p]), reverse=True)
    return climbed + [0] * (4 - len(climbed))


def _danger(state: Any, victim: int, attacker: int) -> float:
    """The climb `victim` can expect to lose to `attacker`'s next throw."""
    game = state.game
    board = game.board
    level = board.level
    cost = board.cost
    sources = list(state.pos[attacker]) + ([game.homes[attacker]] if state.home[attacker]
                                           else [])
    total = 0.0
    for x in state.pos[victim]:
        safe = 1.0
        for src in sources:
            c = cost[src].get(x)
            if c is not None:
                safe *= 1.0 - _KOF_PAYS[c]
        total += (1.0 - safe) * level[x] * (level[x] + 1) // 2
    return total


def features(state: Any, me: int) -> List[float]:
    """FEATURE_NAMES of a two-player position, for player `me` about to roll."""
    them = 1 - me
    mine, theirs = _climbs(state, me), _climbs(state, them)
    return [
        float(sum(mine[:3])), float(sum(theirs[:3])), float(mine[3]), float(theirs[3]),
        float(state.top[me]), float(state.top[them]),
        float(state.home[me]), float(state.home[them]),
        _danger(state, me, them), _danger(state, them, me),
        knockoff_score(state, me),
    ] + _levels(state, me) + _levels(state, them)


def _levels(state: Any, p: int) -> List[float]:
    """p's pawns on each level below the top."""
    level = state.game.board.level
    counts = [0.0] * (state.game.board.top - 1)
    for x in state.pos[p]:
        if level[x] < len(counts) + 1:
            counts[level[x] - 1] += 1.0
    return counts


class KnockoffValueModel(ValueModel):
    FEATURE_NAMES = FEATURE_NAMES
    TRAINER = "benchmarks/train_knockoff.py"

    def value(self, state: Any, player: int) -> float:
        """The chance that `player` wins a two-player game from `state`: a finished game,
        or a position where somebody is about to roll."""
        if state.is_terminal():
            return 1.0 if state.player == player else 0.0
        roller = state.player
        p = self.win_chance(features(state, roller))
        return p if roller == player else 1.0 - p


load_model = loader(KnockoffValueModel, WEIGHTS_FILE)
