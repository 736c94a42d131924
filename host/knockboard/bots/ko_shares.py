"""A learnt value for K.O. positions where a seat is about to throw: each seat's share of
the win (the shares add up to 1), for 2, 3 and 4 players.

The same conditional logit as Knock-Off's three- and four-player shares
(`knockoff_shares.py`): every seat gets a utility from its own features against the field,
the same function for every seat, and the shares are the softmax of the utilities.  It is
fitted by `benchmarks/train_knockoff_shares.py --game ko` on positions of self-play games
labelled with the result (equal points share the win), one weights file per player count
(`ko_shares2.json`, `ko_shares3.json`, `ko_shares4.json`, each with its command); playing
needs no numerical library.  The review values K.O. by it (`review/estimator.py`).

The features of seat p ("me"), where seat `state.cur` is about to throw:

- its points, the points it keeps for certain (numbers no opponent holds any more), and
  the best other seat's of each;
- danger: the points it can expect to lose to the throw about to be made (none when it is
  its own), and to the throws of the others before its own (summed); threat: the points
  it can expect to knock out on its own next throw (`heuristics.ko_threat_matrix`);
- settled: +1 if it has won for certain, -1 if lost, else 0 (`heuristics`' K.O. rule);
- whether it is the seat about to throw, how many seats throw before it, whether it can
  still move at all, and how far the quiet-rounds end (KO-3) is: the share of the quiet
  turns used (0 without a limit).
"""

import os
from typing import Any, List

from .heuristics import _ko_settled, ko_threat_matrix
from .knockoff_shares import KnockoffSharesModel
from .value_model import loader

HERE = os.path.dirname(os.path.abspath(__file__))
WEIGHTS_FILES = {n: os.path.join(HERE, f"ko_shares{n}.json") for n in (2, 3, 4)}
FEATURE_NAMES = (
    "points", "kept", "best_other", "best_other_kept", "danger_now", "danger_later",
    "threat", "settled", "roller", "wait", "active", "quiet",
)


def feature_rows(state: Any) -> List[List[float]]:
    """FEATURE_NAMES of every seat where seat `state.cur` is about to throw."""
    n = state.game.num_players
    roller = state.cur
    points = state.points()
    cnt = state.cnt
    kept = [0.0] * n
    for s in range(n):
        for k in range(1, 7):
            if cnt[s * 7 + k] and not state.contested(s, k):
                kept[s] += (0, 3, 2, 1, 1, 2, 3)[k] * cnt[s * 7 + k]
    threats = ko_threat_matrix(state)
    limit = state.quiet_limit()
    quiet = state.quiet / limit if limit else 0.0
    rows = []
    for me in range(n):
        wait = (me - roller) % n
        others = [s for s in range(n) if s != me]
        now = 0.0 if me == roller else threats[roller][me]
        later = sum(threats[(roller + k) % n][me] for k in range(1, wait))
        rows.append([
            float(points[me]), kept[me], float(max(points[s] for s in others)),
            max(kept[s] for s in others), now, later, sum(threats[me]),
            float(_ko_settled(state, me, points)), 1.0 if me == roller else 0.0,
            float(wait), 1.0 if state.is_active(me) else 0.0, quiet,
        ])
    return rows


class KOSharesModel(KnockoffSharesModel):
    FEATURE_NAMES = FEATURE_NAMES
    TRAINER = "benchmarks/train_knockoff_shares.py --game ko"

    def rows(self, state: Any) -> List[List[float]]:
        return feature_rows(state)


_LOADERS = {n: loader(KOSharesModel, path) for n, path in WEIGHTS_FILES.items()}


def load_model(players: int) -> KOSharesModel:
    """The committed weights for a K.O. game of `players` (2 to 4) players."""
    if players not in _LOADERS:
        raise ValueError(f"no learnt K.O. shares for {players} players (2 to 4)")
    return _LOADERS[players]()


