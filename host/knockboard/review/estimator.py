"""The chance to win of every player in any position: one estimator per game.

- **Knock-Off** on the standard board (`TurnEstimator`): the learnt value where a player
  is about to roll (two players: `bots/knockoff_value.py`; three or four: the learnt
  shares, `bots/knockoff_shares.py`); at a decision the learnt value of the best end of the
  mover's turn (every end listed, as the strong bot's turn search lists them); with three
  or four players, for the others the average over the ends the mover values within
  `INDIFFERENT` of its best (`indifferent_mover`).
- **K.O.** on the standard board (`TurnEstimator`): the same
  with its learnt shares (`bots/ko_shares.py`), the first move of a turn limited to the
  `KO_FIRST_MOVES` best by the shares, each followed to every end; its roll-off exactly; its
  secret set-up by the search below.
- **Every other game** (`Estimator`): the strong bot's tree search (`bots/strong.py`),
  `iterations` iterations, its leaves valued by the game's squashed score
  (`heuristics.evaluate`), in Dodgeball by the review's learnt value at a turn's end
  (`bots/dodgeball_value.py`, `load_review_model`); a value v in [-1, 1] is the chance
  (1 + v) / 2.  With three or four players the leaves are shares of one win
  (`shares_leaf`).  A roll is the search's
  mean (its outcomes are visited in proportion to their probabilities), in Dodgeball at a
  turn's end the learnt value at the last of the dice and the average over the dice before
  it.  A decision is worth its best move (the move the search visits most), valued as that
  position is, and so on to the next roll (`CHAIN` decisions at most, a repeated position
  ending the line too: then the search's mean of its best move).
- A finished game is its result: 1 for a sole win, 1/k each for k shared first places, 0
  for a loss.

A decision of the game being reviewed is worth the better, for its mover, of that best move
and the move played (`consider`, called by the review from the end of the game backwards).
So a position and its best move agree, and the review's sum (`analysis.py`) has slack only
at the rolls: the value before a roll against the average of the values after it.
Deterministic for a seed: every position gets a fresh search seeded with `seed`, counted
in iterations (no clock), and the answer is kept per position."""

import math
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..bots.heuristics import evaluate, win_shares
from ..bots.strong import StrongBot

DEFAULT_ITERATIONS = 20
# Dodgeball's search at 20 judged the strong bot's moves no better than the greedy bot's;
# at 40 it ranks them as the arena does (docs/bots.md, "The review against the arena"),
# and its positions cost less than K.O.'s, whose 100 moves take about 23 s at 20.
GAME_ITERATIONS = {"dodgeball": 40}


def default_iterations(game_name: str) -> int:
    """The search's iterations a position when none are given."""
    return GAME_ITERATIONS.get(game_name, DEFAULT_ITERATIONS)
# Decisions valued through their best moves in a row at most (a line that repeats a
# position, or runs longer, is valued by the search's own mean of its best move there).
CHAIN = 40
# How far the sum check may miss on average over games (the start's chance plus a player's
# luck, minus its errors, plus the others' moves' effect, against its result), where the
# estimator is consistent enough to state a bound (docs/review.md, "The identity"): about
# twice the mean measured over seeded games of random v greedy and greedy v greedy at the
# tests' 8 iterations (two-player Knock-Off, where the values disagree only at the rolls:
# mean 0.165 over 40 games, 90% of them under 0.32, the worst 1.63 in a game where a
# player passed turn after turn; KNOCKabout: mean 0.25 over 20, 90% under 0.59, worst
# 0.75); three- and four-player Knock-Off, valued by whole turns and the learnt shares,
# over 20 games of greedy and random bots each (seeds 11-30, `benchmarks/review_slack.py`):
# 3 players mean 0.178, worst 0.68; 4 players mean 0.138, worst 0.47 (the search with the
# plain score, their estimator before: 0.673 and 0.625 on the same games).
# Two-player K.O., valued by whole turns and its learnt shares, over 10 games of greedy and
# random bots (seeds 11-20): mean 0.086, worst 0.195 (the search with the plain score at 2
# iterations, its estimator before: 0.174 on the same games; on the tests' two games 0.091
# against 0.222).
STATED_SLACK = {("knockoff", 2): 0.35, ("knockabout", 2): 0.5,      # (game, players)
                ("knockoff", 3): 0.35, ("knockoff", 4): 0.28, ("ko", 2): 0.17}
# The other games' bound, per roll of the game: in every game, each player's miss is at most
# the rate times the game's rolls (a roll's value against the average after it is the only
# slack left, and it adds up roll by roll).  Somewhat above the worst rate measured over
# seeded games of greedy and random bots at the tests' 2 iterations and, for Dodgeball and
# two-player K.O., at the default budgets (docs/review.md, "The identity", has the
# figures).  Wide, and not from noise: the search values a position where a turn starts by
# the plain score, which knows nothing of the turn about to be played, so each roll hands
# the roller a turn's progress the score did not see (3-player Knock-Off valued so, before
# its learnt shares: +0.065 a roll on average), which with three or four players does not
# cancel between the seats; in Dodgeball the searched turn gained more than the strong bot's
# learnt value expects (0.021 a roll in a long one-sided game at 40 iterations, 0.004 at 2;
# rate 0.03), so the review values Dodgeball by its own refit of that value
# (`dodgeball_value.load_review_model`): over seeds 11-20 at 40 iterations the slack a game
# fell from 3.84 to 0.80 on average, the worst rate a roll from 0.0174 to 0.0029; short
# games (seeds 1-30 of greedy v greedy and two of random v greedy, 40-127 rolls, at 40)
# miss more a roll, at worst 0.0054 (the strong bot's value 0.0080), hence 0.007.
# Three-player K.O., valued by whole turns, an indifferent mover and the shares refitted to
# the review's own look-ahead (`benchmarks/train_ko_shares_review.py`): over 88 seeded
# games (seeds 1-8 and 11-90, 2 iterations) 0.37 a player on average, the worst rate a roll
# 0.0389 (seed 38: 3.15 over 81 rolls), then 0.0334 and 0.0258; hence 0.05.  The
# estimators before it miss by more in the tests' seed 43 (random, greedy, random): the
# self-play shares 9.2 over 137 rolls (0.067: the greedy leader valued higher at each
# random seat's throw than after that seat's best turn, round after round), the search
# 7.3 (0.054); and in seed 63 the search 10.7 over 114 rolls (0.094), the shares 1.3.
# Four-player K.O., valued the same way with its shares refitted the same
# way (`--players 4`): over 68 seeded games (seeds 1-68) 0.67 a player on average, the
# worst rate a roll 0.0238 (seed 35: 3.56 over 150 rolls), then 0.0229; hence 0.04, which
# the estimators before it fail in that game: the search 9.9 (0.066; it was 4-player
# K.O.'s estimator until stop 60, at a rate of 0.08), the self-play shares 7.5 (0.050).
STATED_RATE = {("dodgeball", 2): 0.007, ("ko", 3): 0.05, ("ko", 4): 0.04}
Chances = Tuple[float, ...]
# K.O. (`TurnEstimator._ko_first_move`): the first moves of a turn followed to every end.
# 2, not 4: over seeds 11-20 the slack was the same (2 players: mean 0.086 against 0.085;
# 3 players: 0.691 against 0.695), and ranking the first moves is most of a turn's cost.
KO_FIRST_MOVES = 2


def learnt_leaf(game: Any, model: Any = None) -> Optional[Callable[[Any], List[float]]]:
    """The strong bot's leaf values with the game's learnt value where it knows the position
    (Dodgeball's: the review's value, `dodgeball_value.load_review_model`, or `model` where
    one is given: a trainer's candidate, or the strong bot's own), or None for a game
    without one (two-player Knock-Off's is `TurnEstimator`'s own)."""
    if game.name == "dodgeball":
        from ..bots.dodgeball_value import load_review_model, turn_over
        model = model or load_review_model()

        def dodgeball(state: Any) -> List[float]:
            if state.is_terminal() or not turn_over(state):
                return evaluate(state)
            p = model.value(state, 0)
            return [2 * p - 1, 1 - 2 * p]
        return dodgeball
    return None


def make_estimator(game: Any, iterations: Optional[int] = None,
                   seed: int = 0) -> "Estimator":
    """The game's estimator: Knock-Off and K.O. on the standard board value whole turns by
    their learnt values (`TurnEstimator`), every other game the search (`Estimator`);
    `iterations` None: the game's default."""
    if iterations is None:
        iterations = default_iterations(game.name)
    # `board` asked last: the other games have none
    if game.name in ("knockoff", "ko") and game.board.name == "standard":
        return TurnEstimator(game, iterations, seed)
    return Estimator(game, iterations, seed)


def shares_leaf(game: Any) -> Callable[[Any], List[float]]:
    """Three or four players: the players' chances as shares of one win, in the search's
    values (2 * share - 1; a finished game's are its result).

    The game's score is each player's own minus the best other's (`heuristics.evaluate`
    squashes it per player, so at the start every player had 0.5 and the chances added up
    to 1.5 or 2, while a result adds up to 1).  Those differences give each player's own
    score up to a common shift (the leader's taken as 0, every other's is its difference),
    and the shares are their softmax, at the slope the two-player squash has: with two
    players it is exactly (1 + tanh(d / scale)) / 2.  A softmax does not move when every
    score moves alike, so the progress each player makes on its own turn is not taken for
    a lead: over a round of turns it cancels, where shares of the squashed differences
    favoured whoever had just moved, and the sum check missed by 2 in long games."""
    from ..bots.heuristics import scorer_for, terminal_values
    from .. import registry
    scorer = scorer_for(game.name)
    slope = 2.0 / registry.entry(game.name).scale
    n = game.num_players

    def shares(state: Any) -> List[float]:
        if state.is_terminal():
            return terminal_values(state)
        diff = [scorer(state, p) for p in range(n)]
        leader = max(range(n), key=lambda p: diff[p])
        own = [0.0 if p == leader else diff[p] for p in range(n)]
        top = max(own)
        weights = [math.exp(slope * (x - top)) for x in own]
        total = sum(weights)
        return [2.0 * w / total - 1.0 for w in weights]
    return shares


EXPECT = "expect"       # a roll valued as the average over its outcomes


def learnt_roll(game: Any, model: Any = None) -> Optional[Callable[[Any], Any]]:
    """Dodgeball: at a turn's end (the dice for the next turn being rolled) the learnt value
    itself (the review's, or `model` where one is given), in the search's values (-1 to
    1), or EXPECT; None elsewhere, and for other games."""
    if game.name != "dodgeball":
        return None
    from ..bots.dodgeball_value import load_review_model, turn_over
    model = model or load_review_model()

    def known(state: Any) -> Any:
        if not turn_over(state):
            return None
        # The dice are rolled one at a time, and the value is learnt for a turn's end with
        # any of them rolled; valued at the last one only (the ones before: the average
        # over their outcomes), a turn's end has one value, not three that disagree.
        after = state.clone()
        after.apply(state.chance_outcomes()[0][0])
        if turn_over(after):
            return EXPECT
        p = model.value(state, 0)
        return [2 * p - 1, 1 - 2 * p]
    return known


class _Search(StrongBot):
    """The strong bot's search, its moves ordered by the plain score at the root too: the
    review searches every position of a game, and the root's averaging over the chance step
    that may follow a move cost more than the search itself (K.O.: 21 rolls a move)."""

    def _ordered_actions(self, state: Any, player: int, at_root: bool) -> List[int]:
        return super()._ordered_actions(state, player, False)


class Estimator:
    """`chances(state)`: each player's chance to win; `best(state)`: the move the search
    finds best at a decision.  One per game (its leaf), `iterations` a position;
    `value_model`: a Dodgeball value other than the review's, for its leaves and turn
    ends (`benchmarks/train_dodgeball_review.py` tries refitted ones)."""

    def __init__(self, game: Any, iterations: int = DEFAULT_ITERATIONS, seed: int = 0,
                 value_model: Any = None) -> None:
        if type(iterations) is not int or iterations < 1:
            raise ValueError(f"iterations {iterations!r}: a whole number from 1")
        self.game = game
        self.iterations = iterations
        self.seed = seed
        leaf = learnt_leaf(game, value_model)
        self.learnt = leaf is not None
        self.leaf = leaf or (evaluate if game.num_players == 2 else shares_leaf(game))
        # Where the learnt value knows a roll's position, it values it without a search.
        self.known = learnt_roll(game, value_model)
        self._known: Dict[str, Tuple[Chances, Any]] = {}
        self.searches = 0           # positions searched (not answered from memory)
        # True: a decision's value is not its best move's for the others, and the review
        # takes the decision's own value as its *before* (`indifferent_mover`)
        self.indifferent = False
        self._chain: set = set()    # decisions being valued through their best moves

    def chances(self, state: Any) -> Chances:
        return self._look(state)[0]

    def _expectation(self, state: Any) -> Chances:
        return _expectation_of(self, state.clone())

    def consider(self, state: Any, action: Any) -> None:
        """A decision of the game being reviewed, with the move played there: where that move
        is better for the mover than the search's best, the position is worth it (and it
        is the best move), so a position and the better of its two valued moves agree.  A
        review calls it from the game's end backwards, so that the positions leading here
        are valued through the settled value."""
        value, best = self._look(state)
        if action == best:
            return
        state.apply(action)
        try:
            played = self.chances(state)
        finally:
            state.undo()
        player = state.current_player()
        if played[player] > value[player]:
            self._known[state.to_position()] = (played, action)

    def best(self, state: Any) -> Any:
        """The most visited move of the search (ties: the higher mean, then the greedy
        order); ValueError where nobody decides."""
        if state.is_terminal() or state.is_chance_node():
            raise ValueError("no decision here")
        return self._look(state)[1]

    def _look(self, state: Any) -> Tuple[Chances, Any]:
        key = state.to_position()
        found = self._known.get(key)
        if found is None:
            found = self._known[key] = self._search(state)
        return found

    def _search(self, state: Any) -> Tuple[Chances, Any]:
        if state.is_terminal():
            return tuple(win_shares(state.returns())), None
        if state.is_chance_node() and self.known is not None:
            known = self.known(state)
            if known == EXPECT:
                return self._expectation(state), None
            if known is not None:
                return _chances(known, 1), None
        self.searches += 1
        bot = _Search(seed=self.seed, budget=None, iterations=self.iterations,
                      leaf=self.leaf)
        root, _, _ = bot.search_tree(state)
        if state.is_chance_node():
            return _chances(root.w, root.n), None
        order = {a: i for i, a in enumerate(root.actions)}
        player = state.current_player()
        action, child = max(((a, c) for a, c in root.children.items() if c.n),
                            key=lambda ac: (ac[1].n, ac[1].w[player] / ac[1].n,
                                            -order[ac[0]]))
        key = state.to_position()
        if len(self._chain) < CHAIN and key not in self._chain:
            # A decision is worth what its best move is worth, valued as that position is,
            # on to the next roll: a position and its best move then agree, and the review's
            # sum has slack only at the rolls (a roll's search against its outcomes).
            self._chain.add(key)
            try:
                after = state.clone()
                after.apply(action)
                return self.chances(after), action
            finally:
                self._chain.discard(key)
        return _chances(child.w, child.n), action


def _expectation_of(estimator: "Estimator", state: Any) -> Chances:
    total = [0.0] * state.game.num_players
    for outcome, p in state.chance_outcomes():
        state.apply(outcome)
        try:
            values = estimator.chances(state)
        finally:
            state.undo()
        total = [t + p * v for t, v in zip(total, values)]
    return tuple(total)


def _chances(w: List[float], n: int) -> Chances:
    return tuple((1.0 + x / n) / 2.0 for x in w)


# With three or more players, the turn ends that the mover values within this of its best
# are taken as equally likely for the others: a seat that cannot win values its ends almost
# alike, and which other seat its best end knocks was decided by fractions of a percent of
# its own share, a choice the learnt shares before its throw could not foresee (three-player
# K.O.'s slack, with shares refitted under this rule: 0.37 a player on average over 88
# seeded games, against 0.71 before; docs/review.md, "An indifferent mover").
INDIFFERENT = 0.01


def indifferent_mover(candidates: List[Tuple[Chances, Any]],
                      mover: int) -> Tuple[Chances, Any]:
    """A decision's value and best move from its candidates, (chances, move) each: the move
    of the first best for the mover; the mover's chance its best, the others' the average
    over the candidates within INDIFFERENT of that, scaled to add up to one with it.  Two
    players: the best candidate's chances (the other's is one minus the mover's)."""
    top, move = max(candidates, key=lambda candidate: candidate[0][mover])   # the first best
    n = len(top)
    near = [c for c, _ in candidates if c[mover] >= top[mover] - INDIFFERENT]
    if n < 3 or len(near) == 1:
        return top, move
    mean = [sum(c[p] for c in near) / len(near) for p in range(n)]
    rest = 1.0 - mean[mover]
    scale = (1.0 - top[mover]) / rest if rest > 0.0 else 0.0
    return tuple(top[p] if p == mover else mean[p] * scale for p in range(n)), move


class TurnEstimator(Estimator):
    """Knock-Off on the standard board, and K.O.: the strong bot's own turn search with the
    look one turn further left out (`bots/knockoff_search.py`).  Where a player is about to
    roll, the learnt value (two-player Knock-Off: `bots/knockoff_value.py`; three or four:
    the learnt shares, `bots/knockoff_shares.py`; K.O.: its learnt shares,
    `bots/ko_shares.py`); at a decision of a turn, the learnt value of the best end of the
    mover's turn, best by the mover's own chance (every end listed, so the budget is the
    whole turn and `iterations` is not used); with three or four players the others' chances
    there are the average over the ends the mover values alike (`indifferent_mover`).  A
    position and the best move from it then agree exactly for the mover, and the review
    takes the position's own value as a decision's *before* (`indifferent`), so that the
    estimator's only inconsistency is at the rolls: the learnt value
    against the average, over the 21 rolls, of the roller's best turn.  The roll-off that
    decides who begins is taken exactly; K.O.'s secret set-up keeps the search (`Estimator`),
    each placement valued through the best one, on to the roll-off.  `ko_shares`: K.O.'s
    shares other than the committed ones (`benchmarks/review_slack.py --shares` tries a
    trainer's candidate)."""

    def __init__(self, game: Any, iterations: int = DEFAULT_ITERATIONS, seed: int = 0,
                 ko_shares: Any = None) -> None:
        super().__init__(game, iterations, seed)
        self.ko = game.name == "ko"
        if self.ko:
            from ..bots.ko_shares import load_model as load_ko
            self.ko_shares = ko_shares or load_ko(game.num_players)
            self._ko_valued: Dict[Tuple[Any, ...], Chances] = {}
            self.learnt_chances: Callable[[Any], Chances] = self._ko_learnt
        elif game.num_players == 2:
            from ..bots.knockoff_value import load_model
            model = load_model()

            def two(state: Any) -> Chances:
                p = model.value(state, 0)
                return (p, 1.0 - p)
            self.learnt_chances = two
        else:
            from ..bots.knockoff_shares import load_model as load_shares
            shares = load_shares(game.num_players)
            self.learnt_chances = lambda state: tuple(shares.shares(state))
        self.learnt = True
        self.indifferent = game.num_players >= 3

    def _search(self, state: Any) -> Tuple[Chances, Any]:
        if state.is_terminal():
            return tuple(win_shares(state.returns())), None
        if self.ko:
            from ..games.ko.constants import ROLLOFF, SETUP
            if state.phase == SETUP:
                return super()._search(state)
            if state.phase == ROLLOFF:
                return self._ko_roll_off(state), None
            if state.is_chance_node():
                return self.learnt_chances(state), None
            if len(state.tasks) > 1:
                return self._ko_first_move(state)
            from ..bots.ko_turns import turn_ends
        else:
            if state.is_chance_node():
                from ..games.knockoff.game import ROLL
                if state.phase == ROLL:
                    return self.learnt_chances(state), None
                return self._roll_off(state), None
            from ..bots.knockoff_search import turn_ends
        self.searches += 1
        state = state.clone()           # turn_ends plays the turns on it
        mover = state.current_player()
        ends: List[Tuple[Chances, Any]] = []        # (chances, first action)

        def end(path: Tuple[Any, ...]) -> None:
            ends.append((self.learnt_chances(state), path[0] if path else None))
        turn_ends(state, end)
        return indifferent_mover(ends, mover)

    def _ko_learnt(self, state: Any) -> Chances:
        """K.O.'s learnt shares, each position's kept while one turn is valued
        (`_ko_first_move`): the ends of its first moves overlap (two moves in either
        order).  Kept for the whole review they took 115 MB more for 1% less time."""
        key = (tuple(state.occ), state.phase, state.cur, state.quiet, state.tasks)
        found = self._ko_valued.get(key)
        if found is None:
            found = self._ko_valued[key] = tuple(self.ko_shares.shares(state))
        return found

    def _ko_first_move(self, state: Any) -> Tuple[Chances, Any]:
        """A K.O. decision with both moves of the turn to make: a K.O. turn has up to
        thousands of ends (each move tens of ways, in either order), too many to value at
        every outcome of every throw, so only the KO_FIRST_MOVES first moves best by the
        learnt shares of the position they leave (the mover's) are followed to every end of
        the turn; a move that ends the turn by itself (a pass, the last knock-out) is an end.
        The decision after the first move values every end from there, so a decision and
        its best move still agree exactly (and a first move played outside the few is
        valued by its own ends, `Estimator.consider`)."""
        self.searches += 1
        self._ko_valued.clear()         # kept for this turn only (its two move orders)
        state = state.clone()
        mover = state.current_player()
        ranked: List[Tuple[float, int, int, Any, Optional[Chances]]] = []
        for order, action in enumerate(state.legal_actions()):
            state.apply(action)
            if state.is_chance_node() or state.is_terminal():
                chances = self.learnt_chances(state)
                ranked.append((chances[mover], 1, -order, action, tuple(chances)))
            else:
                share = self.learnt_chances(state)[mover]
                ranked.append((share, 0, -order, action, None))
            state.undo()
        ranked.sort(reverse=True)
        candidates: List[Tuple[Chances, Any]] = []
        followed = 0
        for _, ended, _, action, known in ranked:
            if known is not None:
                chances = known
            elif followed == KO_FIRST_MOVES:
                continue
            else:
                followed += 1
                state.apply(action)
                chances = self.chances(state)
                state.undo()
            candidates.append((chances, action))
        return indifferent_mover(candidates, mover)

    def _roll_off(self, state: Any) -> Chances:
        """Who begins: the average over the dice still to roll; where every player still in
        the roll-off has yet to roll (its start, or a tie rolled again), each of them begins
        with the same chance, so the average over who begins (no loop through the ties)."""
        from ..games.knockoff.game import OUT_OF_ROLLOFF, TO_ROLL
        rolls = state.rolls
        if all(r in (TO_ROLL, OUT_OF_ROLLOFF) for r in rolls):
            # the dice that make `first` begin: a 6 for it, a 1 for the others still in
            return self._each_begins(state, [p for p, r in enumerate(rolls) if r == TO_ROLL],
                                     6, 1)
        return _expectation_of(self, state)

    def _ko_roll_off(self, state: Any) -> Chances:
        """K.O.'s roll-off (two dice a seat, the highest sum begins, the tied throw again),
        as Knock-Off's: where every seat still in it has yet to throw, each begins with the
        same chance; otherwise the average over the throw."""
        from ..games.ko.constants import DROPPED, TO_THROW
        rolls = state.rolloff or ()
        if all(r in (TO_THROW, DROPPED) for r in rolls):
            low, high = state.game.roll_outcomes[0][0], state.game.roll_outcomes[-1][0]
            return self._each_begins(state, [p for p, r in enumerate(rolls) if r == TO_THROW],
                                     high, low)
        return _expectation_of(self, state)

    def _each_begins(self, state: Any, seats: List[int], high: Any, low: Any) -> Chances:
        """The average, over the seats still in a roll-off (none of them thrown yet), of the
        chances where that seat begins: reached by throwing `high` for it and `low` for
        the others, in the order they throw."""
        total = [0.0] * state.game.num_players
        for first in seats:
            throws = [high if p == first else low for p in seats]
            for throw in throws:
                state.apply(throw)
            c = self.chances(state)
            for _ in throws:
                state.undo()
            total = [t + x / len(seats) for t, x in zip(total, c)]
        return tuple(total)
