"""Dodgeball's actions, as ints, and their notation (`docs/rules/dodgeball.md`):
`place b1`, `3:move b1-c3`, `5:pass c3-e4`, `4:throw c3-d6`, `catch`, `dodge`, `roll 4`,
`ball e5`, `end`."""

import re
from typing import Tuple

from ..base import Action, NotationError
from .board import SQUARE_NAMES, SQUARES

# An action is an int: kind in the low 4 bits, then die value (3 bits), from square (6 bits)
# and to square (6 bits).  Chance outcomes are ROLL actions.

PLACE, MOVE, PASS, THROW, CATCH, DODGE, END, ROLL, BALL = range(1, 10)
KIND_NAMES = {MOVE: "move", PASS: "pass", THROW: "throw"}


def make_action(kind: int, die: int = 0, a: int = 0, b: int = 0) -> int:
    return kind | die << 4 | a << 7 | b << 13


def decode(action: int) -> Tuple[int, int, int, int]:
    return action & 15, action >> 4 & 7, action >> 7 & 63, action >> 13 & 63


ROLLS = tuple(make_action(ROLL, v) for v in range(1, 7))
ROLL_OUTCOMES = [(a, 1 / 6) for a in ROLLS]
CATCH_ACTION, DODGE_ACTION, END_ACTION = make_action(CATCH), make_action(DODGE), make_action(END)

_SQ = "([a-h][1-8])"
_NOTATION = [
    (re.compile(rf"place {_SQ}"), lambda m: make_action(PLACE, 0, SQUARES[m[1]])),
    (re.compile(rf"([1-6]):(move|pass|throw) {_SQ}-{_SQ}"),
     lambda m: make_action({"move": MOVE, "pass": PASS, "throw": THROW}[m[2]], int(m[1]),
                       SQUARES[m[3]], SQUARES[m[4]])),
    (re.compile(r"catch"), lambda m: CATCH_ACTION),
    (re.compile(r"dodge"), lambda m: DODGE_ACTION),
    (re.compile(r"end"), lambda m: END_ACTION),
    (re.compile(r"roll ([1-6])"), lambda m: make_action(ROLL, int(m[1]))),
    (re.compile(rf"ball {_SQ}"), lambda m: make_action(BALL, 0, SQUARES[m[1]])),
]


def action_to_string(action: Action) -> str:
    if not isinstance(action, int) or action < 0 or action >> 19:
        raise NotationError(f"{action!r} is not a dodgeball action")
    kind, die, a, b = decode(action)
    if kind in KIND_NAMES and 1 <= die <= 6:
        return f"{die}:{KIND_NAMES[kind]} {SQUARE_NAMES[a]}-{SQUARE_NAMES[b]}"
    if kind == ROLL and 1 <= die <= 6:
        return f"roll {die}"
    if kind == PLACE:
        return f"place {SQUARE_NAMES[a]}"
    if kind == BALL:
        return f"ball {SQUARE_NAMES[a]}"
    if action == CATCH_ACTION:
        return "catch"
    if action == DODGE_ACTION:
        return "dodge"
    if action == END_ACTION:
        return "end"
    raise NotationError(f"{action!r} is not a dodgeball action")


def parse_notation(text: object) -> int:
    """The action `text` names, whatever the position; NotationError if it names none."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not dodgeball notation")
    norm = " ".join(text.lower().split())
    for pattern, build in _NOTATION:
        m = pattern.fullmatch(norm)
        if m:
            return build(m)
    raise NotationError(
        f"{text!r} is not dodgeball notation (expected e.g. 'place b1', '3:move b1-c3', "
        "'5:pass c3-e4', '4:throw c3-d6', 'catch', 'dodge', 'roll 4', 'ball e5', 'end')")

