"""A saved game replayed and valued step by step: each decision's error, each roll's luck.

With V the estimator's chances (`estimator.py`), along the game

    V(end) - V(start) = sum over steps of (V after the step - V before it)

and each step's "before" is defined so that the terms are what a player reads:

- a decision of player m: *before* is the chance after the best move the analysis finds
  (the better, for m, of the search's best move and the move played, each valued by V
  after it), *after* is V after the move played; m's **error** is before[m] - after[m]
  (never negative); for the other players after - before is what m's choice gave them
  (with three or more players, valued by whole turns, their *before* is the average over
  the ends m values alike: `estimator.indifferent_mover`);
- a chance node (a roll, electronic or entered): *before* is the expectation of V after
  each outcome, weighted by its probability; *after* is V after the outcome that came;
  **luck** (per player) is after - before.

So the sum holds exactly but for one term per step: the estimator's **inconsistency**,
the next step's *before* minus this step's *after* (the same position valued through its
own best move or its own rolls, against valued directly).  At a decision there is none: a
decision of the game is worth the better of its best move and the move played
(`Estimator.consider`), so only the rolls leave any.  It is reported (`drift`), and
`docs/review.md` says how big it is."""

from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional, Tuple, Union

from ..games import GameError
from ..store.entries import edited_position, round_number
from .estimator import Chances, Estimator, make_estimator
from .marks import error_mark


class ReviewError(ValueError):
    """A record that cannot be reviewed; the message is the one line to show."""


@dataclass
class Decision:
    ply: int                    # the entry's number in the record, from 1
    player: int
    move: str                   # the move played, in the game's notation
    best: str                   # the best move the analysis finds (maybe the one played)
    before: Chances             # V after the best move
    after: Chances              # V after the move played
    choices: int                # legal moves

    @property
    def error(self) -> float:
        return self.before[self.player] - self.after[self.player]

    @property
    def mark(self) -> Optional[str]:
        return error_mark(self.error)


@dataclass
class Roll:
    ply: int
    outcome: str
    player: int                 # whose roll: the player to act after it (-1: nobody)
    before: Chances             # the expectation over the outcomes
    after: Chances              # V after the outcome that came
    outcomes: int

    @property
    def luck(self) -> Tuple[float, ...]:
        return tuple(a - b for a, b in zip(self.after, self.before))

    @property
    def favoured(self) -> int:
        """The player the roll did the most good (in two-player games, the one whose luck
        is not negative): whom a line about the roll names."""
        luck = self.luck
        return max(range(len(luck)), key=lambda p: (luck[p], -p))


Step = Union[Decision, Roll]


@dataclass
class Review:
    game: str
    players: int
    iterations: int
    learnt_value: bool
    steps: List[Step] = field(default_factory=list)
    result: Tuple[float, ...] = ()          # each player's share of the win, from the engine

    @property
    def start(self) -> Chances:
        """The chance to win at the start, as the first step values it."""
        return self.steps[0].before if self.steps else self.result

    def drift(self) -> List[Tuple[float, ...]]:
        """Per step, the estimator's inconsistency: the next step's *before* (the end:
        the result) minus this step's *after*."""
        nexts = [s.before for s in self.steps[1:]] + [self.result]
        return [tuple(n - a for n, a in zip(nxt, s.after)) for s, nxt in zip(self.steps, nexts)]


Progress = Callable[[int, int], None]


def review_record(record: Any, estimator: Optional[Estimator] = None,
                  iterations: Optional[int] = None, seed: int = 0,
                  progress: Optional[Progress] = None) -> Review:
    """The review of a finished single game's record (a `store.GameRecord`).

    Raises ReviewError for a record that does not replay, an unfinished game, a game with
    edits or a match of several rounds."""
    entries = list(record.actions)
    for text in entries:
        if edited_position(text) is not None:
            raise ReviewError("its position was edited on the board during play: only a "
                              "game played move by move can be reviewed")
        if round_number(text) is not None:
            raise ReviewError("it is a match of several rounds: only a single game can be "
                              "reviewed")
    state = _start(record)
    moves = _parse_all(state.clone(), entries)
    final = state.clone()
    for action in moves:
        final.apply(action)
    if not final.is_terminal():
        raise ReviewError("the game is not over (" + (
            "ended by agreement or resignation" if record.status == "finished"
            else "still being played") + "): only a game played to its end can be reviewed")
    if estimator is None:
        estimator = make_estimator(state.game, iterations, seed)
    review = Review(record.game, state.game.num_players, estimator.iterations,
                    estimator.learnt)
    review.result = estimator.chances(final)
    n = len(moves)

    def report(done: int) -> None:        # two passes, each half of the work shown
        if progress is not None:
            progress(done // 2, n)
    # Backwards first: each decision of the game is worth the better, for its mover, of the
    # search's best move and the move played (`Estimator.consider`), and a position's value
    # must be settled before the positions leading to it are valued through it.
    path = [state.clone()]
    for action in moves[:-1]:
        path.append(path[-1].clone())
        path[-1].apply(action)
    for k in range(n - 1, -1, -1):
        report(n - 1 - k)
        if not path[k].is_chance_node():
            estimator.consider(path[k], moves[k])
    for ply, action in enumerate(moves, 1):
        report(n + ply - 1)
        review.steps.append(_step(estimator, state, action, ply))
        state.apply(action)
    report(2 * n)
    return review


def _start(record: Any) -> Any:
    try:
        return record.initial_state()
    except Exception as err:          # RecordError: an unknown game or option
        raise ReviewError(f"the record does not replay: {err}") from None


def _parse_all(state: Any, entries: List[str]) -> List[Any]:
    moves = []
    for ply, text in enumerate(entries, 1):
        try:
            action = state.parse_action(text)
            state.apply(action)
        except GameError as err:
            raise ReviewError(f"the record does not replay: action {ply} {text!r}: "
                              f"{err}") from None
        moves.append(action)
    return moves


def _step(estimator: Estimator, state: Any, action: Any, ply: int) -> Step:
    text = state.action_to_string(action)
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        expected = [0.0] * state.game.num_players
        after: Chances = ()
        player = -1
        for outcome, p in outcomes:
            state.apply(outcome)
            values = estimator.chances(state)
            if outcome == action:
                after = values
                player = state.current_player()
            state.undo()
            for i, v in enumerate(values):
                expected[i] += p * v
        return Roll(ply, text, max(player, -1), tuple(expected), after, len(outcomes))
    player = state.current_player()
    best = estimator.best(state)
    after = _after(estimator, state, action)
    before, best_text = after, text
    if estimator.indifferent:
        # the position's own value: for the mover its best move's, for the others the
        # average over the moves the mover values alike (`indifferent_mover`)
        before = estimator.chances(state)
        if before[player] > after[player]:
            best_text = state.action_to_string(best)
    elif best != action:
        valued = _after(estimator, state, best)
        if valued[player] > after[player]:
            before, best_text = valued, state.action_to_string(best)
    return Decision(ply, player, text, best_text, before, after, len(state.legal_actions()))


def _after(estimator: Estimator, state: Any, action: Any) -> Chances:
    state.apply(action)
    try:
        return estimator.chances(state)
    finally:
        state.undo()
