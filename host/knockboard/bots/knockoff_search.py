"""The strong bot's two-player Knock-Off search: whole turns, the next roll taken exactly.

A Knock-Off turn is one roll of two dice and at most two moves (one die each, or both as
one leap), so the positions a turn can end in are few (tens) and can all be listed.  The
generic tree search (`strong.py`) spent its iterations sampling the 21 rolls that follow
and re-deciding single moves, and at 200-3 000 iterations a move won no more against the
greedy bot than 0.53-0.55 (benchmarks/arena.md).  This search instead:

- **lists every end of the mover's turn** (each distinct position once: the moves of a
  turn in either order, passes included) and values each by the learnt value
  (`knockoff_value.py`, the chance that the player about to roll wins);
- **looks one turn further for the best few** (`iterations` of them, best first; all of
  them when there are fewer): the roll that follows is a chance node taken exactly, its 21
  outcomes (15 of them 2/36, 6 doubles 1/36) with their probabilities, and for each the
  roller's best end of its own turn by the same value (max^n: the other player maximises
  its own chance); the move played is the best of those looked at (if the time cap
  stops the search early, the first of them is the best by the one-turn value);
- **keeps the plan**: the second move of the turn is the one the search chose with the
  first, without searching again.

An iteration is one end of the mover's turn looked at one turn further (21 rolls, each
with every reply valued).  With an iteration budget that the time cap does not cut short,
the result depends on the position only (ties: the better value at the turn's end, then
the first found in the engine's action order).

The clairvoyant (`clairvoyant.py`) reads the roll that follows from the arena's dice, so
its chance node has the one outcome the dice will give: the ceiling of this search.

Three and four players, and boards other than the standard one (the `board` option), keep
the generic tree search (`StrongBot.search_choose`): the value is learnt for two players on
the standard board.
"""

import time
from typing import Any, Callable, Dict, List, Tuple

from .clairvoyant import outcome_for
from .knockoff_value import load_model

# The iterations a move when the caller gives none, and the arena's: every end of the turn
# looked at one turn further (25 ends at most in 200 positions of greedy games), well
# under 1 s a move (benchmarks/bot_budget.py).
PLAY_ITERATIONS = 30

Path = Tuple[int, ...]


def _position(state: Any) -> Tuple[Any, ...]:
    """What tells two positions between decisions apart: the cells' pawns, the phase and
    who acts (the turn's ends are told apart, and valued once, by it)."""
    return (tuple(state.occ), state.phase, state.player)


def turn_ends(state: Any, visit: Callable[[Path], None], path: Path = (),
              key: Callable[[Any], Any] = _position) -> None:
    """Calls visit(path) in every distinct position where the mover's turn (from this
    decision) has ended, `state` standing in that position; path: the actions there.
    `key` tells two positions apart (K.O.'s turns, `ko_turns.py`, have their own)."""
    seen: set = set()
    _ends(state, state.current_player(), path, visit, seen, key)


def _ends(state: Any, mover: int, path: Path, visit: Callable[[Path], None],
          seen: set, key: Callable[[Any], Any]) -> None:
    for action in state.legal_actions():
        state.apply(action)
        here = path + (action,)
        if state.is_chance_node() or state.is_terminal() or state.current_player() != mover:
            where = key(state)
            if where not in seen:
                seen.add(where)
                visit(here)
        else:
            _ends(state, mover, here, visit, seen, key)
        state.undo()


class _TurnSearch:
    def __init__(self, bot: Any, player: int) -> None:
        self.model = load_model()
        self.player = player
        self.draws = getattr(bot, "draws", ()) or ()
        budget = bot.budget
        self.deadline = None if budget is None else time.perf_counter() + budget
        self.limit = bot.iterations or PLAY_ITERATIONS
        self.cache: Dict[Any, float] = {}
        self.count = 0
        # (the mover's chance one turn further, the turn's actions) of every end looked at
        self.looked: List[Tuple[float, Path]] = []

    def value(self, state: Any, player: int) -> float:
        key = _position(state)
        v = self.cache.get(key)
        if v is None:
            v = self.cache[key] = self.model.value(state, 0)
        return v if player == 0 else 1.0 - v

    def run(self, state: Any) -> Path:
        """The best line to the end of the mover's turn."""
        player = self.player
        ends: List[Tuple[float, int, Path]] = []

        def one_turn(path: Path) -> None:
            ends.append((-self.value(state, player), len(ends), path))

        turn_ends(state, one_turn)
        ends.sort()
        for _, _, path in ends[:self.limit]:
            if self.deadline is not None and self.count and \
                    time.perf_counter() >= self.deadline:
                break
            for action in path:
                state.apply(action)
            v = self.next_turn(state)
            for _ in path:
                state.undo()
            self.count += 1
            self.looked.append((v, path))
        # the first of the best: `looked` is in the order of the one-turn value, which so
        # breaks ties
        return max(self.looked, key=lambda t: t[0])[1]

    def next_turn(self, state: Any) -> float:
        """The mover's chance after the roll that follows and the roller's best turn."""
        player = self.player
        if state.is_terminal():
            return self.value(state, player)
        outcomes = state.chance_outcomes()
        if self.draws:
            outcomes = [(outcome_for(outcomes, self.draws[0]), 1.0)]
        roller = state.player
        total = 0.0
        for roll, p in outcomes:
            state.apply(roll)
            best = [-1.0, 0.0]       # the roller's best chance, and the mover's there

            def reply(path: Path) -> None:
                v = self.value(state, roller)
                if v > best[0]:
                    best[0], best[1] = v, self.value(state, player)

            turn_ends(state, reply)
            state.undo()
            total += p * best[1]
        return total


def choose(bot: Any, state: Any) -> int:
    """The strong bot's action for a Knock-Off decision (see the module docstring)."""
    if state.game.num_players != 2 or state.game.board.name != "standard":
        return bot.search_choose(state)     # the value is learnt for two, on this board
    legal = state.legal_actions()
    if len(legal) == 1:
        bot.last_stats = {"iterations": 0, "nodes": 0}
        return legal[0]
    # The plan is for the rest of the turn it was made in: used once, then dropped (the
    # clairvoyant's was made knowing the dice of that turn).
    plan, bot.plan = bot.plan, {}
    planned = plan.get(state.to_position())
    if planned is not None and planned in legal:
        bot.last_stats = {"iterations": 0, "nodes": 0, "planned": True}
        return planned
    search = _TurnSearch(bot, state.current_player())
    path = search.run(state.clone())
    scratch = state.clone()
    scratch.apply(path[0])
    for action in path[1:]:
        bot.plan[scratch.to_position()] = action
        scratch.apply(action)
    # Best first; a stable sort of the order they were looked at in keeps the chosen turn
    # first among equals, as `run` chose it (what `knockboard hint` lists).
    bot.last_stats = {"iterations": search.count, "nodes": len(search.cache),
                      "turns": sorted(search.looked, key=lambda t: -t[0])}
    return path[0]
