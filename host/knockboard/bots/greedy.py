import random
from typing import Any, Callable, List, Optional

from .heuristics import score


class GreedyBot:
    """One ply: the action with the best expected score, chance outcomes that follow it
    averaged with their probabilities; ties broken at random (seeded)."""

    name = "greedy"

    def __init__(self, seed: Optional[int] = None,
                 score_function: Optional[Callable[[Any, int], float]] = None) -> None:
        self.rng = random.Random(seed)
        # Another score than the game's own (experiments screening score variants).
        self.score = score_function or score

    def choose(self, state: Any) -> int:
        return self.rng.choice(best_actions(state, self.score))


def best_actions(state: Any, score_function: Callable[[Any, int], float] = score) -> List[int]:
    """The actions the greedy bot picks among: those tied for the best expected score."""
    player = state.current_player()
    best: List[int] = []
    best_value = None
    for action in state.legal_actions():
        state.apply(action)
        value = expected_score(state, player, score_function)
        state.undo()
        if best_value is None or value > best_value + 1e-9:
            best, best_value = [action], value
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    return best


def expected_score(state: Any, player: int,
                   score_function: Callable[[Any, int], float] = score) -> float:
    """The heuristic score of `player` after a move; when a chance step follows the move
    (a reroll, a throw's dice), its outcomes' scores averaged with their probabilities."""
    if not state.is_chance_node():
        return score_function(state, player)
    total = 0.0
    for outcome, probability in state.chance_outcomes():
        state.apply(outcome)
        total += probability * score_function(state, player)
        state.undo()
    return total
