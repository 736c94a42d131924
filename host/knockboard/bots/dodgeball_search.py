"""The strong bot's Dodgeball search: whole turns, not single actions.

A Dodgeball turn is three dice, each spent on one of about 170 actions, and what a die is
worth depends on the others (a move that brings a carrier within reach of the throw the next
die makes).  The generic tree search spreads its iterations over single actions and barely
sees the end of its own turn; this search plans the turn as a whole:

- **Turn search.**  From the acting team's decision, sequences of actions until its dice are
  spent (or it ends the turn), a beam at each die: the actions are scored one ply ahead by
  the Dodgeball score (`dodgeball_score.py`) and only the best few of them are followed.
  The turn's end is scored by the same function, which then counts the throws the other
  team's known dice (shown in the position) will allow: so the search keeps its pawns, and
  above all its carriers, out of the opponent's reach where it can.
- **Chance.**  A throw is followed through its three results (target out, thrower out, a
  miss) with their exact probabilities, the target's owner declaring what the score says is
  worse for the thrower and placing a missed ball where it hurts most; the turn goes on in
  each result with the dice left.
- **Widening.**  Passes with growing beams ((1,1,1), (2,2,1), (3,2,2), ...) until the budget
  is spent; the move played is the best of the last complete pass.  An iteration is one
  position whose actions were all scored (scores are kept between passes).  With an
  iteration budget that the time cap does not cut short, the result depends on the seed
  only (ties of equal scores are broken in an order drawn from the bot's seeded random).
- **The plan.**  The best continuation of every position searched is kept, so the second
  and third die of a turn (also after a throw's result that the search followed) are
  played without searching again.
- **Catch or dodge** is the target's equilibrium strategy in the throw's 2x2 matrix game
  (`dodgeball_score.throw_matrix`: the thrower throws or keeps the ball, the target catches
  or dodges, entries the score's expectation over the dice), solved exactly
  (`matrix_game.solve_2x2`) and drawn with the bot's seeded random.  The keep row does not
  depend on the declaration, so the game has a saddle point and the draw always gives the
  answer worse for the thrower; the former fixed mix (each option at least 10%) gave a
  thrower free pawns.
- A missed ball is placed, and set-up pawns are placed, by the best one-ply score.

Using the smallest die that allows an action is never worse than a bigger one (every action
a small die allows, a bigger one allows too), so the search considers each move, pass or
throw once, with the smallest die for it.
"""

import time
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from ..games import CHANCE, TERMINAL
from ..games.dodgeball.notation import CATCH, CATCH_ACTION, DODGE_ACTION, ROLLS
from .clairvoyant import outcome_for
from .dodgeball_score import THROW_BONUS, score, throw_matrix
from .dodgeball_value import load_model
from .matrix_game import sample, solve_2x2

# Beam widths per die of the turn (first, second, third), one pass after the other.
WIDTHS = ((1, 1, 1), (2, 2, 1), (3, 2, 2), (4, 3, 2), (6, 3, 2), (8, 4, 3), (12, 5, 3),
          (16, 6, 4), (24, 8, 4), (32, 10, 5))
# Representative dice for a throw's three results (the position after it does not show
# the rolls): thrower higher; thrower lower.
_HIGHER = (ROLLS[5], ROLLS[0])
_LOWER = (ROLLS[0], ROLLS[5])
_DIE_BITS = ~(7 << 4)
# With the learnt value a line's worth is a chance to win, not pawns: the throw's bonus
# (which keeps two careful players from holding their balls for ever) is scaled to match,
# about a tenth of a pawn's worth of win chance early in a game.
VALUE_THROW_BONUS = 0.01
# The iterations a move when the caller gives none (a person's opponent, the hint): the
# budget of the arena's figures (benchmarks/arena.md), well under 1 s a move here.
PLAY_ITERATIONS = 30


# A searched position: the actions from the root (a throw's result marked in it).
Path = Tuple[Any, ...]
Widths = Tuple[int, int, int]
Plan = Dict[str, int]


class _OutOfBudget(Exception):
    pass


def choose(bot: Any, state: Any) -> int:
    """The strong bot's action for a Dodgeball decision (see the module docstring)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        bot.last_stats = {"iterations": 0, "nodes": 0}
        return legal[0]
    player = state.current_player()
    if CATCH_ACTION in legal:
        bot.last_stats = {"iterations": 0, "nodes": 0}
        draws = getattr(bot, "draws", ())
        if len(draws) >= 2 and getattr(bot, "sees_duels", True):
            return _declare_knowing(state, player, legal, draws)
        return _declare(bot, state, player, legal)
    throw = state.throw
    if throw is not None or state.stage != "turn":
        # Placing a missed ball, or a pawn in the set-up: one ply.
        bot.last_stats = {"iterations": 0, "nodes": 0}
        return _best_one_ply(bot, state, player, legal)
    plan = bot.plan
    if plan:
        planned = plan.get(state.to_position())
        if planned is not None and planned in legal:
            bot.last_stats = {"iterations": 0, "nodes": 0, "planned": True}
            return planned
    search = _TurnSearch(bot, player)
    action = search.run(state)
    bot.plan = search.plan
    bot.last_stats = {"iterations": search.count, "nodes": search.count,
                      "passes": search.passes}
    return action


def _declare(bot: Any, state: Any, player: int, legal: List[int]) -> int:
    """Catch or dodge: the column player's equilibrium strategy of the throw's matrix game
    (`dodgeball_score.throw_matrix`, solved exactly by `matrix_game.solve_2x2`), drawn with
    the bot's seeded random."""
    _, declaration, _ = solve_2x2(throw_matrix(state))
    return CATCH_ACTION if sample(declaration, bot.rng) == 0 else DODGE_ACTION


def _declare_knowing(state: Any, player: int, legal: List[int], draws: Sequence[float]) -> int:
    """The clairvoyant's declaration: the option whose result, with the two dice the stream
    will give, scores best."""
    best: Any = None
    best_value: Any = None
    for action in sorted(legal):
        state.apply(action)
        rolled = 0
        for x in draws[:2]:
            if not state.is_chance_node():
                break
            state.apply(outcome_for(state.chance_outcomes(), x))
            rolled += 1
        value = score(state, player)
        for _ in range(rolled + 1):
            state.undo()
        if best_value is None or value > best_value:
            best, best_value = action, value
    return best


def _best_one_ply(bot: Any, state: Any, player: int, legal: List[int]) -> int:
    actions = list(legal)
    bot.rng.shuffle(actions)
    best: Any = None
    best_value: Any = None
    for action in actions:
        state.apply(action)
        value = score(state, player)
        state.undo()
        if best_value is None or value > best_value:
            best, best_value = action, value
    return best


def distinct_actions(actions: Iterable[int]) -> List[int]:
    """Each move, pass and throw once, with the smallest die that allows it."""
    chosen: Dict[int, int] = {}
    for action in actions:
        key = action & _DIE_BITS
        kept = chosen.get(key)
        if kept is None or action < kept:      # the die is in bits 4-6: smaller is smaller
            chosen[key] = action
    return list(chosen.values())


class _TurnSearch:
    def __init__(self, bot: Any, player: int) -> None:
        self.bot = bot
        self.me = player
        self.count = 0
        self.passes = 0
        # Without an iteration budget (at the board: 1 s a move) the search stops at
        # PLAY_ITERATIONS, the budget the arena measured; the time budget stays a cap.
        self.limit = PLAY_ITERATIONS if bot.iterations is None else bot.iterations
        self.deadline = (None if bot.budget is None
                         else time.perf_counter() + bot.budget)
        # The clairvoyant's dice stream read ahead (the strong bot has none): chance steps
        # on the searched path take these outcomes instead of being averaged.
        self.draws = getattr(bot, "draws", ())
        self.rolled = 0         # chance steps on the path being searched
        # Which of those steps it may read (benchmarks/experiments/dodgeball_foresight.py
        # hides a kind): a throw's two dice, the three rolled at a turn's end.  A step not
        # read is still counted, so the stream's later numbers fall on the steps they decide.
        self.sees_duels = getattr(bot, "sees_duels", True)
        self.sees_turns = getattr(bot, "sees_turns", True)
        # path from the root -> [(score, action)], best first
        self.scored: Dict[Path, List[Tuple[float, int]]] = {}
        # (position at the turn's end, chance steps before it) -> value after the reply
        self.replies: Dict[Tuple[str, int], float] = {}
        self.plan: Plan = {}
        # The learnt value at the turn's end (`dodgeball_value.py`); the clairvoyant, which
        # knows the next dice, plays the other team's reply out instead.
        self.model = None
        if getattr(bot, "learnt_value", True):
            # A bot may carry other weights (benchmarks/train_dodgeball.py's self-play).
            self.model = getattr(bot, "value_model", None) or load_model()
        self.bonus = THROW_BONUS if self.model is None else VALUE_THROW_BONUS

    def run(self, state: Any) -> int:
        state = state.clone()
        best = None
        for widths in WIDTHS:
            pass_plan: Plan = {}
            self._complete = True
            try:
                _, action = self._value(state, (), 0, widths, pass_plan)
            except _OutOfBudget:
                break
            best = action
            self.plan = pass_plan
            self.passes += 1
            if self._complete:
                break           # every beam held every action: wider finds nothing new
        if best is None:
            # Not even the narrowest pass finished: the best action one ply ahead.
            kids = self.scored.get(())
            best = kids[0][1] if kids else _best_one_ply(self.bot, state, self.me,
                                                         state.legal_actions())
        return best

    def _knows_next(self, steps: int, duel: bool) -> bool:
        seen = self.sees_duels if duel else self.sees_turns
        return seen and self.rolled + steps <= len(self.draws)

    def _roll_known(self, state: Any) -> None:
        """Apply the chance outcome the stream gives next (clairvoyant only)."""
        state.apply(outcome_for(state.chance_outcomes(), self.draws[self.rolled]))
        self.rolled += 1

    def _unroll(self, state: Any, steps: int) -> None:
        for _ in range(steps):
            state.undo()
        self.rolled -= steps

    def _tick(self) -> None:
        """Count one iteration (a position whose actions are all scored), or stop."""
        if self.limit is not None and self.count >= self.limit:
            raise _OutOfBudget
        if self.deadline is not None and self.count and time.perf_counter() >= self.deadline:
            raise _OutOfBudget
        self.count += 1

    def _children(self, state: Any, path: Path) -> List[Tuple[float, int]]:
        kids = self.scored.get(path)
        if kids is not None:
            return kids
        self._tick()
        actions = distinct_actions(state.legal_actions())
        self.bot.rng.shuffle(actions)
        me = self.me
        scored = []
        for i, action in enumerate(actions):
            state.apply(action)
            scored.append((-score(state, me), i, action))
            state.undo()
        scored.sort()
        kids = self.scored[path] = [(-s, a) for s, _, a in scored]
        return kids

    def _value(self, state: Any, path: Path, depth: int, widths: Widths,
               plan: Plan) -> Tuple[float, Optional[int]]:
        """(value for the searching team, best action) of a position of its turn."""
        player = state.current_player()
        if player != self.me or state.throw is not None:
            return self._after_action(state, path, depth, widths, plan), None
        kids = self._children(state, path)
        width = widths[min(depth, len(widths) - 1)]
        if width < len(kids):
            self._complete = False
        best_value: Any = None
        best_action: Any = None
        for _, action in kids[:width]:
            state.apply(action)
            try:
                value = self._after_action(state, path + (action,), depth + 1, widths, plan)
            finally:
                state.undo()
            if best_value is None or value > best_value:
                best_value, best_action = value, action
        plan[state.to_position()] = best_action
        return best_value, best_action

    def _after_action(self, state: Any, path: Path, depth: int, widths: Widths,
                      plan: Plan) -> float:
        """The value of the position after one of the searching team's actions."""
        player = state.current_player()
        if player == self.me and state.throw is None:
            return self._value(state, path, depth, widths, plan)[0]
        if state.throw is None:                   # the turn is over (or the game)
            if self.model is not None:
                return self.model.value(state, self.me)
            return self._reply_value(state)
        return self._throw_value(state, path, depth, widths, plan)

    # --- the other team's reply ---------------------------------------------------------
    def _reply_value(self, state: Any) -> float:
        """The searching team's turn is over: the other team plays its turn with its known
        dice, each action the best one ply ahead by the score (the greedy bot's way), throws
        followed through their results; the value is the score at the end of that turn,
        with the searching team's next dice not known (they are rolled here as stand-ins)."""
        if state.is_terminal():
            return score(state, self.me)
        key = (state.to_position(), self.rolled)
        value = self.replies.get(key)
        if value is not None:
            return value
        rolled = 0
        known = self._knows_next(3, duel=False)
        try:
            while state.current_player() == CHANCE and state.throw is None:
                if known:
                    self._roll_known(state)
                else:
                    state.apply(ROLLS[0])
                    self.rolled += 1
                rolled += 1
            value = self._reply(state, known)
        finally:
            self._unroll(state, rolled)
        self.replies[key] = value
        return value

    def _reply(self, state: Any, known: bool = False) -> float:
        """`known`: the searching team's next dice are the stream's (clairvoyant), not
        stand-ins, so the score may count them."""
        me = self.me
        player = state.current_player()
        if player == TERMINAL or (player == CHANCE and state.throw is None):
            return score(state, me, waiting_known=known)      # the reply is over
        throw = state.throw
        if throw is not None and player == CHANCE and self._knows_next(2, duel=True):
            self._roll_known(state)
            self._roll_known(state)
            try:
                return self._reply(state, known)
            finally:
                self._unroll(state, 2)
        if throw is not None and player == CHANCE:
            # The dice of a throw at one of ours.
            return self._over_the_duel(state, throw[2] == CATCH,
                                       lambda after, _: self._reply(after, known))
        # A decision: the other team's action, or our declaration or ball placement.
        actions = state.legal_actions()
        if player != me:
            self._tick()
            actions = distinct_actions(actions)
        best: Any = None
        if player == me and CATCH_ACTION in actions and self._knows_next(2, duel=True):
            best = _declare_knowing(state, me, actions, self.draws[self.rolled:])
        else:
            sign = 1 if player == me else -1
            best_value: Any = None
            for action in actions:
                state.apply(action)
                value = sign * score(state, me, waiting_known=known)
                state.undo()
                if best_value is None or value > best_value:
                    best, best_value = action, value
        state.apply(best)
        try:
            return self._reply(state, known)
        finally:
            state.undo()

    def _throw_value(self, state: Any, path: Path, depth: int, widths: Widths,
                     plan: Plan) -> float:
        """A throw of the searching team, the target's owner to declare: its results."""
        me = self.me
        options = state.legal_actions()
        declared: Any = None
        worst: Any = None
        for option in options:
            state.apply(option)
            value = score(state, me)
            state.undo()
            if worst is None or value < worst:
                declared, worst = option, value
        if self._knows_next(2, duel=True):
            return self._known_throw(state, path, depth, widths, plan, declared)
        state.apply(declared)
        try:
            total = self._over_the_duel(
                state, declared == CATCH_ACTION,
                lambda after, rolls: self._after_duel(after, path + (declared,) + rolls,
                                                      depth, widths, plan))
        finally:
            state.undo()
        # The score's bonus for a throw (see dodgeball_score.THROW_BONUS: holding a ball
        # must never be as good as throwing it, or the game can stall).
        return total + self.bonus

    def _known_throw(self, state: Any, path: Path, depth: int, widths: Widths, plan: Plan,
                     declared: int) -> float:
        """A throw of the searching team with the two dice the stream gives (clairvoyant)."""
        state.apply(declared)
        self._roll_known(state)
        self._roll_known(state)
        try:
            value = self._after_duel(state, path + (declared, "rolled", self.rolled), depth,
                                     widths, plan)
        finally:
            self._unroll(state, 2)
            state.undo()
        return value + self.bonus

    def _over_the_duel(self, state: Any, catching: bool,
                       follow: Callable[[Any, Tuple[int, int]], float]) -> float:
        """A throw's dice taken by their probabilities (thrower higher, or lower), each
        result valued by `follow(state, rolls)`; the two dice are counted as read."""
        p_hit = 21 / 36 if catching else 15 / 36
        total = 0.0
        self.rolled += 2
        try:
            for rolls, p in ((_HIGHER, p_hit), (_LOWER, 1 - p_hit)):
                state.apply(rolls[0])
                state.apply(rolls[1])
                try:
                    total += p * follow(state, rolls)
                finally:
                    state.undo()
                    state.undo()
        finally:
            self.rolled -= 2
        return total

    def _after_duel(self, state: Any, path: Path, depth: int, widths: Widths,
                    plan: Plan) -> float:
        """After the dice of a throw of the searching team: a miss to place, or its turn."""
        if state.current_player() == 1 - self.me and state.throw is not None:
            return self._miss_value(state, path, depth, widths, plan)
        return self._after_action(state, path, depth, widths, plan)

    def _miss_value(self, state: Any, path: Path, depth: int, widths: Widths,
                    plan: Plan) -> float:
        """A miss: the target's owner places the ball where the score likes it least."""
        me = self.me
        worst: Any = None
        placed: Any = None
        for option in state.legal_actions():
            state.apply(option)
            value = score(state, me)
            state.undo()
            if worst is None or value < worst:
                worst, placed = value, option
        state.apply(placed)
        try:
            return self._after_action(state, path + (placed,), depth, widths, plan)
        finally:
            state.undo()
