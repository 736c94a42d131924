"""KNOCKabout's position text (`docs/rules/knockabout.md`): the side to move, then each die
as `<cell>:<W|B><sides>=<face>` sorted by column then row, then `roll:<cell>` while a
reroll is due.  A die is stored as the code `owner << 8 | sides << 4 | face`."""

import re
from typing import List, Tuple

from ..base import PositionError
from ..position_text import split_fields
from .board import CELL_INDEX, CELL_NAMES, NUM_CELLS

WHITE, BLACK = 0, 1
COLOR_LETTERS = "WB"
COLOR_NAMES = ("White", "Black")
SIDES = (4, 6, 8)
DICE_PER_PLAYER = {4: 4, 6: 3, 8: 2}         # four d4, three d6, two d8
NO_CELL = -1
ROLLOFF_PENDING = -1                          # `side` before the roll-off has decided
_DIE_RE = re.compile(r"([A-M]\d{1,2}):([WB])([468])=([1-8])")


def die_code(owner: int, sides: int, face: int) -> int:
    return owner << 8 | sides << 4 | face


def parse_position(text: str) -> Tuple[List[int], int, int]:
    """`<side W|B|-> <cell>:<W|B><sides>=<face> ... [roll:<cell>]` -> (board, side, pending).

    `-` as the side is this project's extension of the grammar for the one state the rule
    sheet's grammar cannot express: before the roll-off (K-3) has decided who moves first."""
    tokens = split_fields(text, "empty position", sep=" ")
    if not text:
        raise PositionError("empty position")
    side_token = tokens[0]
    if side_token not in ("W", "B", "-"):
        raise PositionError(f"side to move {side_token!r} must be W, B or - (roll-off due)")
    side = "WB-".index(side_token)
    if side == 2:
        side = ROLLOFF_PENDING
    board = [0] * NUM_CELLS
    pending = NO_CELL
    counts = [dict.fromkeys(SIDES, 0), dict.fromkeys(SIDES, 0)]
    for number, token in enumerate(tokens[1:], 2):
        where = f"token {number} {token!r}"
        if pending != NO_CELL:
            raise PositionError(f"{where}: nothing may follow the roll:<cell> token")
        if token.startswith("roll:"):
            pending = _read_cell(where, token[5:])
            continue
        cell, owner, sides, face = _read_die(number, token)
        if board[cell]:
            raise PositionError(f"{where}: cell {CELL_NAMES[cell]} already holds a die")
        if face > sides:
            raise PositionError(f"{where}: a d{sides} shows 1-{sides}, not {face}")
        counts[owner][sides] += 1
        if counts[owner][sides] > DICE_PER_PLAYER[sides]:
            raise PositionError(f"{where}: {COLOR_NAMES[owner]} has only "
                                f"{DICE_PER_PLAYER[sides]} d{sides}")
        board[cell] = die_code(owner, sides, face)
    _check_pending(board, side, pending)
    return board, side, pending


def _read_cell(where: str, name: str) -> int:
    cell = CELL_INDEX.get(name)
    if cell is None:
        raise PositionError(f"{where}: no cell named {name!r}")
    return cell


def _read_die(number: int, token: str) -> Tuple[int, int, int, int]:
    """(cell, owner, sides, face) of a die token `D5:W4=1`."""
    m = _DIE_RE.fullmatch(token)
    where = f"token {number} {token!r}"
    if not m:
        raise PositionError(f"{where}: a die is written <cell>:<W|B><4|6|8>=<face>, "
                            "e.g. D5:W4=1" if token else
                            f"token {number}: empty (tokens are separated by one space)")
    return _read_cell(where, m.group(1)), "WB".index(m.group(2)), int(m.group(3)), \
        int(m.group(4))


def _check_pending(board: List[int], side: int, pending: int) -> None:
    if pending == NO_CELL:
        return
    if not board[pending]:
        raise PositionError(f"roll:{CELL_NAMES[pending]}: no die there to reroll")
    if side == ROLLOFF_PENDING:
        raise PositionError("a reroll cannot be due before the roll-off")


def format_die(cell: int, code: int) -> str:
    return f"{CELL_NAMES[cell]}:{COLOR_LETTERS[code >> 8]}{code >> 4 & 15}={code & 15}"


def format_position(board: List[int], side: int, pending: int) -> str:
    """The position text of (board, side, pending), as `parse_position` reads it."""
    parts = ["-" if side == ROLLOFF_PENDING else COLOR_LETTERS[side]]
    parts.extend(format_die(c, board[c]) for c in range(NUM_CELLS) if board[c])
    if pending != NO_CELL:
        parts.append("roll:" + CELL_NAMES[pending])
    return " ".join(parts)
