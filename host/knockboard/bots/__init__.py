"""Computer players.  A bot is an object with `choose(state) -> action` for a decision node
(whoever's seat `current_player()` names, also a non-active player's mid-turn decision);
chance nodes are never a bot's business (the caller samples or reads physical dice).

Three bots play every registered game: `random` (uniform), `greedy` (one ply, the game's
heuristic in `heuristics.py`) and `strong` (tree search with chance nodes under a time or
iteration budget, `strong.py`).  `suggest(state)` is the strong bot's advice for a position,
the call the board's hint uses."""

from typing import Any, Optional, Union

from .greedy import GreedyBot
from .random_bot import RandomBot
from .strong import DEFAULT_BUDGET, StrongBot

BOTS: dict = {"random": RandomBot, "greedy": GreedyBot, "strong": StrongBot}
BOT_NAMES = tuple(BOTS)
Bot = Union[RandomBot, GreedyBot, StrongBot]


def make_bot(name: str, seed: Optional[int] = None, budget: Optional[float] = DEFAULT_BUDGET,
             iterations: Optional[int] = None) -> Bot:
    """A bot by name; `budget` (seconds per move) and `iterations` apply to `strong`."""
    try:
        cls = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOT_NAMES)})") from None
    if cls is StrongBot:
        return StrongBot(seed=seed, budget=budget, iterations=iterations)
    return cls(seed=seed)


def suggest(state: Any, budget: Optional[float] = DEFAULT_BUDGET,
            iterations: Optional[int] = None, seed: Optional[int] = 0) -> int:
    """The strong bot's suggested action for the player to act in `state` (not changed).

    Raises ValueError at a chance node or at the end of the game, where nobody decides."""
    if state.is_terminal() or state.is_chance_node():
        raise ValueError("no decision to suggest: " +
                         ("the game is over" if state.is_terminal() else "a die roll is due"))
    return StrongBot(seed=seed, budget=budget, iterations=iterations).suggest(state)


__all__ = ["BOTS", "BOT_NAMES", "GreedyBot", "RandomBot", "StrongBot", "make_bot", "suggest"]
