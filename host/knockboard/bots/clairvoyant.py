"""The clairvoyant player: the strong bot's search with the dice known in advance.

For the arena only (`knockboard arena --bots clairvoyant,greedy`); it is not in `BOTS`, so
no game, hint or session can offer it to a person.  Its win rate against a bot is the
ceiling of that pairing: no skill can win more than a player that knows every roll to come
and searches as well as the strong bot.

How it sees the dice: the arena draws every chance outcome with one `random()` call of its
dice stream (`games.sample_chance`), so the k-th chance step after the present position is
decided by the stream's k-th next number, whatever the moves in between.  Before each
search the bot copies the stream (`random.Random.getstate`, nothing is consumed) and reads
`LOOKAHEAD` numbers ahead; in the search a chance step reached after k others on its path
takes the outcome that the k-th number picks.  So chance nodes are resolved: each has the
one child the dice will really give.  Past `LOOKAHEAD` chance steps on a path (or with no
stream given, outside the arena) it falls back to the strong bot's expectation.

Dodgeball is searched by the strong bot's whole-turn search (`dodgeball_search.py`) with
the same known rolls: a throw's two dice, the dice rolled at the end of a turn, and the
declaration (catch or dodge) made knowing how the dice fall.
"""

from __future__ import annotations

import random
from typing import Any, List, Optional, Sequence, Tuple

from .strong import DEFAULT_BUDGET, StrongBot

# Chance steps read ahead: a K.O. or Knock-Off turn has 2, a Dodgeball turn 3 and 2 for
# each throw, so 64 covers more than any search here reaches.
LOOKAHEAD = 64


def outcome_for(outcomes: Sequence[Tuple[Any, float]], x: float) -> Any:
    """The outcome that `games.sample_chance` picks with the number `x` in [0, 1)."""
    for action, p in outcomes:
        x -= p
        if x < 0:
            return action
    return outcomes[-1][0]


class ClairvoyantBot(StrongBot):
    """StrongBot whose chance nodes are resolved by the arena's dice stream (read ahead,
    never consumed); see the module docstring."""

    name = "clairvoyant"
    # Dodgeball: the turn search plays the other team's reply out with the dice it knows
    # instead of the learnt value, which averages over dice not rolled yet.
    learnt_value = False
    # Which dice the Dodgeball search may read from the stream: a throw's two (the duel)
    # and the three rolled at a turn's end.  Both here; benchmarks/experiments/
    # dodgeball_foresight.py hides one kind to see what each is worth.
    sees_duels = True
    sees_turns = True

    def __init__(self, seed: Optional[int] = None, budget: Optional[float] = DEFAULT_BUDGET,
                 iterations: Optional[int] = None, **kwargs: Any) -> None:
        super().__init__(seed=seed, budget=budget, iterations=iterations, **kwargs)
        self.dice: Optional[random.Random] = None
        self.draws: List[float] = []
        self._chance_depth = 0

    def see_dice(self, dice: random.Random) -> None:
        """The stream the arena will draw this game's chance outcomes from."""
        self.dice = dice

    def read_ahead(self) -> List[float]:
        """The next LOOKAHEAD numbers of the dice stream, without consuming them."""
        if self.dice is None:
            return []
        copy = random.Random()
        copy.setstate(self.dice.getstate())
        return [copy.random() for _ in range(LOOKAHEAD)]

    def choose(self, state: Any) -> Any:
        self.draws = self.read_ahead()
        return super().choose(state)

    # --- the generic search with chance resolved ------------------------------------------
    def _iterate(self, state: Any, root: Any, may_grow: bool, nplayers: int) -> int:
        self._chance_depth = 0
        return super()._iterate(state, root, may_grow, nplayers)

    def _pick_outcome(self, node: Any, state: Any) -> Any:
        depth = self._chance_depth
        self._chance_depth = depth + 1
        if depth >= len(self.draws):
            return super()._pick_outcome(node, state)
        if node.outcomes is None:
            node.outcomes = state.chance_outcomes()
        return outcome_for(node.outcomes, self.draws[depth])
