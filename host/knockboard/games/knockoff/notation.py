"""Knock-Off's actions, as ints, and their notation (`docs/rules/knockoff.md`): a move
`H1-2a` or `3c-5c`, `pass`, a turn's roll `roll 3-4`, a roll-off die `roll 5`.

Actions are ints:
    PASS                          end the turn, forfeiting the unused dice
    1..6                          a roll-off die
    10*a + b  (1 <= a <= b <= 6)  a turn's two dice
    MOVE_BASE + src*nodes + dst   a pawn from node src (platform or home base) to platform dst
"""

import re

from ..base import Action, NotationError
from .board import KnockoffBoard

PASS = 0
MOVE_BASE = 100

TURN_ROLLS = tuple(10 * a + b for a in range(1, 7) for b in range(a, 7))
TURN_ROLL_SET = frozenset(TURN_ROLLS)

_ROLL_RE = re.compile(r"roll\s*([1-6])(?:\s*[-,]?\s*([1-6]))?")
_MOVE_RE = re.compile(r"(H[1-9][0-9]*|[1-9][0-9]*[a-z]+)-(H[1-9][0-9]*|[1-9][0-9]*[a-z]+)")


def action_to_string(board: KnockoffBoard, action: Action) -> str:
    """The notation of an action on `board`, whatever the position; NotationError for none."""
    if type(action) is int:
        if action == PASS:
            return "pass"
        if 1 <= action <= 6:
            return f"roll {action}"
        if action in TURN_ROLL_SET:
            return f"roll {action // 10}-{action % 10}"
        nodes = board.num_nodes
        if MOVE_BASE <= action < MOVE_BASE + nodes * nodes:
            src, dst = divmod(action - MOVE_BASE, nodes)
            names = board.names
            return f"{names[src]}-{names[dst]}"
    raise NotationError(f"{action!r} is not a Knock-Off action")


def read_notation(board: KnockoffBoard, text: object) -> int:
    """The action `text` names on `board`, whatever the position; NotationError if none."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not Knock-Off notation")
    cleaned = text.strip()
    lowered = cleaned.lower()
    if lowered == "pass":
        action = PASS
    elif (m := _ROLL_RE.fullmatch(lowered)):
        a, b = int(m.group(1)), m.group(2)
        action = a if b is None else 10 * min(a, int(b)) + max(a, int(b))
    elif (m := _MOVE_RE.fullmatch(_canon_names(cleaned))):
        index = board.index
        src, dst = m.group(1), m.group(2)
        for name in (src, dst):
            if name not in index:
                raise NotationError(f"{text!r}: no platform or home base {name} on the "
                                    f"{board.name} board")
        action = MOVE_BASE + index[src] * board.num_nodes + index[dst]
    else:
        raise NotationError(f"{text!r} is not Knock-Off notation (expected a move like "
                            f"H1-1a or 3c-5c, 'pass', or a roll like 'roll 3-4' or "
                            f"'roll 5')")
    return action


def _canon_names(text: str) -> str:
    """Home bases upper case, platforms lower case, so `h1-1A` reads as `H1-1a`."""
    return "-".join(part.upper() if part[:1] in "hH" else part.lower()
                    for part in text.split("-"))
