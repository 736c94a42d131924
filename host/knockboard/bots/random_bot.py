import random


class RandomBot:
    """Plays a uniformly random legal action: the baseline every other bot must beat."""

    name = "random"

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def choose(self, state):
        return self.rng.choice(state.legal_actions())
