"""Computer players.  A bot is an object with `choose(state) -> action` for a decision node;
chance nodes are never a bot's business (the caller samples or reads physical dice)."""

from .greedy import GreedyBot
from .random_bot import RandomBot

__all__ = ["GreedyBot", "RandomBot"]
