"""Levels: the computer opponents as a person picks them, by how hard they play, not by
algorithm (`knockboard play --bots 2=easy`, the board's seat menu).

- `easy`: the greedy bot that plays a uniformly random legal move instead, half the time
  (`SLIP`): it sees a good move but often does not take it;
- `fair`: the greedy bot (one ply, the game's score);
- `hard`: the strong bot (tree search with the dice modelled) at the board's playing budget.

The bots themselves (`random`, `greedy`, `strong`) stay valid seat kinds: saved games name
them, and `--bots 2=random` was documented before the levels.  `docs/bots.md` has the
levels' win rates against each other (`benchmarks/levels.py`)."""

import random
from typing import Any, Optional

from .dodgeball_search import PLAY_ITERATIONS as DODGEBALL_ITERATIONS
from .greedy import GreedyBot
from .strong import StrongBot

LEVELS = ("easy", "fair", "hard")      # weakest first: the order the seat menu offers them
# the bot each level is, where it is one of the bots as it is (easy is a bot of its own)
LEVEL_BOTS = {"fair": "greedy", "hard": "strong"}
SLIP = 0.5
# At the board the strong bot searches a fixed number of iterations, so that a resumed game
# goes on exactly as it would have; the time cap only keeps a slow machine responsive (the
# board gives up on a host silent for 3 s).
PLAY_ITERATIONS = 600
PLAY_TIME_CAP_S = 2.5
# Games whose own search counts its iterations otherwise: Dodgeball's turn search counts
# scored positions (about 30 ms each), so 600 would hit the time cap and depend on the
# machine; it plays at its own budget, the one its arena figures were measured at.
GAME_ITERATIONS = {"dodgeball": DODGEBALL_ITERATIONS}


def playing_iterations(game_name: Optional[str]) -> int:
    """The strong bot's iterations a move at the board (and so the `hard` level's)."""
    return GAME_ITERATIONS.get(game_name or "", PLAY_ITERATIONS)


class EasyBot:
    """The greedy bot that, with chance SLIP a decision, plays a random legal move instead
    (seeded: the same seed and positions give the same moves)."""

    name = "easy"

    def __init__(self, seed: Optional[int] = None) -> None:
        self.rng = random.Random(seed)
        self.greedy = GreedyBot(seed=self.rng.getrandbits(62))

    def choose(self, state: Any) -> int:
        if self.rng.random() < SLIP:
            return self.rng.choice(state.legal_actions())
        return self.greedy.choose(state)


def make_level(name: str, seed: Optional[int] = None, game_name: Optional[str] = None,
               time_cap: float = PLAY_TIME_CAP_S) -> Any:
    """The bot a level plays with in game `game_name`; ValueError for an unknown level."""
    if name == "easy":
        return EasyBot(seed=seed)
    if name == "fair":
        return GreedyBot(seed=seed)
    if name == "hard":
        return StrongBot(seed=seed, budget=time_cap, iterations=playing_iterations(game_name))
    raise ValueError(f"unknown level {name!r} (levels: {', '.join(LEVELS)})")
