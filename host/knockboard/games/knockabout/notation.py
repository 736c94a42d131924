"""KNOCKabout's actions, as ints, and their notation (`docs/rules/knockabout.md`): a move
`F3-N` (the cell, the direction), a reroll `roll 5`, the roll-off `roll 6-2` (White's
die, Black's), and `pass` (K-4).

A move is `cell * 6 + direction`; ROLL + face is a reroll, ROLLOFF + 10 * white + black
the starting roll-off (K-3), PASS K-4's pass."""

import re

from ..base import Action, NotationError
from .board import CELL_INDEX, CELL_NAMES, DIRECTION_INDEX, DIRECTIONS, NUM_CELLS

ROLL = 1000
ROLLOFF = 2000
PASS = 3000
NUM_MOVES = NUM_CELLS * 6
ROLLOFF_CODES = frozenset(10 * w + b for w in range(1, 7) for b in range(1, 7))

_MOVE_RE = re.compile(r"([A-M])(\d{1,2})-(NE|NW|SE|SW|N|S)")
_ROLL_RE = re.compile(r"roll ([1-8])")
_ROLLOFF_RE = re.compile(r"roll ([1-6])-([1-6])")


def action_to_string(action: Action) -> str:
    """The notation of an action, whatever the position; NotationError for none."""
    if action == PASS:
        return "pass"
    if isinstance(action, int) and 0 <= action < NUM_MOVES:
        cell, d = divmod(action, 6)
        return f"{CELL_NAMES[cell]}-{DIRECTIONS[d]}"
    if isinstance(action, int) and ROLL < action <= ROLL + 8:
        return f"roll {action - ROLL}"
    if isinstance(action, int) and action - ROLLOFF in ROLLOFF_CODES:
        white, black = divmod(action - ROLLOFF, 10)
        return f"roll {white}-{black}"
    raise NotationError(f"{action!r} is not a KNOCKabout action")


def parse_notation(text: object) -> int:
    """The action `text` names, whatever the position; NotationError if it names none."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a move")
    if text == "pass":
        return PASS
    m = _MOVE_RE.fullmatch(text)
    if m:
        cell = CELL_INDEX.get(m.group(1) + m.group(2))
        if cell is None:
            raise NotationError(f"{text!r}: no cell named {m.group(1) + m.group(2)}")
        return cell * 6 + DIRECTION_INDEX[m.group(3)]
    m = _ROLL_RE.fullmatch(text)
    if m:
        return ROLL + int(m.group(1))
    m = _ROLLOFF_RE.fullmatch(text)
    if m:
        return ROLLOFF + 10 * int(m.group(1)) + int(m.group(2))
    raise NotationError(f"{text!r} is not KNOCKabout notation (moves look like F3-N or A4-S, "
                        "rerolls like 'roll 5', the roll-off like 'roll 6-2', or 'pass')")
