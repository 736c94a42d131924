"""A learnt value for three- and four-player Knock-Off positions between turns: each
player's share of the win (the shares add up to 1).

Two-player Knock-Off's value (`knockoff_value.py`) is one chance, the roller's; with more
players it is a chance per player.  This model is a conditional logit: every player gets a
utility from its own features against the field, the same function for every seat (the
shared `value_model.ValueModel`: standardised features, one layer of tanh units or none),
and the shares are the softmax of the utilities.  It is fitted by
`benchmarks/train_knockoff_shares.py` on positions of self-play games labelled with who
won (the multinomial log loss), one weights file per player count (`knockoff_shares3.json`,
`knockoff_shares4.json`, each with the command that made it); playing needs no numerical
library.

The features of player p ("me"), in a position where somebody is about to roll:

- its climb (the price its three highest pawns have paid, as `knockoff_value`), its fourth
  pawn's, its pawns on the top row and at home, and on each level below the top;
- danger: the climb it can expect to lose to the throw about to be made (none when it is
  its own), and to the later throws of the others before its own (summed);
- threat: the climb the others can expect to lose to its own next throw (summed);
- the hand-made score (`heuristics.knockoff`: its progress, risk-weighted, minus the best
  other's), which the model learns how far to trust;
- whether it is the player about to roll, and how many turns it waits before it rolls.
"""

import math
import os
from typing import Any, List

from .heuristics import knockoff as knockoff_score, win_shares
from .knockoff_value import _climbs, _danger, _levels
from .value_model import ValueModel, loader

HERE = os.path.dirname(os.path.abspath(__file__))
WEIGHTS_FILES = {n: os.path.join(HERE, f"knockoff_shares{n}.json") for n in (3, 4)}
FEATURE_NAMES = (
    "climb", "fourth", "top", "home", "danger_now", "danger_later", "threat", "score",
    "roller", "wait",
) + tuple(f"on_{level}" for level in range(1, 6))


def features(state: Any, me: int) -> List[float]:
    """FEATURE_NAMES of player `me` where player `state.player` is about to roll."""
    n = state.game.num_players
    roller = state.player
    wait = (me - roller) % n
    climbs = _climbs(state, me)
    now = 0.0 if me == roller else _danger(state, me, roller)
    # the others who throw after the roller and before me
    later = sum(_danger(state, me, (roller + k) % n) for k in range(1, wait))
    threat = sum(_danger(state, q, me) for q in range(n) if q != me)
    return [
        float(sum(climbs[:3])), float(climbs[3]), float(state.top[me]),
        float(state.home[me]), now, later, threat, knockoff_score(state, me),
        1.0 if me == roller else 0.0, float(wait),
    ] + _levels(state, me)


def feature_rows(state: Any) -> List[List[float]]:
    """Every player's FEATURE_NAMES (what the training fits, `train_knockoff_shares.py`)."""
    return [features(state, p) for p in range(state.game.num_players)]


class KnockoffSharesModel(ValueModel):
    FEATURE_NAMES = FEATURE_NAMES
    TRAINER = "benchmarks/train_knockoff_shares.py"

    def __init__(self, data: Any) -> None:
        super().__init__(data)
        self.players: int = data["players"]

    def shares(self, state: Any) -> List[float]:
        """Each player's share of the win: a finished game's result, or where somebody is
        about to roll the softmax of the players' utilities."""
        if state.is_terminal():
            return win_shares(state.returns())
        n = state.game.num_players
        if n != self.players:
            raise ValueError(f"these shares were fitted for {self.players} players, "
                             f"not {n}")
        u = [self.logit(x) for x in self.rows(state)]
        top = max(u)
        w = [math.exp(x - top) for x in u]
        total = sum(w)
        return [x / total for x in w]

    def rows(self, state: Any) -> List[List[float]]:
        """Every player's features (K.O.'s shares, `ko_shares.py`, have their own)."""
        return feature_rows(state)


_LOADERS = {n: loader(KnockoffSharesModel, path) for n, path in WEIGHTS_FILES.items()}


def load_model(players: int) -> KnockoffSharesModel:
    """The committed weights for a game of `players` (3 or 4) players."""
    if players not in _LOADERS:
        raise ValueError(f"no learnt shares for {players} players (3 or 4)")
    return _LOADERS[players]()
