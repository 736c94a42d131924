"""A learnt value for Dodgeball positions at a turn's end: the chance that a team wins.

The strong bot's turn search (`dodgeball_search.py`) ends every line at the end of its own
turn, where the other team is about to act with dice everyone can see and the searching
team's next dice are not rolled yet.  This module values exactly those positions: features
the rules make matter, computed in pure Python from the engine's lists, and a tiny model
(a logistic output, on the features directly or on one layer of tanh units) whose weights
were fitted by `benchmarks/train_dodgeball.py` on positions of self-play games, labelled
with who won.  The weights are data (`dodgeball_value.json`, with the command that made
them: the shipped ones are a linear model of a second round of self-play, the strong bot
with the first round's value against the greedy bot); playing needs no numerical library.

The features, for the team whose turn just ended ("me") against the team to act ("them"):

- pawns: the difference, the lead (difference over the sum) and the sum (tempo: few pawns
  left make every throw decide more);
- balls: carriers per team, loose balls on each half (nearer the own free pawns is worth
  more), starting balls each team is nearer to;
- next turn: the throws their known dice allow at my carriers (which must dodge) and at my
  other pawns, in expected pawns as the score counts them (`dodgeball_score`), and how many
  of my pawns stand within one die of one of their carriers;
- the turn after: the throws my carriers may make with dice not rolled yet, and theirs at
  mine beyond their known dice;
- the hand-made score itself (`dodgeball_score.score`), which sums much of the above with
  guessed weights: the model learns how far to trust it.
"""

import os
from typing import Any, List, Sequence

from ..games.dodgeball.board import DIST, HALF
from .dodgeball_score import (REACH, REACH_CARRIER, REACH_CATCHER, _balls, _throwers,
                              _throws_known, _throws_later, pawns_and_free, score)
from .value_model import ValueModel, loader

HERE = os.path.dirname(os.path.abspath(__file__))
WEIGHTS_FILE = os.path.join(HERE, "dodgeball_value.json")
# The review's value (`review/estimator.py`): the same features, refitted to the review's own
# look-ahead by `benchmarks/train_dodgeball_review.py` (its command is in the file), so that
# a turn's end is worth about what the review's search of the next turn finds; the strong
# bot keeps WEIGHTS_FILE, since with the refit it won no more against the greedy bot in the
# arena (190 of 400 against 209: docs/review.md).
REVIEW_WEIGHTS_FILE = os.path.join(HERE, "dodgeball_review_value.json")
FEATURE_NAMES = (
    "pawn_difference", "lead", "pawns_left",
    "my_carriers", "their_carriers", "my_loose", "their_loose", "my_start", "their_start",
    "their_throws_at_carriers", "their_throws_at_others", "mine_in_their_carriers_reach",
    "my_throws_later", "their_throws_later", "score",
)


def turn_over(state: Any) -> bool:
    """Whether the position is one this value knows: the acting team has finished its turn
    (it is rolling its next dice) and no throw is in the air."""
    if state.stage != "turn" or state.throw is not None:
        return False
    dice, spent = state.dice_held()
    active = state.active
    return len(dice[active]) + spent[active] < 3 and len(dice[1 - active]) == 3


def features(state: Any) -> List[float]:
    """FEATURE_NAMES of a `turn_over` position, for the team that has just finished."""
    board, carry, loose, start, npawns = state.squares()
    me = state.active
    them = 1 - me
    their_dice = state.dice_held()[0][them]
    mine_n, theirs_n = npawns[me], npawns[them]
    pawns, free = pawns_and_free(board, carry)
    carriers = [[s for s in pawns[t] if carry[s]] for t in (0, 1)]
    loose_near = [_loose_near(t, loose, free[t]) for t in (0, 1)]
    start_near = [_balls(t, board, [False] * 64, [0] * 64, start, pawns[t], free[t],
                         free[1 - t]) for t in (0, 1)]
    throwers = [_throwers(t, board, carry, loose, start, pawns[t], free[t]) for t in (0, 1)]
    mine_carrying = carriers[me]
    mine_free = free[me]
    at_carriers = _throws_known(them, throwers[them], mine_carrying, carry, their_dice)
    at_others = _throws_known(them, throwers[them], mine_free, carry, their_dice)
    in_reach = 0
    for s in pawns[me]:
        if any(REACH[them][c][s][0] <= 6 and REACH[them][c][s][0] <= max(their_dice, default=0)
               for c in carriers[them]):
            in_reach += 1
    return [
        float(mine_n - theirs_n),
        (mine_n - theirs_n) / max(mine_n + theirs_n, 1),
        float(mine_n + theirs_n),
        float(len(carriers[me])), float(len(carriers[them])),
        loose_near[me], loose_near[them], start_near[me], start_near[them],
        at_carriers / REACH_CARRIER, at_others / REACH_CATCHER, float(in_reach),
        _throws_later(me, throwers[me], pawns[them], carry),
        _throws_later(them, throwers[them], pawns[me], carry),
        score(state, me),
    ]


def _loose_near(team: int, loose: Sequence[int], free: Sequence[int]) -> float:
    """Loose balls on the team's half, each by how near its nearest free pawn is (1 at its
    feet, 0 eight squares off or with no free pawn)."""
    total = 0.0
    if not free:
        return total
    for s in HALF[team]:
        if loose[s]:
            total += loose[s] * (1.0 - min(DIST[f][s] for f in free) / 8.0)
    return total


class DodgeballValueModel(ValueModel):
    FEATURE_NAMES = FEATURE_NAMES
    TRAINER = "benchmarks/train_dodgeball.py"

    def value(self, state: Any, team: int) -> float:
        """The chance that `team` wins from a `turn_over` position (or a finished game)."""
        win = state.winner()
        if win is not None:
            return 1.0 if win == team else 0.0
        p = self.win_chance(features(state))
        return p if team == state.active else 1.0 - p


load_model = loader(DodgeballValueModel, WEIGHTS_FILE)
load_review_model = loader(DodgeballValueModel, REVIEW_WEIGHTS_FILE)
