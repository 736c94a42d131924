"""KNOCKabout (RULES.md section 1): dice that knock dice into the gutter.  The rules; the
board's geometry is `board.py`, the actions and their notation `notation.py`, the position
text `position.py`.

State representation, chosen for speed: `board` is a list of 127 ints, 0 for an empty cell
and otherwise a die code `owner << 8 | sides << 4 | face`; `cells[p]` is the set of cells
holding player p's dice and `in_gutter[p]` their gutter count, both kept in step with the
board by `_put`, the only place the board is written.

Actions are ints: a move is `cell * 6 + direction`; chance outcomes are ROLL + face for a
reroll and ROLLOFF + 10 * white + black for the starting roll-off (K-3); PASS is K-4's pass.
"""

from typing import Any, List, Optional, Set, Tuple

from ..base import CHANCE, TERMINAL, Action, Game, IllegalMoveError, State
from ..view import KnockaboutView, PieceView, frozen_map
from .board import (AHEAD, CELL_INDEX, CELL_NAMES, DIRECTIONS, IS_GUTTER, NUM_CELLS,
                    RING_AHEAD, RING_ORIENTATION, mirror)
from .notation import (NUM_MOVES, PASS, ROLL, ROLLOFF, ROLLOFF_CODES, action_to_string,
                       parse_notation)
from .position import (BLACK, COLOR_NAMES, NO_CELL, ROLLOFF_PENDING, SIDES, WHITE, die_code,
                       format_position, parse_position)

GUTTER_LOSS = 5

# White's set-up; Black's mirrors it within each column (RULES.md 1, Pieces and set-up).
WHITE_SETUP = (("D5", 4, 1), ("F6", 4, 1), ("H6", 4, 1), ("J5", 4, 1),
               ("E4", 6, 2), ("G5", 6, 2), ("I4", 6, 2),
               ("F3", 8, 3), ("H3", 8, 3))


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
            if not (isinstance(action, int) and action - ROLLOFF in ROLLOFF_CODES):
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
        return format_position(self.board, self.side, self.pending)

    def action_to_string(self, action: Action) -> str:
        return action_to_string(action)

    def _read_notation(self, text: str) -> Action:
        return parse_notation(text)

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


