"""The strong bot: Monte-Carlo tree search with chance nodes, guided by the game's heuristic.

One search per decision, from scratch (no tree is kept between moves):

- **Decision nodes** choose by UCT on the mover's own value (each node keeps the summed
  values of *every* player, so the same code plays 2-player zero-sum games and 3-4-player
  K.O. and Knock-Off, where each seat maximises its own value: max^n).  Children are opened
  one by one in the order of the one-ply score (`heuristics.score`; at the root, like the
  greedy bot, with a chance step right after the move averaged), and only as many as
  `1 + WIDEN * sqrt(visits)` take part (progressive widening), so a 170-action Dodgeball
  turn is searched best-first instead of breadth-first.
- **Chance nodes** are the engine's own chance steps with their probabilities.  An outcome is
  chosen deterministically: the one furthest below its share of the node's visits
  (p * visits - child visits largest), so the sampled frequencies follow the probabilities
  without any random draw.
- **Leaves** are valued by `heuristics.evaluate` (terminal results exactly, otherwise the
  game's score squashed into (-1, 1)); no random playouts, which in these games would mostly
  measure the noise of random dice moves.
- **The move played** is the most visited child of the root (ties: higher mean value, then
  the greedy order).  A decision that `heuristics.is_mixed_decision` names (Dodgeball's catch
  or dodge) is instead drawn at random with weights exp(value / MIX_TEMPERATURE), each option
  kept at least MIX_FLOOR likely: a mixed strategy, never a fixed answer.

Budget and determinism: the search stops after `iterations` iterations when that is given,
or when `budget` seconds have passed, whichever comes first.  Nothing in the search depends
on the clock except that stop, and the only randomness is the bot's own `random.Random(seed)`
(tie order of equal-scored moves, the mixed decisions).  So with an iteration budget that the
time cap does not cut short, the same seed and the same positions give the same moves on any
machine (tests and `knockboard arena --iterations` rely on this); with a time budget alone the
number of iterations, and so possibly the move, depends on the machine's speed.

Memory is bounded by `max_nodes` tree nodes per search (default 100 000).  One iteration adds
at most one node, and 1 s of search makes about 9 000-23 000 of them on the project's machine.
Once the limit is reached, iterations go on evaluating leaves below the existing tree without
adding nodes (the nodes at its edge still get their move lists: 400-650 bytes a node while the
tree grows, up to about 1 100 at the cap, so about 110 MB at most; `benchmarks/bot_budget.py`).
"""

import math
import random
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .. import registry
from ..games import CHANCE
from .greedy import expected_score
from .heuristics import evaluate, is_mixed_decision, score

_SEARCHES: dict = {}


def game_search(name: str) -> Optional[Callable[["StrongBot", Any], int]]:
    """The game's own search, registered as its `search`, or None: choose(bot, state)
    takes the game's decisions instead of the generic search below (the bot gives its
    seed's random, budget and iterations)."""
    if name not in _SEARCHES:
        _SEARCHES[name] = registry.part(name, "search")
    return _SEARCHES[name]


UCT_C = 0.8            # exploration constant, values are in [-1, 1]
WIDEN = 1.5            # progressive widening: 1 + WIDEN * sqrt(n) children take part
MIX_TEMPERATURE = 0.1
MIX_FLOOR = 0.1
DEFAULT_BUDGET = 1.0
DEFAULT_MAX_NODES = 100_000
_CLOCK_EVERY = 1       # iterations between clock reads (a read costs far less than one)


class _Node:
    __slots__ = ("player", "n", "w", "actions", "children", "outcomes")

    def __init__(self, player: int, nplayers: int) -> None:
        self.player = player          # the player to act here, or CHANCE / TERMINAL
        self.n = 0
        self.w = [0.0] * nplayers     # summed values per player
        self.actions: Any = None      # decision: actions in greedy order; chance: outcomes
        self.children: Dict[Any, _Node] = {}
        self.outcomes: Any = None          # chance: [(action, p)]


class StrongBot:
    """MCTS with chance nodes; see the module docstring."""

    name = "strong"

    def __init__(self, seed: Optional[int] = None, budget: Optional[float] = DEFAULT_BUDGET,
                 iterations: Optional[int] = None, max_nodes: int = DEFAULT_MAX_NODES,
                 exploration: Optional[float] = None,
                 leaf: Optional[Callable[[Any], List[float]]] = None) -> None:
        if budget is not None and not (budget > 0 and math.isfinite(budget)):
            raise ValueError("budget must be a positive number of seconds")
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if budget is None and iterations is None:
            raise ValueError("give a time budget, an iteration budget or both")
        self.rng = random.Random(seed)
        self.budget = budget
        self.iterations = iterations
        self.max_nodes = max_nodes
        self.exploration = UCT_C if exploration is None else exploration
        # What values a leaf: the game's squashed score unless a caller knows better (the
        # review's estimator puts a learnt value where the game has one: review/).
        self.leaf = evaluate if leaf is None else leaf
        self.last_stats: Dict[str, Any] = {}
        # A game search's plan for the rest of a turn, position -> action (Dodgeball's
        # whole-turn search replays it instead of searching each action again).
        self.plan: Dict[str, int] = {}

    # --- the bot interface ------------------------------------------------------------
    def choose(self, state: Any) -> int:
        special = game_search(state.game.name)
        if special is not None:
            return special(self, state)
        return self.search_choose(state)

    def search_choose(self, state: Any) -> int:
        """The generic tree search's action (a game's own search may fall back on it)."""
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_stats = {"iterations": 0, "nodes": 0}
            return legal[0]
        root, iterations, nodes = self._search(state)
        player = state.current_player()
        stats = [(a, c.n, c.w[player] / c.n) for a, c in root.children.items() if c.n]
        # The root's moves, most visited first: what a hint can show besides the move.
        self.last_stats = {"iterations": iterations, "nodes": nodes,
                           "candidates": sorted(stats, key=lambda s: -s[1])}
        if is_mixed_decision(state) and len(stats) > 1:
            return self._mixed(stats, legal)
        order = {a: i for i, a in enumerate(root.actions)}
        best = max(stats, key=lambda s: (s[1], s[2], -order[s[0]]))
        return best[0]

    suggest = choose   # the name the board's hint (MENU -> Hint) calls

    def action_values(self, state: Any) -> Dict[int, Tuple[int, float]]:
        """{action: (visits, mean value for the mover)} of a fresh search, for displays and
        tests."""
        root, _, _ = self._search(state)
        player = state.current_player()
        return {a: (c.n, c.w[player] / c.n) for a, c in root.children.items() if c.n}

    def search_tree(self, state: Any) -> Tuple["_Node", int, int]:
        """A fresh search's root, iterations and nodes, for an analysis that reads the whole
        tree (the review's estimator)."""
        return self._search(state)

    def mix_probabilities(self, values: Sequence[float]) -> List[float]:
        """The mixed strategy's probabilities for options with these mean values."""
        top = max(values)
        weights = [math.exp((v - top) / MIX_TEMPERATURE) for v in values]
        total = sum(weights)
        probs = [w / total for w in weights]
        k = len(probs)
        floor = min(MIX_FLOOR, 1.0 / k)
        # Lift every option to the floor, taking the mass from the others proportionally.
        low = [p < floor for p in probs]
        if any(low):
            spare = 1.0 - floor * sum(low)
            rest = sum(p for p, lo in zip(probs, low) if not lo)
            probs = [floor if lo else p * spare / rest for p, lo in zip(probs, low)]
        return probs

    def _mixed(self, stats: List[Tuple[int, int, float]], legal: List[int]) -> int:
        stats.sort(key=lambda s: legal.index(s[0]))
        probs = self.mix_probabilities([s[2] for s in stats])
        x = self.rng.random()
        for (action, _, _), p in zip(stats, probs):
            x -= p
            if x < 0:
                return action
        return stats[-1][0]

    # --- the search -------------------------------------------------------------------
    def _search(self, state: Any) -> Tuple["_Node", int, int]:
        state = state.clone()
        nplayers = state.game.num_players
        root = _Node(state.current_player(), nplayers)
        nodes = 1
        deadline = None if self.budget is None else time.perf_counter() + self.budget
        limit = self.iterations
        done = 0
        max_nodes = self.max_nodes
        while limit is None or done < limit:
            if deadline is not None and done % _CLOCK_EVERY == 0 and done \
                    and time.perf_counter() >= deadline:
                break
            nodes += self._iterate(state, root, nodes < max_nodes, nplayers)
            done += 1
        return root, done, nodes

    def _iterate(self, state: Any, root: "_Node", may_grow: bool, nplayers: int) -> int:
        """One iteration: descend, add at most one node, back the leaf's values up.
        Returns the number of nodes added."""
        path = [root]
        node = root
        applied = 0
        added = 0
        while True:
            player = node.player
            if player < 0 and player != CHANCE:          # terminal
                values = self.leaf(state)
                break
            if node.n == 0 and node is not root:
                values = self.leaf(state)
                break
            if player == CHANCE:
                action = self._pick_outcome(node, state)
            else:
                action = self._pick_action(node, state, player, node is root)
            child = node.children.get(action)
            state.apply(action)
            applied += 1
            if child is None:
                if not may_grow:
                    values = self.leaf(state)
                    break
                child = _Node(state.current_player(), nplayers)
                node.children[action] = child
                added = 1
            node = child
            path.append(node)
        for visited in path:
            visited.n += 1
            w = visited.w
            for i in range(nplayers):
                w[i] += values[i]
        for _ in range(applied):
            state.undo()
        return added

    def _pick_outcome(self, node: "_Node", state: Any) -> Any:
        if node.outcomes is None:
            node.outcomes = state.chance_outcomes()
        n = node.n
        children = node.children
        best, best_gap = None, None
        for action, p in node.outcomes:
            child = children.get(action)
            gap = p * n - (child.n if child is not None else 0)
            if best_gap is None or gap > best_gap:
                best, best_gap = action, gap
        return best

    def _pick_action(self, node: "_Node", state: Any, player: int, at_root: bool) -> Any:
        actions = node.actions
        if actions is None:
            actions = node.actions = self._ordered_actions(state, player, at_root)
        children = node.children
        width = min(len(actions), 1 + int(WIDEN * math.sqrt(node.n)))
        log_n = math.log(node.n + 1)
        best, best_ucb = None, None
        for action in actions[:width]:
            child = children.get(action)
            if child is None or child.n == 0:
                return action                   # open the next child in greedy order
            ucb = child.w[player] / child.n + self.exploration * math.sqrt(log_n / child.n)
            if best_ucb is None or ucb > best_ucb:
                best, best_ucb = action, ucb
        return best

    def _ordered_actions(self, state: Any, player: int, at_root: bool) -> List[int]:
        """Legal actions, best greedy one-ply score first (ties in a seeded random order)."""
        actions = state.legal_actions()
        self.rng.shuffle(actions)
        scored: List[Tuple[float, int, int]] = []
        # At the root the greedy bot's own expectation over a chance step that follows;
        # deeper down the plain score after the move (the search itself averages the chance
        # step, and 21 two-dice outcomes per move would cost more than the order gains).
        rate = expected_score if at_root else score
        for action in actions:
            state.apply(action)
            scored.append((-rate(state, player), len(scored), action))
            state.undo()
        scored.sort()
        return [a for _, _, a in scored]

