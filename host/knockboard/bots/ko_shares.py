"""A learnt value for K.O. positions where a seat is about to throw: each seat's share of
the win (the shares add up to 1), for 2, 3 and 4 players.

The same conditional logit as Knock-Off's three- and four-player shares
(`knockoff_shares.py`): every seat gets a utility from its own features against the field,
the same function for every seat, and the shares are the softmax of the utilities.  It is
fitted by `benchmarks/train_knockoff_shares.py --game ko` on positions of self-play games
labelled with the result (equal points share the win), one weights file per player count
(`ko_shares2.json`, `ko_shares3.json`, `ko_shares4.json`, each with its command); three and
four players' then refitted to the review's own look-ahead
(`benchmarks/train_ko_shares_review.py`); playing needs no numerical library.  The review
values K.O. by it (`review/estimator.py`).

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

import math
import operator
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..games.ko.constants import POINTS
from .heuristics import ko_threat_matrix
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
    cnt = state.cnt
    held = [0] * 7
    for s in range(n):
        for k in range(1, 7):
            held[k] += cnt[s * 7 + k]
    points = [0.0] * n
    kept = [0.0] * n                # numbers no opponent holds: those points are safe
    active = [False] * n            # a piece that can still move (`state.is_active`)
    for s in range(n):
        base = s * 7
        for k in range(1, 7):
            mine = cnt[base + k]
            if mine:
                points[s] += POINTS[k] * mine
                if held[k] > mine:
                    active[s] = True
                else:
                    kept[s] += POINTS[k] * mine
    threats = ko_threat_matrix(state)
    rounds = state.game.options["quiet_rounds"]
    limit = rounds * sum(active)                    # as `state.quiet_limit()`
    quiet = state.quiet / limit if limit else 0.0
    rows = []
    for me in range(n):
        wait = (me - roller) % n
        best = max([points[s] for s in range(n) if s != me])
        best_kept = max([kept[s] for s in range(n) if s != me])
        # `heuristics._ko_settled`: won for certain, lost for certain, or neither
        settled = 1.0 if kept[me] > best else -1.0 if points[me] < best_kept else 0.0
        later = 0.0
        for k in range(1, wait):
            later += threats[(roller + k) % n][me]
        rows.append([
            points[me], kept[me], best, best_kept,
            0.0 if me == roller else threats[roller][me], later,
            sum(threats[me]), settled, 1.0 if me == roller else 0.0, float(wait),
            1.0 if active[me] else 0.0, quiet,
        ])
    return rows


class KOSharesModel(KnockoffSharesModel):
    FEATURE_NAMES = FEATURE_NAMES
    TRAINER = "benchmarks/train_knockoff_shares.py --game ko"

    def __init__(self, data: Any) -> None:
        super().__init__(data)
        # The standardisation folded into the first layer's weights (the review values
        # some 10^5 positions a game): unit j's input is b_j + sum_i x_i * w_ij / s_i
        # - sum_i m_i * w_ij / s_i, the same sum in another order.
        rows = self.hidden or [self.output[:-1] + [0.0]]
        self._folded = [([w / s for w, s in zip(row, self.scale)],
                         row[-1] - sum(w * m / s for w, m, s in zip(row, self.mean, self.scale)))
                        for row in rows]
        self._utilities: Dict[Tuple[float, ...], float] = {}

    def logit(self, x: Sequence[float]) -> float:
        """The utility of a seat's features, each row's kept: the review meets the same
        rows again and again (a 131-step game: 247 048 rows, 15 828 of them distinct), so at
        most 20 000 are kept, about a game's."""
        key = tuple(x)
        found = self._utilities.get(key)
        if found is None:
            if len(self._utilities) >= 20_000:
                self._utilities.clear()
            found = self._utilities[key] = self._logit(x)
        return found

    def _logit(self, x: Sequence[float]) -> float:
        out = self.output[-1]
        if not self.hidden:
            weights, bias = self._folded[0]
            return out + bias + sum(map(operator.mul, x, weights))
        for (weights, bias), v in zip(self._folded, self.output):
            out += v * math.tanh(bias + sum(map(operator.mul, x, weights)))
        return out

    def rows(self, state: Any) -> List[List[float]]:
        return feature_rows(state)


_LOADERS = {n: loader(KOSharesModel, path) for n, path in WEIGHTS_FILES.items()}


def load_model(players: int, path: Optional[str] = None) -> KOSharesModel:
    """The committed weights for a K.O. game of `players` (2 to 4) players, or the weights
    in `path` (a trainer's candidate, for `benchmarks/review_slack.py --shares`)."""
    if players not in _LOADERS:
        raise ValueError(f"no learnt K.O. shares for {players} players (2, 3 or 4)")
    model = _LOADERS[players](path or WEIGHTS_FILES[players])    # the committed: kept
    if model.players != players:
        raise ValueError(f"these shares were fitted for {model.players} players, "
                         f"not {players}")
    return model


