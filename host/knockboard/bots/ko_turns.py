"""Every end of a K.O. turn: the positions the mover's two moves (or its passes) can leave,
each once, as `knockoff_search.turn_ends` lists Knock-Off's.  The review values a K.O.
decision by the best of them (`review/estimator.py`)."""

from typing import Any, Callable, Tuple

from .knockoff_search import Path, turn_ends as _turn_ends


def turn_key(state: Any) -> Tuple[Any, ...]:
    """What tells two ends of one turn apart: where the pieces stand (the phase, who throws
    next and the quiet turns (KO-3) follow from it within a turn, and are kept for safety)."""
    return (tuple(state.occ), state.phase, state.cur, state.quiet)


def turn_ends(state: Any, visit: Callable[[Path], None]) -> None:
    """Calls visit(path) in every distinct position where the K.O. mover's turn (from this
    decision in it) has ended, `state` standing in that position; path: the actions."""
    _turn_ends(state, visit, key=turn_key)
