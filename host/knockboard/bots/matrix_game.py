"""Two-by-two zero-sum matrix games, solved exactly.

`solve_2x2(a)`: the row player gets a[i][j] when it plays row i and the column player column
j; the row player maximises, the column player minimises.  The result is an equilibrium
(row strategy, column strategy, value), each strategy the probabilities of its two options.
The arithmetic is that of the entries: with `fractions.Fraction` entries every figure is
exact.

- **A saddle point** (max over rows of the row minimum equals min over columns of the column
  maximum): pure strategies.  When a player has two optimal pure options, the one that does
  better against the other player's *other* option is taken (a refinement that costs nothing
  against a perfect opponent and gains against one that errs).
- **No saddle point**: the unique mixed equilibrium, each player making the other
  indifferent: row 0 with probability (a11 - a10) / D, column 0 with (a11 - a01) / D, value
  (a00 a11 - a01 a10) / D, where D = a00 - a01 - a10 + a11.

Dodgeball's catch or dodge is the game this is for (`dodgeball_search`): see
`dodgeball_score.throw_matrix`.
"""

from __future__ import annotations

import random
from typing import Any, Sequence, Tuple

Strategy = Tuple[Any, Any]


def solve_2x2(a: Sequence[Sequence[Any]]) -> Tuple[Strategy, Strategy, Any]:
    """(row strategy, column strategy, value) of an equilibrium; see the module docstring.

    ValueError unless `a` is 2 x 2."""
    if len(a) != 2 or any(len(row) != 2 for row in a):
        raise ValueError("a 2x2 matrix game needs two rows of two payoffs")
    row_floor = [min(a[i]) for i in (0, 1)]
    col_ceiling = [max(a[0][j], a[1][j]) for j in (0, 1)]
    maximin, minimax = max(row_floor), min(col_ceiling)
    one, zero = a[0][0] - a[0][0] + 1, a[0][0] - a[0][0]     # 1 and 0 in the entries' type
    if maximin == minimax:
        rows = [i for i in (0, 1) if row_floor[i] == maximin]
        cols = [j for j in (0, 1) if col_ceiling[j] == minimax]
        # Of two optimal options, the one better against the opponent's other option.
        col = min(cols, key=lambda j: (a[rows[0]][j], a[1 - rows[0]][j]))
        row = max(rows, key=lambda i: (a[i][col], a[i][1 - col]))
        return ((one, zero) if row == 0 else (zero, one),
                (one, zero) if col == 0 else (zero, one), maximin)
    d = a[0][0] - a[0][1] - a[1][0] + a[1][1]
    p = (a[1][1] - a[1][0]) / d
    q = (a[1][1] - a[0][1]) / d
    value = (a[0][0] * a[1][1] - a[0][1] * a[1][0]) / d
    return (p, one - p), (q, one - q), value


def sample(strategy: Strategy, rng: random.Random) -> int:
    """0 or 1, drawn with the strategy's probabilities from `rng` (one `random()` call)."""
    return 0 if rng.random() < strategy[0] else 1
