"""K.O. (RULES.md section 3): 2-4 players knock out the opponents' pieces of equal number.

One `KOState` walks through three phases: the secret set-up (KO-1: each seat places its
pieces 1..6 one by one on its start spaces), the roll-off (each seat throws two dice, the
highest sum starts, the tied ones throw again) and the turns (throw two dice, then carry out
the two moves they call for).  Every throw is a chance step whose outcome is the unordered
pair of dice; every placement, move and forced pass is a player action.

Actions are ints, decoded with the board size N and the number of piece slots P (6 per
board color, also for colors not in play):
    move        piece * N + destination                    0 <= a < P*N
    placement   P*N + piece * N + space                    P*N <= a < 2*P*N
    throw       2*P*N + (low - 1) * 6 + (high - 1)         the two dice, low <= high
    pass        2*P*N + 36
A piece is color * 6 + (number - 1).  A move names only the piece and where it ends: two
paths of the right length to the same space are the same move, since passing over pieces
does nothing.  Which of the turn's two moves a piece makes follows from its number, so the
action needs no more.

Position format and notation: `ko_position.py` and `docs/rules/ko.md`.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple, Union

from . import notation as ko_notation, position as ko_position
from ..base import (CHANCE, TERMINAL, Action, BoardDataError, Game, IllegalMoveError,
                    OptionError, State)
from .board import PIECES_PER_COLOR, KOBoard, get_board
from .constants import (ABSENT, DROPPED, END, OUT, POINTS, QUIET_ROUNDS, ROLLOFF, SETUP,
                           TO_THROW, TURN, UNPLACED, Tasks)
from ..view import KOView, PieceView, frozen_map

_ANY = 0          # the task "any other piece" of a double

# What undo restores besides the pieces: phase, seat to act, next set-up piece, roll-off,
# the turn's moves left, the quiet turns (KO-3), and the legal moves if they were listed
# (a search that tries each move in turn, apply and undo, then lists them once, not once a
# move: the review's K.O. turns spent a quarter of their time listing them again)
Control = Tuple[int, int, int, Optional[Tuple[int, ...]], Optional[Tasks], int,
                Optional[List[int]]]
# An action's undo record: the control, then piece, from, to and the piece knocked out
# (-1 where there is none; a placement has only its space, in `from`)
Record = Tuple[Control, int, int, int, int]

_TRUE = {True, 1, "1", "true", "yes", "on"}
_FALSE = {False, 0, "0", "false", "no", "off"}


def _flag(value: Any) -> bool:
    key = value.lower() if isinstance(value, str) else value
    if key in _TRUE:
        return True
    if key in _FALSE:
        return False
    raise OptionError(f"option quick_start={value!r} not allowed for ko (use 0 or 1)")


def _rounds(value: Any) -> int:
    try:
        rounds = int(value)
    except (TypeError, ValueError):
        rounds = -1
    if rounds < 0 or str(rounds) != str(value).strip():
        raise OptionError(f"option quiet_rounds={value!r} not allowed for ko (use a whole "
                          "number of rounds, 0 for no limit)")
    return rounds


def _board_option(value: Any) -> Union[str, KOBoard]:
    if isinstance(value, KOBoard):
        return value
    try:
        get_board(value)
    except (BoardDataError, TypeError):
        raise OptionError(f"option board={value!r} not allowed for ko (use 'standard' or a "
                          "KOBoard)") from None
    return value


def places(points: Sequence[float]) -> List[int]:
    """Competition ranking: place 1 + the number of seats with more points, so equal
    points share a place (9, 9, 4 -> 1, 1, 3)."""
    return [1 + sum(1 for q in points if q > p) for p in points]


def describe_result(names: Sequence[str], points: Sequence[int]) -> str:
    """'Red wins with 9 points (Red 9, Green 4)' or 'Red and Green share first place ...'."""
    best = max(points)
    winners = [names[i] for i, p in enumerate(points) if p == best]
    unit = "point" if best == 1 else "points"
    if len(winners) == 1:
        head = f"{winners[0]} wins with {best} {unit}"
    else:
        head = (f"{', '.join(winners[:-1])} and {winners[-1]} share first place "
                f"with {best} {unit}")
    table = ", ".join(f"{name} {p}" for name, p in zip(names, points))
    return f"{head} ({table})"


class KOGame(Game):
    name = "ko"
    title = "K.O."
    OPTIONS = {
        "players": (4, (2, 3, 4)),
        "quick_start": (False, _flag),
        "quiet_rounds": (QUIET_ROUNDS, _rounds),
        "board": ("standard", _board_option),
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        board = self.options["board"]
        self.board = board if isinstance(board, KOBoard) else get_board(board)
        players = self.options["players"]
        if players not in self.board.seats:
            raise OptionError(f"board {self.board.name} has no seating for {players} players")
        self.seats = self.board.seats[players]
        ncolors = len(self.board.color_names)
        self.num_pieces = ncolors * PIECES_PER_COLOR
        self.num_spaces = n = len(self.board.spaces)
        self.setup_base = self.num_pieces * n
        self.roll_base = 2 * self.num_pieces * n
        self.pass_action = self.roll_base + 36

        self._seat_tables(ncolors)
        self.roll_outcomes = tuple(
            (self.roll_base + (a - 1) * 6 + (b - 1), (1 if a == b else 2) / 36)
            for a in range(1, 7) for b in range(a, 7))
        self.roll_actions = [a for a, _ in self.roll_outcomes]

    def _seat_tables(self, ncolors: int) -> None:
        """Who owns which color and piece, the set-up order and the seats' names."""
        self.seat_of_color = [-1] * ncolors
        for seat, colors in enumerate(self.seats):
            for color in colors:
                self.seat_of_color[color] = seat
        # colors in play, listed seat by seat (as in the position format)
        self.colors = tuple(c for colors in self.seats for c in colors)
        # owner seat of every piece slot (-1 for colors not in play)
        self.seat_of_piece = tuple(self.seat_of_color[p // PIECES_PER_COLOR]
                                   for p in range(self.num_pieces))
        # seat -> number -> the seat's pieces with that number (2 with two colors)
        self.pieces_by_number = tuple(
            tuple(tuple(c * PIECES_PER_COLOR + num - 1 for c in colors)
                  for num in range(PIECES_PER_COLOR + 1))
            for colors in self.seats)
        # KO-1: seat by seat, each of its colors, pieces 1..6
        self.setup_order = tuple(c * PIECES_PER_COLOR + k for c in self.colors
                                 for k in range(PIECES_PER_COLOR))
        self.seat_names = tuple("+".join(self.board.color_names[c].capitalize()
                                         for c in colors) for colors in self.seats)
        self.seat_tokens = tuple("".join(self.board.letters[c] for c in colors)
                                 for colors in self.seats)

    @property
    def num_players(self) -> int:
        return self.options["players"]

    def player_name(self, player: int) -> str:
        return self.seat_names[player]

    def piece_name(self, piece: int) -> str:
        return f"{self.board.letters[piece // PIECES_PER_COLOR]}{piece % PIECES_PER_COLOR + 1}"

    def new_initial_state(self) -> KOState:
        state = KOState(self)
        if self.options["quick_start"]:
            for piece in self.setup_order:
                color, k = divmod(piece, PIECES_PER_COLOR)
                state._place(piece, self.board.starts[color][k])
            state.phase = ROLLOFF
            state.rolloff = (TO_THROW,) * self.num_players
            state.cur = 0
        return state

    def from_position(self, text: str) -> KOState:
        return ko_position.parse_position(KOState(self), text)


class KOState(State):
    """A K.O. position: where every piece is, the phase, whose turn, the moves left."""

    game: KOGame

    def __init__(self, game: KOGame) -> None:
        super().__init__(game)
        self.pos = [ABSENT] * game.num_pieces
        for color in game.colors:
            for k in range(PIECES_PER_COLOR):
                self.pos[color * PIECES_PER_COLOR + k] = UNPLACED
        self.occ = [-1] * game.num_spaces
        # pieces in play per seat and number: cnt[seat * 7 + number]
        self.cnt = [0] * (7 * game.num_players)
        self.phase = SETUP
        self.cur = game.seat_of_piece[game.setup_order[0]]
        self.setup_next = 0
        self.rolloff: Optional[Tuple[int, ...]] = None
        # during a turn: None = throw due, else ((number, steps), ...)
        self.tasks: Optional[Tasks] = None
        self.quiet = 0          # KO-3: turns thrown since the last knock-out (or the start)
        self._legal: Optional[List[int]] = None

    # --- helpers ------------------------------------------------------------------------
    def _place(self, piece: int, space: int) -> None:
        self.pos[piece] = space
        self.occ[space] = piece
        self.cnt[self.game.seat_of_piece[piece] * 7 + piece % PIECES_PER_COLOR + 1] += 1

    def contested(self, seat: int, number: int) -> bool:
        """Does an opponent of `seat` still have a piece `number` in play?  If not, the
        seat's pieces of that number are frozen."""
        cnt = self.cnt
        for other in range(self.game.num_players):
            if other != seat and cnt[other * 7 + number]:
                return True
        return False

    def is_frozen(self, piece: int) -> bool:
        return not self.contested(self.game.seat_of_piece[piece],
                                  piece % PIECES_PER_COLOR + 1)

    def is_active(self, seat: int) -> bool:
        """Has `seat` a piece that can still move (in play, not frozen)?  Seats without
        one are skipped."""
        cnt = self.cnt
        for number in range(1, 7):
            if cnt[seat * 7 + number] and self.contested(seat, number):
                return True
        return False

    def knockout_possible(self) -> bool:
        """The game goes on while some number is in play for two different seats."""
        cnt = self.cnt
        nseats = self.game.num_players
        for number in range(1, 7):
            holders = 0
            for seat in range(nseats):
                if cnt[seat * 7 + number]:
                    holders += 1
            if holders > 1:
                return True
        return False

    def _next_active(self, seat: int) -> int:
        nseats = self.game.num_players
        for i in range(1, nseats + 1):
            other = (seat + i) % nseats
            if self.is_active(other):
                return other
        return seat   # unreachable while a knock-out is possible

    def _ctl(self) -> Control:
        return (self.phase, self.cur, self.setup_next, self.rolloff, self.tasks, self.quiet,
                self._legal)

    def _restore(self, ctl: Control) -> None:
        (self.phase, self.cur, self.setup_next, self.rolloff, self.tasks, self.quiet,
         self._legal) = ctl

    def quiet_limit(self) -> int:
        """KO-3: the turns without a knock-out after which the game ends: the option's
        rounds times the seats still taking turns (0: no limit).  Only a knock-out changes
        who takes turns, and a knock-out starts the count again."""
        rounds = self.game.options["quiet_rounds"]
        return rounds * sum(map(self.is_active, range(self.game.num_players)))

    def _end_turn(self) -> None:
        self.tasks = None
        limit = self.quiet_limit()
        if limit and self.quiet >= limit:
            self.phase = END              # KO-3: scored as at any other end
        else:
            self.cur = self._next_active(self.cur)

    def points(self) -> List[int]:
        """Per seat, the points of its pieces still in play (also during the game)."""
        cnt = self.cnt
        return [sum(POINTS[n] * cnt[seat * 7 + n] for n in range(1, 7))
                for seat in range(self.game.num_players)]

    def places(self) -> List[int]:
        """Per seat, its place by points (equal points share a place)."""
        return places(self.points())

    def moves_left(self) -> Optional[Tasks]:
        """The turn's remaining moves as ((number, steps), ...), number 0 meaning 'any
        other piece' of a double; None outside a turn or before the throw."""
        return self.tasks if self.phase == TURN else None

    # --- interface ----------------------------------------------------------------------
    def current_player(self) -> int:
        phase = self.phase
        if phase == END:
            return TERMINAL
        if phase == ROLLOFF or (phase == TURN and self.tasks is None):
            return CHANCE
        return self.cur

    def chance_outcomes(self) -> List[Tuple[Action, float]]:
        if self.phase == ROLLOFF or (self.phase == TURN and self.tasks is None):
            return list(self.game.roll_outcomes)
        return []

    def legal_actions(self) -> List[Action]:
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> List[int]:
        game = self.game
        phase = self.phase
        if phase == END:
            return []
        if phase == ROLLOFF or self.tasks is None and phase == TURN:
            return game.roll_actions
        if phase == SETUP:
            piece = game.setup_order[self.setup_next]
            base = game.setup_base + piece * game.num_spaces
            occ = self.occ
            return [base + s for s in sorted(game.board.starts[piece // PIECES_PER_COLOR])
                    if occ[s] < 0]
        return self._move_actions(game) or [game.pass_action]

    def _move_actions(self, game: KOGame) -> List[int]:
        """The moves the turn's remaining tasks allow the current seat (maybe none)."""
        seat = self.cur
        pos, occ = self.pos, self.occ
        reach = game.board.reach
        seat_of_piece = game.seat_of_piece
        by_number = game.pieces_by_number[seat]
        n = game.num_spaces
        actions: List[int] = []
        for number, steps in self.tasks or ():
            candidates: Sequence[int]
            if number:
                candidates = by_number[number]
            else:
                candidates = [p for num in range(1, 7) if num != steps for p in by_number[num]]
            for piece in candidates:
                start = pos[piece]
                if start < 0:
                    continue
                kind = piece % PIECES_PER_COLOR
                if not self.contested(seat, kind + 1):
                    continue
                base = piece * n
                for dest in reach[start][steps]:
                    other = occ[dest]
                    if other < 0 or (other % PIECES_PER_COLOR == kind
                                     and seat_of_piece[other] != seat):
                        actions.append(base + dest)
        return actions

    def _check_action(self, action: Action) -> None:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if type(action) is not int or action not in legal:   # 5.0 == 5, True == 1
            raise IllegalMoveError(self._explain(action))

    def _apply_action(self, action: Any, checked: None) -> Record:
        game = self.game
        ctl = self._ctl()
        self._legal = None
        if action < game.setup_base:
            return self._move(action, ctl)
        if action < game.roll_base:
            piece, space = divmod(action - game.setup_base, game.num_spaces)
            self._place(piece, space)
            self.setup_next += 1
            if self.setup_next == len(game.setup_order):
                self.phase = ROLLOFF
                self.rolloff = (TO_THROW,) * game.num_players
                self.cur = 0
            else:
                self.cur = game.seat_of_piece[game.setup_order[self.setup_next]]
            return ctl, piece, space, -1, -1
        if action == game.pass_action:
            self._end_turn()
        else:
            low, high = divmod(action - game.roll_base, 6)
            low += 1
            high += 1
            if self.phase == ROLLOFF:
                self._rolloff_throw(low + high)
                return ctl, -1, -1, -1, -1
            self.quiet += 1
            if low == high:
                self.tasks = ((low, low), (_ANY, low))
            else:
                self.tasks = ((low, high), (high, low))
        return ctl, -1, -1, -1, -1

    def _move(self, action: int, ctl: Control) -> Record:
        game = self.game
        piece, dest = divmod(action, game.num_spaces)
        start = self.pos[piece]
        victim = self.occ[dest]
        if victim >= 0:
            self.pos[victim] = OUT
            self.cnt[game.seat_of_piece[victim] * 7 + victim % PIECES_PER_COLOR + 1] -= 1
            self.quiet = 0
        self.occ[start] = -1
        self.occ[dest] = piece
        self.pos[piece] = dest
        number = piece % PIECES_PER_COLOR + 1
        # The piece's number names its task: tasks are kept in the order (low, high),
        # (high, low) or, on a double, (n, n), (any other, n), so the moved piece did the
        # first task exactly when its number is the first task's number.
        tasks = self.tasks or ()           # a move is made during a turn's moves
        rest = tasks[1:] if len(tasks) == 1 or tasks[0][0] == number else tasks[:1]
        self.tasks = rest
        if victim >= 0 and not self.knockout_possible():
            self.phase = END
            self.tasks = None
        elif not rest:
            self._end_turn()
        return ctl, piece, start, dest, victim

    def _rolloff_throw(self, total: int) -> None:
        rolls = list(self.rolloff or ())
        rolls[self.cur] = total
        if TO_THROW in rolls:
            self.rolloff = tuple(rolls)
            self.cur = rolls.index(TO_THROW)
            return
        best = max(rolls)
        leaders = [seat for seat, r in enumerate(rolls) if r == best]
        if len(leaders) == 1:
            self.phase = TURN
            self.cur = leaders[0]
            self.rolloff = None
            self.tasks = None
        else:
            self.rolloff = tuple(TO_THROW if r == best else DROPPED for r in rolls)
            self.cur = leaders[0]

    def _undo_action(self, record: Record) -> None:
        ctl, piece, a, b, victim = record
        game = self.game
        if piece >= 0:
            if b < 0:       # a placement on space a
                self.pos[piece] = UNPLACED
                self.occ[a] = -1
                self.cnt[game.seat_of_piece[piece] * 7 + piece % PIECES_PER_COLOR + 1] -= 1
            else:           # a move from a to b, knocking out victim if >= 0
                self.pos[piece] = a
                self.occ[a] = piece
                self.occ[b] = victim
                if victim >= 0:
                    self.pos[victim] = b
                    self.cnt[game.seat_of_piece[victim] * 7
                             + victim % PIECES_PER_COLOR + 1] += 1
        self._restore(ctl)

    def returns(self) -> List[float]:
        if self.phase != END:
            return [0.0] * self.game.num_players
        return [float(p) for p in self.points()]

    def result(self) -> Optional[str]:
        if self.phase != END:
            return None
        return describe_result(self.game.seat_names, self.points())

    def last_knockout(self) -> Optional[int]:
        """The piece knocked out by the last action, or None."""
        if self._undo and self._undo[-1][4] >= 0:
            return self._undo[-1][4]
        return None

    def clone(self) -> KOState:
        other = KOState.__new__(KOState)
        other.game = self.game
        other.history = list(self.history)
        other.pos = list(self.pos)
        other.occ = list(self.occ)
        other.cnt = list(self.cnt)
        other._restore(self._ctl())
        other._undo = list(self._undo)
        return other

    # --- text ---------------------------------------------------------------------------
    def view(self) -> KOView:
        game = self.game
        names = game.board.spaces
        seat_of = game.seat_of_piece

        def piece(p: int) -> PieceView:
            color, k = divmod(p, PIECES_PER_COLOR)
            return PieceView(seat_of[p], color=color, number=k + 1)

        in_play = [c * PIECES_PER_COLOR + k for c in game.colors for k in range(PIECES_PER_COLOR)]
        pieces = frozen_map((names[self.pos[p]], piece(p)) for p in in_play if self.pos[p] >= 0)
        phase = ("setup", "rolloff", "turn", "over")[self.phase]
        moves = self.tasks if self.phase == TURN and self.tasks else ()
        return KOView(
            game.name, phase, self.current_player(),
            -1 if self.phase in (ROLLOFF, END) else self.cur, pieces,   # over: nobody's turn
            tuple(steps for _, steps in moves), tuple(self.points()),
            seat_colors=tuple(tuple(colors) for colors in game.seats),
            letters="".join(game.board.letters),
            placing=piece(game.setup_order[self.setup_next]) if self.phase == SETUP else None,
            rolloff=self.rolloff or (), moves=moves,
            out=tuple(piece(p) for p in in_play if self.pos[p] == OUT), quiet=self.quiet)

    def to_position(self) -> str:
        return ko_position.format_position(self)

    def action_to_string(self, action: Action) -> str:
        return ko_notation.action_to_string(self, action)

    def parse_action(self, text: str) -> Action:
        return ko_notation.parse_action(self, text)

    def _explain(self, action: Action) -> str:
        return ko_notation.explain_illegal(self, action)


__all__ = ["ABSENT", "DROPPED", "END", "KOGame", "KOState", "OUT", "POINTS", "ROLLOFF", "SETUP",
           "TO_THROW", "TURN", "UNPLACED", "describe_result", "places"]
