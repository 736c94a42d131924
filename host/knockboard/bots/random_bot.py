import random
from typing import Any, Optional


class RandomBot:
    """Plays a uniformly random legal action: the baseline every other bot must beat."""

    name = "random"

    def __init__(self, seed: Optional[int] = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: Any) -> int:
        return self.rng.choice(state.legal_actions())
