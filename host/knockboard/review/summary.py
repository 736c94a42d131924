"""A review summed per player: what the player's own moves cost, what the dice gave, what
the others' moves gave, and the result with the luck taken out."""

from dataclasses import dataclass
from typing import List

from .analysis import Decision, Review, Roll


@dataclass
class PlayerSummary:
    player: int
    decisions: int
    error: float            # the player's own errors, summed (>= 0)
    luck: float             # the rolls' luck for this player, summed
    gifts: float            # what the other players' moves changed of this player's chance
    start: float            # the chance to win at the start
    result: float           # the share of the win at the end
    drift: float            # the estimator's inconsistency summed along the game
    marks: dict             # mark -> how many of the player's moves got it

    @property
    def luck_adjusted(self) -> float:
        """The result with the luck taken out: what it would have been had every roll been
        an average one (GNU Backgammon's luck-adjusted result)."""
        return self.result - self.luck

    @property
    def unexplained(self) -> float:
        """The result minus start + luck - error + gifts: the sum check's slack, which is
        the estimator's inconsistency (`drift`)."""
        return self.result - (self.start + self.luck - self.error + self.gifts)


def summarise(review: Review) -> List[PlayerSummary]:
    n = review.players
    drift = review.drift()
    out = []
    for p in range(n):
        error = luck = gifts = 0.0
        decisions = 0
        marks: dict = {}
        for step in review.steps:
            if isinstance(step, Roll):
                luck += step.luck[p]
            elif isinstance(step, Decision):
                if step.player == p:
                    decisions += 1
                    error += step.error
                    if step.mark:
                        marks[step.mark] = marks.get(step.mark, 0) + 1
                else:
                    gifts += step.after[p] - step.before[p]
        out.append(PlayerSummary(p, decisions, error, luck, gifts, review.start[p],
                                 review.result[p], sum(d[p] for d in drift), marks))
    return out
