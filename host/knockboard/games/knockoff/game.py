"""Knock-Off (RULES.md section 4): 2-4 players race 4 pawns each up a tower of platforms.

A turn is a chance step (the two dice) followed by at most two decisions: the first uses
one die, or both dice as one leap, or passes; after a single die the second decision uses
the other die or passes.  A double earns one more roll when the turn ends.  The position
text records which dice are still unused and whether that extra roll is owed.

Actions are ints:
    PASS                          end the turn, forfeiting the unused dice
    1..6                          a roll-off die
    10*a + b  (1 <= a <= b <= 6)  a turn's two dice
    MOVE_BASE + src*nodes + dst   a pawn from node src (platform or home base) to platform dst
"""

from __future__ import annotations

import re
from typing import Any, List, Optional, Tuple, Union

from ..base import (CHANCE, TERMINAL, Action, BoardDataError, Game, IllegalMoveError, NotationError,
                   OptionError, PositionError, State)
from .board import KnockoffBoard, board_names, get_board
from ..position_text import split_fields, split_items
from ..view import KnockoffView, PieceView, frozen_map

PAWNS = 4        # per player
WIN_ON_TOP = 3   # KOF-1: pawns on the top row at the same time

ROLLOFF, ROLL, MOVE, OVER = range(4)

PASS = 0
MOVE_BASE = 100

_TURN_ROLLS = tuple(10 * a + b for a in range(1, 7) for b in range(a, 7))
_TURN_ROLL_SET = frozenset(_TURN_ROLLS)
_TURN_OUTCOMES = tuple((r, (1 if r // 10 == r % 10 else 2) / 36) for r in _TURN_ROLLS)
_ROLLOFF_DICE = (1, 2, 3, 4, 5, 6)
_ROLLOFF_OUTCOMES = tuple((d, 1 / 6) for d in _ROLLOFF_DICE)

# roll-off marks per player: a die value, or one of these
_TO_ROLL = 0
_OUT = -1

_ROLL_RE = re.compile(r"roll\s*([1-6])(?:\s*[-,]?\s*([1-6]))?")
_MOVE_RE = re.compile(r"(H[1-9][0-9]*|[1-9][0-9]*[a-z]+)-(H[1-9][0-9]*|[1-9][0-9]*[a-z]+)")
_PLAYER_RE = re.compile(r"P([1-9])")

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
        state = KnockoffState(self)
        _parse_position(self, state, text)
        return state


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
        self.rolls: Tuple[int, ...] = (_TO_ROLL,) * n   # roll-off marks

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
            return list(_TURN_ROLLS)
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
            if type(action) is not int or action not in _TURN_ROLL_SET:
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
        rolls[rolls.index(_TO_ROLL)] = die
        if _TO_ROLL in rolls:
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
            self.rolls = tuple(_TO_ROLL if r == best else _OUT for r in rolls)

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
        names = self._board.names
        seats = []
        for p in range(self.game.num_players):
            where = sorted(self.pos[p])
            seats.append(",".join(names[i] for i in where) if where else "-")
        who = self.game.player_name(self.player)
        if self.phase == ROLLOFF:
            marks = "".join("?" if r == _TO_ROLL else "-" if r == _OUT else str(r)
                            for r in self.rolls)
            status = f"rolloff {marks}"
        elif self.phase == ROLL:
            status = f"{who} roll"
        elif self.phase == MOVE:
            status = f"{who} dice {''.join(map(str, self.dice))}{'+' if self.extra else ''}"
        else:
            status = f"{who} wins"
        return "/".join(seats) + " " + status

    def action_to_string(self, action: Action) -> str:
        if type(action) is int:
            if action == PASS:
                return "pass"
            if 1 <= action <= 6:
                return f"roll {action}"
            if action in _TURN_ROLL_SET:
                return f"roll {action // 10}-{action % 10}"
            nodes = self._nodes
            if MOVE_BASE <= action < MOVE_BASE + nodes * nodes:
                src, dst = divmod(action - MOVE_BASE, nodes)
                names = self._board.names
                return f"{names[src]}-{names[dst]}"
        raise NotationError(f"{action!r} is not a Knock-Off action")

    def _read_notation(self, text: str) -> Action:
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
            index = self._board.index
            src, dst = m.group(1), m.group(2)
            for name in (src, dst):
                if name not in index:
                    raise NotationError(f"{text!r}: no platform or home base {name} on the "
                                        f"{self._board.name} board")
            action = MOVE_BASE + index[src] * self._nodes + index[dst]
        else:
            raise NotationError(f"{text!r} is not Knock-Off notation (expected a move like "
                                f"H1-1a or 3c-5c, 'pass', or a roll like 'roll 3-4' or "
                                f"'roll 5')")
        return action

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


def _canon_names(text: str) -> str:
    """Home bases upper case, platforms lower case, so `h1-1A` reads as `H1-1a`."""
    return "-".join(part.upper() if part[:1] in "hH" else part.lower()
                    for part in text.split("-"))


# --- position text -----------------------------------------------------------------------
def _parse_position(game: KnockoffGame, state: KnockoffState, text: str) -> None:
    """`<seats> <status>`, see docs/rules/knockoff.md: the pawns and then the status are
    read into the fresh `state`, each checked as it is read."""
    tokens = split_fields(text, f"{text!r}: a position is text")
    if len(tokens) < 2:
        raise PositionError(f"{text!r}: expected '<pawns> <status>', e.g. '-/- P1 roll'")
    _put_pawns(game, state, tokens[0])
    status = tokens[1:]
    if status[0] == "rolloff":
        _read_rolloff(game, state, tokens[0], status)
        return
    _read_turn(game, state, status)
    _check_no_winner_left(game, state)


def _seat_fields(game: KnockoffGame, token: str) -> List[str]:
    """One field per player from `<pawns>/<pawns>/...`."""
    n = game.num_players
    fields = token.split("/")
    if len(fields) != n:
        raise PositionError(f"{token!r}: lists {len(fields)} players but the game has "
                            f"{n} (set the option players={len(fields)})"
                            if 2 <= len(fields) <= 4 else
                            f"{token!r}: lists {len(fields)} players; Knock-Off has 2-4")
    return fields


def _put_pawns(game: KnockoffGame, state: KnockoffState, token: str) -> None:
    for p, field in enumerate(_seat_fields(game, token)):
        names = split_items(field)
        if len(names) > PAWNS:
            raise PositionError(f"{field!r}: P{p + 1} has only {PAWNS} pawns")
        for name in names:
            _put_pawn(game.board, state, p, name)


def _put_pawn(board: KnockoffBoard, state: KnockoffState, p: int, name: str) -> None:
    node = board.index.get(name)
    if node is None or node >= board.num_platforms:
        raise PositionError(f"{name!r} (P{p + 1}): not a platform of the {board.name} board"
                            + (" ('-' for no pawn on the board)" if not name else ""))
    if state.occ[node] >= 0:
        raise PositionError(f"{name!r}: two pawns on one platform")
    state.occ[node] = p
    state.pos[p].append(node)
    state.home[p] -= 1
    if board.is_top[node]:
        state.top[p] += 1


def _read_rolloff(game: KnockoffGame, state: KnockoffState, pawns: str,
                  status: List[str]) -> None:
    n = game.num_players
    if len(status) != 2:
        raise PositionError(f"{' '.join(status)!r}: expected 'rolloff <marks>', one mark "
                            f"per player: ? to roll, 1-6 rolled, - out")
    marks = status[1]
    if len(marks) != n or any(c not in "?-123456" for c in marks):
        raise PositionError(f"{marks!r}: roll-off marks must be {n} of ? (to roll), "
                            f"1-6 (rolled) or - (out)")
    if "?" not in marks:
        raise PositionError(f"{marks!r}: a roll-off with every die rolled is decided")
    if sum(c != "-" for c in marks) < 2:
        raise PositionError(f"{marks!r}: a roll-off needs two players still in it")
    if any(state.pos):
        raise PositionError(f"{pawns!r}: pawns on the board during the roll-off")
    state.phase = ROLLOFF
    state.rolls = tuple(_TO_ROLL if c == "?" else _OUT if c == "-" else int(c) for c in marks)


def _read_turn(game: KnockoffGame, state: KnockoffState, status: List[str]) -> None:
    """`P<n> roll`, `P<n> dice <unused dice>[+]` or `P<n> wins`."""
    head = status[0]
    m = _PLAYER_RE.fullmatch(head)
    if not m or int(m.group(1)) > game.num_players:
        raise PositionError(f"{head!r}: expected 'rolloff' or a player P1..P{game.num_players}")
    state.player = int(m.group(1)) - 1
    state.rolls = ()
    read = _STATUS.get((len(status), status[1] if len(status) > 1 else ""))
    if read is None:
        raise PositionError(f"{' '.join(status)!r}: expected '{head} roll', "
                            f"'{head} dice <unused dice>[+]' or '{head} wins'")
    read(game, state, status)


def _status_roll(game: KnockoffGame, state: KnockoffState, status: List[str]) -> None:
    state.phase = ROLL


def _status_dice(game: KnockoffGame, state: KnockoffState, status: List[str]) -> None:
    dice = status[2]
    extra = dice.endswith("+")
    digits = dice[:-1] if extra else dice
    if not 1 <= len(digits) <= 2 or any(c not in "123456" for c in digits):
        raise PositionError(f"{dice!r}: the unused dice are one or two digits 1-6, then "
                            f"'+' if a double's extra roll is owed")
    if len(digits) == 2 and (digits[0] == digits[1]) != extra:
        raise PositionError(f"{dice!r}: two unused dice earn an extra roll exactly when "
                            f"they are a double (write {digits[0] * 2}+)"
                            if not extra else
                            f"{dice!r}: only a double earns an extra roll")
    state.phase = MOVE
    state.dice = tuple(sorted(int(c) for c in digits))
    state.extra = extra


def _status_wins(game: KnockoffGame, state: KnockoffState, status: List[str]) -> None:
    if state.top[state.player] != WIN_ON_TOP:
        raise PositionError(f"{' '.join(status)!r}: a winner has exactly {WIN_ON_TOP} "
                            f"pawns on level {game.board.top} (KOF-1)")
    state.phase = OVER


_STATUS = {(2, "roll"): _status_roll, (3, "dice"): _status_dice, (2, "wins"): _status_wins}


def _check_no_winner_left(game: KnockoffGame, state: KnockoffState) -> None:
    """Three pawns on top end the game: only the winner of a finished game has them."""
    for q in range(game.num_players):
        if (state.phase != OVER or q != state.player) and state.top[q] >= WIN_ON_TOP:
            raise PositionError(f"P{q + 1} has {state.top[q]} pawns on level "
                                f"{game.board.top}: the game ended when the "
                                f"{WIN_ON_TOP}rd arrived (KOF-1)")
