"""Knock-Off (RULES.md section 4): 2-4 players race 4 pawns each up a tower of platforms.

A turn is a chance step (the two dice) followed by at most two decisions: the first uses
one die, or both dice as one leap, or passes; after a single die the second decision uses
the other die or passes.  A double earns one more roll when the turn ends.  The position
text records which dice are still unused and whether that extra roll is owed.

The rules; the boards are `board.py`, the actions and their notation `notation.py`, the
position text `position.py`.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple, Union

from ..base import (CHANCE, TERMINAL, Action, BoardDataError, Game, IllegalMoveError,
                    NotationError, OptionError, State)
from ..view import KnockoffView, PieceView, frozen_map
from .board import KnockoffBoard, board_names, get_board
from .notation import (MOVE_BASE, PASS, TURN_ROLL_SET, TURN_ROLLS, action_to_string,
                       read_notation)
from .position import (MOVE, OVER, PAWNS, ROLL, ROLLOFF, WIN_ON_TOP, OUT_OF_ROLLOFF, TO_ROLL,
                       format_position, parse_position)

_TURN_OUTCOMES = tuple((r, (1 if r // 10 == r % 10 else 2) / 36) for r in TURN_ROLLS)
_ROLLOFF_DICE = (1, 2, 3, 4, 5, 6)
_ROLLOFF_OUTCOMES = tuple((d, 1 / 6) for d in _ROLLOFF_DICE)


Move = Tuple[int, int, int]             # a move checked legal: from, to, its price


def _board_option(value: object) -> Union[str, KnockoffBoard]:
    """`board`: a built-in board's name, a Board, or a board description text."""
    if isinstance(value, KnockoffBoard):
        return value
    if isinstance(value, str):
        if value in board_names():
            return value
        if "\n" in value:
            try:
                return KnockoffBoard(value)
            except BoardDataError as err:
                raise OptionError(f"option board: {err}") from None
    raise OptionError(f"option board={value!r}: not a known board "
                      f"({', '.join(board_names())}) nor a board description")


class KnockoffGame(Game):
    name = "knockoff"
    title = "Knock-Off"
    OPTIONS = {
        "players": (2, (2, 3, 4)),
        "board": ("standard", _board_option),
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        board = self.options["board"]
        self.board = get_board(board) if isinstance(board, str) else board
        n = self.options["players"]
        if n not in self.board.seats:
            raise OptionError(f"board {self.board.name!r} has no seats for players={n}")
        self.homes = self.board.seats[n]          # home node of each player, clockwise

    @property
    def num_players(self) -> int:
        return self.options["players"]

    def player_name(self, player: int) -> str:
        return f"P{player + 1}"

    def new_initial_state(self) -> KnockoffState:
        """All pawns at home; every player rolls one die for the start."""
        return KnockoffState(self)

    def analysis_start(self) -> KnockoffState:
        """Analysis skips the roll-off: P1 to roll with every pawn at home."""
        state = KnockoffState(self)
        state.phase, state.player, state.rolls = ROLL, 0, ()
        return state

    def from_position(self, text: str) -> KnockoffState:
        return parse_position(KnockoffState(self), text)


class KnockoffState(State):
    NOTHING_TO_UNDO = "nothing to undo"
    game: KnockoffGame

    def __init__(self, game: KnockoffGame) -> None:
        super().__init__(game)
        board = game.board
        n = game.num_players
        self._board = board
        self._nodes = board.num_nodes
        self._np = board.num_platforms
        self.occ = [-1] * board.num_platforms     # owner of the pawn on each platform
        self.pos: List[List[int]] = [[] for _ in range(n)]       # platforms of each player's pawns
        self.home = [PAWNS] * n                   # pawns in each player's home base
        self.top = [0] * n                        # pawns on the top row
        self.phase = ROLLOFF
        self.player = 0                           # roller / mover / winner
        self.dice: Tuple[int, ...] = ()           # unused dice of the turn, ascending
        self.extra = False                        # a double's extra roll is owed
        self.rolls: Tuple[int, ...] = (TO_ROLL,) * n   # roll-off marks

    # --- queries ---------------------------------------------------------------------------
    def current_player(self) -> int:
        phase = self.phase
        if phase == MOVE:
            return self.player
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def chance_outcomes(self) -> List[Tuple[Action, float]]:
        if self.phase == ROLL:
            return list(_TURN_OUTCOMES)
        if self.phase == ROLLOFF:
            return list(_ROLLOFF_OUTCOMES)
        return []

    def _values(self) -> Tuple[int, ...]:
        """Move prices the unused dice pay for: each die alone, or both as one leap."""
        dice = self.dice
        if len(dice) == 2:
            a, b = dice
            return (a, b, a + b) if a != b else (a, a + b)
        return dice

    def legal_actions(self) -> List[Action]:
        phase = self.phase
        if phase == MOVE:
            p = self.player
            values = self._values()
            reach = self._board.reach
            nodes = self._nodes
            sources = sorted(self.pos[p])
            if self.home[p]:
                sources.append(self.game.homes[p])
            moves: List[int] = []
            for src in sources:
                r = reach[src]
                base = MOVE_BASE + src * nodes
                for v in values:
                    for dst in r[v]:
                        moves.append(base + dst)
            moves.sort()
            return [PASS, *moves]     # the pass rule: any part of a roll may be given up
        if phase == ROLL:
            return list(TURN_ROLLS)
        if phase == ROLLOFF:
            return list(_ROLLOFF_DICE)
        return []

    def returns(self) -> List[float]:
        if self.phase != OVER:
            return [0] * self.game.num_players
        return [1 if p == self.player else -1 for p in range(self.game.num_players)]

    def result(self) -> Optional[str]:
        if self.phase != OVER:
            return None
        return f"{self.game.player_name(self.player)} wins"

    # --- play ------------------------------------------------------------------------------
    def _check_action(self, action: Action) -> Optional[Move]:
        """None for a pass or a chance outcome, (src, dst, price) for a move."""
        phase = self.phase
        if phase == MOVE:
            if action == PASS and type(action) is int:
                return None
            return self._check_move(action)
        if phase == ROLL:
            if type(action) is not int or action not in TURN_ROLL_SET:
                raise IllegalMoveError(self._not_now(action))
        elif phase == ROLLOFF:
            if type(action) is not int or not 1 <= action <= 6:
                raise IllegalMoveError(self._not_now(action))
        else:
            raise IllegalMoveError(f"the game is over ({self.result()})")
        return None

    def _apply_action(self, action: Any, move: Optional[Move]) -> Any:
        phase = self.phase
        if move is not None:
            return self._move(*move)
        record = (phase, self.player, self.dice, self.extra, self.rolls, None)
        if phase == MOVE:
            self._end_turn()
        elif phase == ROLL:
            a, b = divmod(action, 10)
            self.dice = (a, b)
            self.extra = a == b          # doubles rule: owed even if nothing moves
            self.phase = MOVE
        else:
            self._rolloff(action)
        return record

    def _rolloff(self, die: int) -> None:
        rolls = list(self.rolls)
        rolls[rolls.index(TO_ROLL)] = die
        if TO_ROLL in rolls:
            self.rolls = tuple(rolls)
            return
        best = max(rolls)
        tied = [p for p, r in enumerate(rolls) if r == best]
        if len(tied) == 1:
            self.rolls = ()
            self.phase = ROLL
            self.player = tied[0]
        else:
            # Only the players tied for the highest roll roll again (a choice: the sheet
            # just says "high roll wins").
            self.rolls = tuple(TO_ROLL if r == best else OUT_OF_ROLLOFF for r in rolls)

    def _check_move(self, action: Action) -> Move:
        """(src, dst, price) of a legal move action, or IllegalMoveError saying why not."""
        nodes = self._nodes
        if type(action) is not int or not MOVE_BASE <= action < MOVE_BASE + nodes * nodes:
            raise IllegalMoveError(self._not_now(action))
        src, dst = divmod(action - MOVE_BASE, nodes)
        board = self._board
        p = self.player
        name = self.game.player_name(p)
        move = f"{board.names[src]}-{board.names[dst]}"
        if src < self._np:
            if self.occ[src] != p:
                raise IllegalMoveError(f"{move}: no pawn of {name} on {board.names[src]}")
        elif src != self.game.homes[p]:
            raise IllegalMoveError(f"{move}: {board.names[src]} is not {name}'s home base")
        elif not self.home[p]:
            raise IllegalMoveError(f"{move}: {name} has no pawn at home")
        if dst >= self._np:
            raise IllegalMoveError(f"{move}: pawns only go home by being knocked off")
        cost = board.cost[src].get(dst)
        if cost is None:
            if board.level[dst] <= board.level[src]:
                raise IllegalMoveError(f"{move}: pawns only move upwards")
            raise IllegalMoveError(f"{move}: no arrowed path leads there")
        values = self._values()
        if cost not in values:
            allowed = ", ".join(map(str, values[:-1])) + " or " + str(values[-1]) \
                if len(values) > 1 else str(values[0])
            raise IllegalMoveError(
                f"{move} costs {cost}; the unused dice {'-'.join(map(str, self.dice))} pay "
                f"{allowed} (die values are never split or re-arranged)")
        return src, dst, cost

    def _move(self, src: int, dst: int, cost: int) -> Any:
        p = self.player
        occ = self.occ
        is_top = self._board.is_top
        victim = occ[dst]
        record = (MOVE, p, self.dice, self.extra, self.rolls, (src, dst, victim))
        if victim >= 0:                       # landing knocks the occupant home, own or not
            self.pos[victim].remove(dst)
            self.home[victim] += 1
            if is_top[dst]:
                self.top[victim] -= 1
        if src < self._np:
            occ[src] = -1
            self.pos[p].remove(src)
        else:
            self.home[p] -= 1
        occ[dst] = p
        self.pos[p].append(dst)
        if is_top[dst]:
            self.top[p] += 1
            if self.top[p] >= WIN_ON_TOP:     # KOF-1: the game ends at once, mid-turn too
                self.phase = OVER
                self.dice = ()
                self.extra = False
                return record
        dice = self.dice
        if len(dice) == 2 and cost != dice[0] + dice[1]:
            self.dice = (dice[1],) if cost == dice[0] else (dice[0],)
        else:
            self._end_turn()
        return record

    def _end_turn(self) -> None:
        self.phase = ROLL
        self.dice = ()
        if self.extra:
            self.extra = False                # doubles rule: the same player rolls again
        else:
            self.player = (self.player + 1) % self.game.num_players

    def _undo_action(self, record: Any) -> None:
        phase, player, dice, extra, rolls, move = record
        if move is not None:
            src, dst, victim = move
            is_top = self._board.is_top[dst]
            occ = self.occ
            occ[dst] = -1
            self.pos[player].remove(dst)
            if is_top:
                self.top[player] -= 1
            if src < self._np:
                occ[src] = player
                self.pos[player].append(src)
            else:
                self.home[player] += 1
            if victim >= 0:
                occ[dst] = victim
                self.pos[victim].append(dst)
                self.home[victim] -= 1
                if is_top:
                    self.top[victim] += 1
        self.phase, self.player, self.dice, self.extra, self.rolls = \
            phase, player, dice, extra, rolls

    def clone(self) -> KnockoffState:
        other = KnockoffState.__new__(KnockoffState)
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other.occ = list(self.occ)
        other.pos = [list(x) for x in self.pos]
        other.home = list(self.home)
        other.top = list(self.top)
        other._undo = list(self._undo)
        return other

    # --- text ------------------------------------------------------------------------------
    def view(self) -> KnockoffView:
        names = self._board.names
        pieces = frozen_map((names[node], PieceView(p))
                            for p in range(self.game.num_players) for node in sorted(self.pos[p]))
        phase = ("rolloff", "roll", "move", "over")[self.phase]
        return KnockoffView(self.game.name, phase, self.current_player(),
                            -1 if self.phase == ROLLOFF else self.player, pieces, self.dice,
                            tuple(self.top), home=tuple(self.home),
                            home_bases=tuple(names[h] for h in self.game.homes),
                            rolloff=self.rolls if self.phase == ROLLOFF else (),
                            extra_roll=self.extra)

    def to_position(self) -> str:
        return format_position(self)

    def action_to_string(self, action: Action) -> str:
        return action_to_string(self._board, action)

    def _read_notation(self, text: str) -> Action:
        return read_notation(self._board, text)

    def _not_now(self, action: Action) -> str:
        """Why an action of the wrong kind cannot be played now."""
        try:
            shown = repr(self.action_to_string(action))
        except NotationError:
            shown = repr(action)
        who = self.game.player_name(self.player)
        if self.phase == ROLLOFF:
            return f"{shown}: the roll-off is due, one die at a time (e.g. 'roll 5')"
        if self.phase == ROLL:
            return f"{shown}: {who} must roll two dice first (e.g. 'roll 3-4')"
        if self.phase == MOVE:
            return f"{shown}: {who} is moving (a move like 3c-4c, or 'pass')"
        return f"{shown}: the game is over ({self.result()})"


# --- position text -----------------------------------------------------------------------
