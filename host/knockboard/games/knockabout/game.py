"""KNOCKabout (RULES.md section 1): dice that knock dice into the gutter.

State representation, chosen for speed: `board` is a list of 127 ints, 0 for an empty cell
and otherwise a die code `owner << 8 | sides << 4 | face`; `cells[p]` is the set of cells
holding player p's dice and `in_gutter[p]` their gutter count, both kept in step with the
board by `_put`, the only place the board is written.

Actions are ints: a move is `cell * 6 + direction`; chance outcomes are ROLL + face for a
reroll and ROLLOFF + 10 * white + black for the starting roll-off (K-3); PASS is K-4's pass.
"""

import re
from typing import Any, List, Optional, Set, Tuple

from ..base import (CHANCE, TERMINAL, Action, Game, IllegalMoveError, NotationError, PositionError,
                   State)
from ..view import KnockaboutView, PieceView, frozen_map
from .board import (AHEAD, CELL_INDEX, CELL_NAMES, DIRECTION_INDEX, DIRECTIONS,
                               IS_GUTTER, NUM_CELLS, RING_AHEAD, RING_ORIENTATION, mirror)
from ..position_text import split_fields

WHITE, BLACK = 0, 1
COLOR_LETTERS = "WB"
COLOR_NAMES = ("White", "Black")
SIDES = (4, 6, 8)
DICE_PER_PLAYER = {4: 4, 6: 3, 8: 2}         # four d4, three d6, two d8
GUTTER_LOSS = 5
NO_CELL = -1
ROLLOFF_PENDING = -1                          # `side` before the roll-off has decided

ROLL = 1000
ROLLOFF = 2000
PASS = 3000
NUM_MOVES = NUM_CELLS * 6

# White's set-up; Black's mirrors it within each column (RULES.md 1, Pieces and set-up).
WHITE_SETUP = (("D5", 4, 1), ("F6", 4, 1), ("H6", 4, 1), ("J5", 4, 1),
               ("E4", 6, 2), ("G5", 6, 2), ("I4", 6, 2),
               ("F3", 8, 3), ("H3", 8, 3))


def die_code(owner: int, sides: int, face: int) -> int:
    return owner << 8 | sides << 4 | face


def _standard_board() -> List[int]:
    board = [0] * NUM_CELLS
    for name, sides, face in WHITE_SETUP:
        board[CELL_INDEX[name]] = die_code(WHITE, sides, face)
        board[CELL_INDEX[mirror(name)]] = die_code(BLACK, sides, face)
    return board


# Per cell, the moves a die standing there may make: all six directions on the main board,
# the two ways round the ring in the gutter.  Move generation is a lookup, not a search.
_MOVES_FROM = [
    tuple(cell * 6 + d for d in sorted(RING_ORIENTATION[cell])) if IS_GUTTER[cell]
    else tuple(cell * 6 + d for d in range(6))
    for cell in range(NUM_CELLS)]
_ROLL_OUTCOMES = {s: [(ROLL + f, 1.0 / s) for f in range(1, s + 1)] for s in SIDES}
_ROLLOFF_OUTCOMES = [(ROLLOFF + 10 * w + b, 1.0 / 36) for w in range(1, 7) for b in range(1, 7)]

_MOVE_RE = re.compile(r"([A-M])(\d{1,2})-(NE|NW|SE|SW|N|S)")
_ROLL_RE = re.compile(r"roll ([1-8])")
_ROLLOFF_RE = re.compile(r"roll ([1-6])-([1-6])")
_DIE_RE = re.compile(r"([A-M]\d{1,2}):([WB])([468])=([1-8])")


class KnockaboutGame(Game):
    name = "knockabout"
    title = "KNOCKabout"
    # K-3: the roll-off decides who starts; `first=white` fixes White to start.
    OPTIONS = {"first": ("rolloff", ("rolloff", "white"))}

    @property
    def num_players(self) -> int:
        return 2

    def player_name(self, player: int) -> str:
        return COLOR_NAMES[player]

    def new_initial_state(self) -> "KnockaboutState":
        side = WHITE if self.options["first"] == "white" else ROLLOFF_PENDING
        return KnockaboutState(self, _standard_board(), side, NO_CELL)

    def analysis_start(self) -> "KnockaboutState":
        return KnockaboutState(self, _standard_board(), WHITE, NO_CELL)

    def from_position(self, text: str) -> "KnockaboutState":
        return KnockaboutState(self, *parse_position(text))


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


class KnockaboutState(State):
    NOTHING_TO_UNDO = "nothing to undo"

    def __init__(self, game: Game, board: List[int], side: int, pending: int) -> None:
        super().__init__(game)
        self.board = board
        # During a pending reroll `side` is the player whose move the reroll completes (K-1
        # needs to know who moved); otherwise the player to move.
        self.side = side
        self.pending = pending
        self.cells: Tuple[Set[int], Set[int]] = (set(), set())
        self.in_gutter = [0, 0]
        for cell, code in enumerate(board):
            if code:
                self.cells[code >> 8].add(cell)
                self.in_gutter[code >> 8] += IS_GUTTER[cell]

    # --- queries ----------------------------------------------------------------------------
    def winner(self) -> Optional[int]:
        """The winning player, or None while the game goes on (K-1, K-2)."""
        if self.pending != NO_CELL or self.side == ROLLOFF_PENDING:
            return None                      # K-2: decided only after the reroll
        white_out = self.in_gutter[WHITE] >= GUTTER_LOSS
        black_out = self.in_gutter[BLACK] >= GUTTER_LOSS
        if white_out and black_out:
            return self.side                 # K-1: the mover loses; `side` is the other one
        if white_out:
            return BLACK
        if black_out:
            return WHITE
        return None

    def current_player(self) -> int:
        if self.pending != NO_CELL or self.side == ROLLOFF_PENDING:
            return CHANCE
        if self.winner() is not None:
            return TERMINAL
        return self.side

    def legal_actions(self) -> List[Action]:
        if self.pending != NO_CELL:
            return [ROLL + f for f in range(1, (self.board[self.pending] >> 4 & 15) + 1)]
        if self.side == ROLLOFF_PENDING:
            return [a for a, _ in _ROLLOFF_OUTCOMES]
        if self.winner() is not None:
            return []
        moves: List[Action] = []
        for cell in sorted(self.cells[self.side]):
            moves.extend(_MOVES_FROM[cell])
        return moves or [PASS]               # K-4

    def chance_outcomes(self) -> List[Tuple[Action, float]]:
        if self.pending != NO_CELL:
            return list(_ROLL_OUTCOMES[self.board[self.pending] >> 4 & 15])
        if self.side == ROLLOFF_PENDING:
            return list(_ROLLOFF_OUTCOMES)
        return []

    def returns(self) -> List[float]:
        w = self.winner()
        if w is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if w == WHITE else [-1.0, 1.0]

    def result(self) -> Optional[str]:
        w = self.winner()
        return None if w is None else f"{COLOR_NAMES[w]} wins"

    # --- playing ----------------------------------------------------------------------------
    def _put(self, cell: int, code: int, changes: List[Tuple[int, int]]) -> None:
        old = self.board[cell]
        changes.append((cell, old))
        if old:
            self.cells[old >> 8].discard(cell)
            self.in_gutter[old >> 8] -= IS_GUTTER[cell]
        if code:
            self.cells[code >> 8].add(cell)
            self.in_gutter[code >> 8] += IS_GUTTER[cell]
        self.board[cell] = code

    def _check_action(self, action: Action) -> None:
        """Raise IllegalMoveError unless `action` is legal here (without listing them all)."""
        if self.pending != NO_CELL:
            sides = self.board[self.pending] >> 4 & 15
            if not (isinstance(action, int) and ROLL < action <= ROLL + sides):
                raise IllegalMoveError(
                    f"a reroll of the d{sides} on {CELL_NAMES[self.pending]} is due "
                    f"(roll 1..{sides})")
            return
        if self.side == ROLLOFF_PENDING:
            if not (isinstance(action, int) and action - ROLLOFF in _ROLLOFF_CODES):
                raise IllegalMoveError("the roll-off is due (roll <white 1-6>-<black 1-6>)")
            return
        if self.winner() is not None:
            raise IllegalMoveError(f"the game is over ({self.result()})")
        if action == PASS:
            if self.cells[self.side]:
                raise IllegalMoveError(f"{COLOR_NAMES[self.side]} has a legal move: "
                                       "passing is only for a player who cannot move (K-4)")
            return
        if not (isinstance(action, int) and 0 <= action < NUM_MOVES):
            if isinstance(action, int) and action > ROLL:
                raise IllegalMoveError(f"no roll is due: {COLOR_NAMES[self.side]} to move")
            raise IllegalMoveError(f"{action!r} is not a KNOCKabout action")
        cell, d = divmod(action, 6)
        code = self.board[cell]
        if not code or code >> 8 != self.side:
            raise IllegalMoveError(f"no {COLOR_NAMES[self.side]} die on {CELL_NAMES[cell]}")
        if action not in _MOVES_FROM[cell]:
            ways = " or ".join(f"{CELL_NAMES[cell]}-{DIRECTIONS[x]}"
                               for x in sorted(RING_ORIENTATION[cell]))
            raise IllegalMoveError(f"a gutter die only moves along the gutter ({ways})")

    def _apply_action(self, action: Any, checked: None) -> Any:
        changes: List[Tuple[int, int]] = []
        side, pending = self.side, self.pending
        if pending != NO_CELL:
            code = self.board[pending]
            self._put(pending, (code & ~15) | (action - ROLL), changes)
            self.pending = NO_CELL
            self.side = side ^ 1
        elif side == ROLLOFF_PENDING:
            white, black = divmod(action - ROLLOFF, 10)
            if white != black:               # K-3: a tie rolls again
                self.side = WHITE if white > black else BLACK
        elif action == PASS:
            self.side = side ^ 1
        else:
            cell, d = divmod(action, 6)
            last_hit = self._move(cell, d, changes)
            if last_hit == NO_CELL:
                self.side = side ^ 1
            else:
                self.pending = last_hit
        return side, pending, changes

    def _move(self, cell: int, d: int, changes: List[Tuple[int, int]]) -> int:
        """Move the die on `cell` with its chain of collisions; return the cell where the
        last die hit ended up, or NO_CELL when nothing was hit."""
        board = self.board
        remaining = board[cell] & 15
        # One walk serves both kinds of move; they differ in the table of next cells and in
        # that a straight-moving die stops on entering the gutter, and a die hit in the
        # gutter by a straight move cannot move at all (the occupied-gutter rule).
        if IS_GUTTER[cell]:
            ahead, straight = RING_AHEAD[RING_ORIENTATION[cell][d]], False
        else:
            ahead, straight = AHEAD[d], True
        current = cell
        last_hit = NO_CELL
        while remaining:
            if straight and IS_GUTTER[current]:
                break
            nxt = ahead[current]
            if board[nxt]:
                last_hit = current = nxt                # the hit die takes the rest
                continue
            stop = nxt
            remaining -= 1
            while remaining and not (straight and IS_GUTTER[stop]):
                nxt = ahead[stop]
                if board[nxt]:
                    break
                stop = nxt
                remaining -= 1
            self._put(stop, board[current], changes)
            self._put(current, 0, changes)
            current = stop
        return NO_CELL if last_hit == NO_CELL else current

    def _undo_action(self, record: Any) -> None:
        side, pending, changes = record
        scratch: List[Tuple[int, int]] = []
        for cell, old in reversed(changes):
            self._put(cell, old, scratch)
        self.side, self.pending = side, pending

    def clone(self) -> "KnockaboutState":
        other = KnockaboutState(self.game, list(self.board), self.side, self.pending)
        other.history = list(self.history)
        other._undo = list(self._undo)
        return other

    # --- text -------------------------------------------------------------------------------
    def to_position(self) -> str:
        side = "-" if self.side == ROLLOFF_PENDING else COLOR_LETTERS[self.side]
        parts = [side]
        board = self.board
        parts.extend(format_die(c, board[c]) for c in range(NUM_CELLS) if board[c])
        if self.pending != NO_CELL:
            parts.append("roll:" + CELL_NAMES[self.pending])
        return " ".join(parts)

    def action_to_string(self, action: Action) -> str:
        if action == PASS:
            return "pass"
        if isinstance(action, int) and 0 <= action < NUM_MOVES:
            cell, d = divmod(action, 6)
            return f"{CELL_NAMES[cell]}-{DIRECTIONS[d]}"
        if isinstance(action, int) and ROLL < action <= ROLL + 8:
            return f"roll {action - ROLL}"
        if isinstance(action, int) and action - ROLLOFF in _ROLLOFF_CODES:
            white, black = divmod(action - ROLLOFF, 10)
            return f"roll {white}-{black}"
        raise NotationError(f"{action!r} is not a KNOCKabout action")

    def _read_notation(self, text: str) -> Action:
        return _parse_notation(text)

    def view(self) -> KnockaboutView:
        board = self.board
        pieces = frozen_map((CELL_NAMES[c], PieceView(code >> 8, sides=code >> 4 & 15,
                                                  face=code & 15))
                            for c, code in enumerate(board) if code)
        if self.side == ROLLOFF_PENDING:
            phase, turn = "rolloff", -1
        else:
            turn = self.side
            phase = "reroll" if self.pending != NO_CELL else \
                "over" if self.winner() is not None else "move"
        return KnockaboutView(self.game.name, phase, self.current_player(), turn, pieces,
                              scores=tuple(self.in_gutter),
                              reroll=None if self.pending == NO_CELL else CELL_NAMES[self.pending],
                              rolloff_pending=self.side == ROLLOFF_PENDING)

    # --- for displays and tests -------------------------------------------------------------
    def move_trace(self, action: Action) -> List[Tuple[str, str]]:
        """The dice a legal move moves, in the order the chain moves them: a list of
        (from cell name, to cell name), the mover first, the last die hit last ([] for a
        pass or a chance outcome).  Read-only: the state is the same afterwards.  The board
        session animates a knock chain with it."""
        self._check_action(action)
        if not (isinstance(action, int) and 0 <= action < NUM_MOVES):
            return []
        self.apply(action)
        try:
            changes = self._undo[-1][2]
        finally:
            self.undo()
        # _move writes every hop as _put(stop, die) then _put(current, empty).
        return [(CELL_NAMES[changes[i + 1][0]], CELL_NAMES[changes[i][0]])
                for i in range(0, len(changes), 2)]

    def die_at(self, name: str) -> Optional[Tuple[int, int, int]]:
        """(owner, sides, face) of the die on the named cell, or None."""
        code = self.board[CELL_INDEX[name]]
        return (code >> 8, code >> 4 & 15, code & 15) if code else None


_ROLLOFF_CODES = frozenset(10 * w + b for w in range(1, 7) for b in range(1, 7))


def _parse_notation(text: object) -> int:
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
