"""After the game: how much was skill and how much was the dice, move by move.

A saved game is replayed and every step is valued by one estimator per game
(`estimator.py`: the strong bot's search at a stated budget, the learnt value where the game
has one): each decision's error against the best move the analysis finds, each roll's luck
against the rolls that could have come (`analysis.py`), marked at documented thresholds
(`marks.py`), summed per player (`summary.py`) and written for people (`text.py`).
`docs/review.md` has the definitions and the identity they add up to."""

from .analysis import Decision, Review, ReviewError, Roll, review_record
from .estimator import DEFAULT_ITERATIONS, Estimator, default_iterations, make_estimator
from .summary import PlayerSummary, summarise

__all__ = ["DEFAULT_ITERATIONS", "Decision", "Estimator", "PlayerSummary", "Review",
           "ReviewError", "Roll", "default_iterations", "make_estimator", "review_record",
           "summarise"]
