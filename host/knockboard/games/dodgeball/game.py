"""Dodgeball: two teams of five pawns on a chessboard, three balls, three d6 per turn.

The rules are `shared/RULES.md` section 2 with rulings D-1..D-8; `docs/rules/dodgeball.md`
is the player-facing page with the position format and the move notation.

The state moves through three stages:

- ``setup``: team 1 places its five pawns on rank 1 one by one (``place b1``), then team 2 on
  rank 8 (D-1).  The ``setup=quick`` option skips this, with pawns on files b-f.
- ``rolloff``: six chance steps, team 1's three d6 then team 2's; the lower total acts first,
  a tie rolls all six again.  Each team keeps the dice it rolled for its first turn.
- ``turn``: the acting team spends its dice one action each (``3:move b1-c3``,
  ``5:pass c3-e4``, ``4:throw c3-d6``) or ends the turn (``end``, D-8).  A throw inserts its
  own steps: the target's owner declares ``catch`` or ``dodge``, then two chance steps (the
  thrower's d6, the target's d6), and after a miss the target's owner places the ball
  (``ball e5``).  Once the acting team has no die left (spent or forfeited) it rolls three
  new dice (three chance steps) and the turn passes.

The game is over as soon as one team has no pawn left.  Teams are players 0 (team 1, ranks
1-4) and 1 (team 2, ranks 5-8).
"""

from typing import Any, Callable, List, Optional, Tuple, cast

from ..base import CHANCE, TERMINAL, Action, Game, IllegalMoveError, NotationError, State
from ..view import DodgeballView, PieceView, Throw, frozen_map
from .board import BACK_ROW, DIST, HALF, QUICK_FILES, SQUARE_NAMES, SQUARES, START_NAMES, \
    STEPS, TOUCHES
from .notation import (BALL, CATCH, CATCH_ACTION, DODGE, DODGE_ACTION, END, END_ACTION, MOVE,
                       PASS, PLACE, ROLL, ROLL_OUTCOMES, ROLLS, THROW, action_to_string, decode,
                       make_action, parse_notation)
from .position import ROLLOFF, SETUP, TURN, ThrowInFlight, format_position, parse_position

# What undo restores: stage, active team, board, carried balls, loose balls, starting balls,
# pawns per team, both teams' dice, dice spent, the throw in flight.
Snapshot = Tuple[Any, ...]

TEAM_NAMES = ("team 1", "team 2")


class DodgeballGame(Game):
    name = "dodgeball"
    title = "Dodgeball"
    # setup=choose: each team places its pawns on its back row (D-1);
    # setup=quick: pawns start on files b-f and the game begins with the roll-off.
    OPTIONS = {"setup": ("choose", ("choose", "quick"))}

    @property
    def num_players(self) -> int:
        return 2

    def player_name(self, player: int) -> str:
        return TEAM_NAMES[player]

    def new_initial_state(self) -> "DodgeballState":
        state = DodgeballState(self)
        if self.options["setup"] == "quick":
            for team in (0, 1):
                for f in QUICK_FILES:
                    state._board[SQUARES[f + ("1", "8")[team]]] = team
                state._npawns[team] = 5
            state._stage = ROLLOFF
        return state

    def from_position(self, text: str) -> "DodgeballState":
        return parse_position(DodgeballState(self), text)


class DodgeballState(State):
    """One Dodgeball position.  Undo restores a snapshot taken before each action."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._stage: str = SETUP
        self._active = 0            # the team placing (setup) or whose turn it is (turn)
        self._board = [-1] * 64     # -1 empty, else the team of the pawn there
        self._carry = [False] * 64  # the pawn on this square carries a ball
        self._loose = [0] * 64      # loose balls lying on this square (D-5: may be several)
        self._start = [True] * 3    # starting balls still on the center line (START_NAMES)
        self._npawns = [0, 0]
        # Each team's unspent dice (sorted) and how many of them it has spent this turn.
        # Fewer than three in all means the dice are being rolled (roll-off, or the end of
        # the acting team's turn).
        self._dice: List[List[int]] = [[], []]
        self._spent = [0, 0]
        # A throw in progress: (thrower square, target square, CATCH/DODGE or None,
        # thrower's roll or None, target's roll or None).  Both rolls set means a miss whose
        # ball the target's owner still has to place.
        self._throw: Optional[ThrowInFlight] = None
        self._legal: Optional[List[int]] = None

    # --- snapshots ---------------------------------------------------------------------
    def _snapshot(self) -> Snapshot:
        return (self._stage, self._active, self._board[:], self._carry[:], self._loose[:],
                self._start[:], self._npawns[:], self._dice[0][:], self._dice[1][:],
                self._spent[:], self._throw)

    def _restore(self, snap: Snapshot) -> None:
        # Copies, not the snapshot's own lists: a clone shares the undo stack's snapshots.
        (self._stage, self._active, board, carry, loose, start, npawns, d0, d1, spent,
         self._throw) = snap
        self._board, self._carry, self._loose, self._start = board[:], carry[:], loose[:], \
            start[:]
        self._npawns, self._dice, self._spent = npawns[:], [d0[:], d1[:]], spent[:]
        self._legal = None

    def clone(self) -> "DodgeballState":
        other = DodgeballState(self.game)
        other._restore(self._snapshot())
        other.history = self.history[:]
        other._undo = self._undo[:]
        return other

    # --- queries -----------------------------------------------------------------------
    def current_player(self) -> int:
        if self._stage == SETUP:
            return self._active
        if self._stage == ROLLOFF:
            return CHANCE
        if not (self._npawns[0] and self._npawns[1]):
            return TERMINAL
        if self._throw is not None:
            _, _, declared, _, target_roll = self._throw
            if declared is None or target_roll is not None:
                return 1 - self._active          # declare, or place the missed ball
            return CHANCE
        team = self._active
        if len(self._dice[team]) + self._spent[team] < 3:
            return CHANCE
        return team

    def winner(self) -> Optional[int]:
        """The winning team (0 or 1) once the game is over, else None."""
        if self._stage != TURN or (self._npawns[0] and self._npawns[1]):
            return None
        return 0 if self._npawns[0] else 1

    def returns(self) -> List[float]:
        win = self.winner()
        if win is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if win == 0 else [-1.0, 1.0]

    def result(self) -> Optional[str]:
        win = self.winner()
        return None if win is None else f"{TEAM_NAMES[win].capitalize()} wins"

    def dice(self, team: int) -> Tuple[Tuple[int, ...], int]:
        """(unspent dice sorted, number spent) of a team; visible to both players."""
        return tuple(self._dice[team]), self._spent[team]

    # --- read accessors: cheap, for bots that score many positions ----------------------
    @property
    def stage(self) -> str:
        """SETUP, ROLLOFF or TURN (a finished game stays in TURN)."""
        return self._stage

    @property
    def active(self) -> int:
        """The team placing (set-up) or whose turn it is."""
        return self._active

    @property
    def throw(self) -> Optional[ThrowInFlight]:
        """The throw in progress as (thrower square, target square, CATCH/DODGE or None,
        thrower's roll or None, target's roll or None), or None."""
        return self._throw

    def squares(self) -> Tuple[List[int], List[bool], List[int], List[bool], List[int]]:
        """(team of the pawn per square or -1, carries a ball per square, loose balls per
        square, starting balls still on the line, pawns per team): the engine's own lists,
        handed out without a copy for speed.  Read them, never change them."""
        return self._board, self._carry, self._loose, self._start, self._npawns

    def dice_held(self) -> Tuple[List[List[int]], List[int]]:
        """(unspent dice per team, sorted; dice spent this turn per team): the engine's own
        lists like `squares()`, read only; `dice(team)` is the copying form."""
        return self._dice, self._spent

    def view(self) -> DodgeballView:
        board, carry = self._board, self._carry
        pieces = frozen_map((SQUARE_NAMES[s], PieceView(board[s], ball=carry[s]))
                            for s in range(64) if board[s] >= 0)
        team_dice = tuple((tuple(self._dice[t]), self._spent[t]) for t in (0, 1))
        if self._stage == ROLLOFF:
            turn = -1
            rolling = 0 if len(self._dice[0]) < 3 else 1
            dice = team_dice[rolling][0]
        else:
            turn = self._active
            dice = team_dice[turn][0] if self._stage == TURN else ()
        phase = "over" if self.winner() is not None else self._stage
        return DodgeballView(
            self.game.name, phase, self.current_player(), turn, pieces, dice,
            tuple(self._npawns), team_dice=team_dice,
            start_balls=tuple(START_NAMES[i] for i in range(3) if self._start[i]),
            loose=frozen_map((SQUARE_NAMES[s], n) for s, n in enumerate(self._loose) if n),
            throw=None if self._throw is None else _throw_view(*self._throw))

    def chance_outcomes(self) -> List[Tuple[Action, float]]:
        return list(ROLL_OUTCOMES) if self.current_player() == CHANCE else []

    def legal_actions(self) -> List[Action]:
        return list(self._actions())

    def _actions(self) -> List[int]:
        """The legal actions, generated once per position (apply() checks against them)."""
        if self._legal is None:
            self._legal = self._generate()
        return self._legal

    def _generate(self) -> List[int]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return list(ROLLS)
        if self._stage == SETUP:
            board = self._board
            return [make_action(PLACE, 0, s) for s in BACK_ROW[player] if board[s] < 0]
        if self._throw is not None:
            _, target, declared, _, _ = self._throw
            if declared is None:
                # D-4: a target already carrying a ball cannot catch.
                return [DODGE_ACTION] if self._carry[target] else [CATCH_ACTION, DODGE_ACTION]
            return [make_action(BALL, 0, s) for s in self.miss_squares(target)]
        return self._turn_actions(player)

    def _turn_actions(self, team: int) -> List[int]:
        board, carry, loose = self._board, self._carry, self._loose
        values = sorted(set(self._dice[team]))
        reach = values[-1]
        own = [s for s in HALF[team] if board[s] == team]
        opponents = [s for s in HALF[1 - team] if board[s] == 1 - team]
        steps = STEPS[team]
        # Actions are built inline (as make_action() would) in the helpers below, which get
        # everything they read as arguments: this is the engine's hot spot, about 170
        # actions a position in random play.
        actions: List[int] = []
        append = actions.append
        for pawn in own:
            carrying = carry[pawn]
            _move_actions(append, pawn, carrying, values, reach, board, loose, steps)
            if carrying:
                _ball_actions(append, pawn, own, opponents, carry, values)
        # D-8: ending the turn (forfeiting the unused dice) is always possible; when it is
        # the only action the dice are forfeited by playing it.
        append(END_ACTION)
        return actions

    def miss_squares(self, target: int) -> List[int]:
        """Where a missed ball may be placed: the empty squares (no pawn, no ball: D-7)
        adjacent to the target, else those at the smallest king distance (D-6)."""
        board, loose = self._board, self._loose
        row = DIST[target]
        for radius in range(1, 8):
            found = [s for s in range(64)
                     if row[s] == radius and board[s] < 0 and not loose[s]]
            if found:
                return found
        return []  # unreachable: 64 squares, at most 10 pawns and 3 balls

    # --- applying ----------------------------------------------------------------------
    def _check_action(self, action: Action) -> None:
        if action not in self._actions():
            raise IllegalMoveError(self._illegal_message(action))

    def _apply_action(self, action: Any, checked: None) -> Any:
        # The legal actions (just generated for the check) ride along with the snapshot:
        # undo brings them back instead of generating them again, which makes the
        # apply/undo of every action in turn (search bots) several times faster.
        record = self._snapshot() + (self._legal,)
        self._legal = None
        kind, die, a, b = decode(action)
        if kind == ROLL:
            self._apply_roll(die)
        elif kind == PLACE:
            team = self._active
            self._board[a] = team
            self._npawns[team] += 1
            if self._npawns[team] == 5:
                if team == 0:
                    self._active = 1
                else:
                    self._stage = ROLLOFF
        elif kind == MOVE:
            self._spend(die)
            self._move(a, b)
            self._after_action()
        elif kind == PASS:
            self._spend(die)
            self._carry[a] = False
            self._carry[b] = True
            self._after_action()
        elif kind == THROW:
            self._spend(die)
            self._carry[a] = False             # the ball is in the air
            self._throw = (a, b, None, None, None)
        elif kind == CATCH or kind == DODGE:
            thrower, target, _, _, _ = self._throw_in_flight()
            self._throw = (thrower, target, kind, None, None)
        elif kind == BALL:
            self._loose[a] += 1
            self._throw = None
            self._after_action()
        elif kind == END:
            self._dice[self._active] = []      # D-8: the unused dice are forfeited
            self._spent[self._active] = 0
        return record

    def _throw_in_flight(self) -> ThrowInFlight:
        # only called where the position has a throw in flight (a declaration, a roll of it)
        return cast(ThrowInFlight, self._throw)

    def _spend(self, value: int) -> None:
        team = self._active
        self._dice[team].remove(value)
        self._spent[team] += 1

    def _move(self, origin: int, dest: int) -> None:
        board, carry = self._board, self._carry
        board[dest] = board[origin]
        board[origin] = -1
        carrying = carry[origin]
        carry[origin] = False
        if not carrying:
            if self._loose[dest]:
                # A loose ball on the destination is picked up (one of them: D-5).
                self._loose[dest] -= 1
                carrying = True
            else:
                ball = TOUCHES[dest]
                if ball >= 0 and self._start[ball]:
                    # A starting ball must be picked up by the first pawn ending a move on a
                    # square it touches; a carrier does not pick it up (D-3).
                    self._start[ball] = False
                    carrying = True
        carry[dest] = carrying

    def _after_action(self) -> None:
        """After an action is complete: a team with no dice left rolls new ones."""
        team = self._active
        if self._npawns[0] and self._npawns[1] and not self._dice[team]:
            self._spent[team] = 0

    def _apply_roll(self, value: int) -> None:
        dice = self._dice
        if self._stage == ROLLOFF:
            roller = 0 if len(dice[0]) < 3 else 1
            dice[roller].append(value)
            dice[roller].sort()
            if len(dice[1]) == 3:
                first, second = sum(dice[0]), sum(dice[1])
                if first == second:
                    self._dice = [[], []]      # a tie: both roll again
                else:
                    self._stage = TURN
                    self._active = 0 if first < second else 1
            return
        if self._throw is not None:
            thrower, target, declared, thrower_roll, _ = self._throw
            if thrower_roll is None:
                self._throw = (thrower, target, declared, value, None)
            else:
                self._resolve_throw(thrower, target, declared, thrower_roll, value)
            return
        team = self._active
        dice[team].append(value)
        dice[team].sort()
        if len(dice[team]) == 3:
            self._active = 1 - team

    def _resolve_throw(self, thrower: int, target: int, declared: Optional[int],
                       thrower_roll: int, target_roll: int) -> None:
        board, carry = self._board, self._carry
        if thrower_roll > target_roll or (thrower_roll == target_roll and declared == CATCH):
            # The target is out; the thrown ball, and the target's own ball if it carried
            # one (D-5), lie on the square it left.
            self._npawns[board[target]] -= 1
            board[target] = -1
            self._loose[target] += 1 + carry[target]
            carry[target] = False
        elif declared == CATCH:
            # Caught: the thrower is out and the target carries the ball.
            self._npawns[board[thrower]] -= 1
            board[thrower] = -1
            carry[target] = True
        else:
            # A miss: the target's owner places the ball next (BALL).
            self._throw = (thrower, target, declared, thrower_roll, target_roll)
            return
        self._throw = None
        self._after_action()

    def _undo_action(self, record: Any) -> None:
        *snapshot, legal = record
        self._restore(snapshot)
        self._legal = legal

    # --- notation ----------------------------------------------------------------------
    def action_to_string(self, action: Action) -> str:
        return action_to_string(action)

    def _read_notation(self, text: str) -> Action:
        return parse_notation(text)

    def _illegal_message(self, action: Action) -> str:
        try:
            name = action_to_string(action)
        except NotationError:
            return f"{action!r} is not a dodgeball action"
        return f"{name} is not legal here: {self._expected()}"

    def _expected(self) -> str:
        """What the position asks for, in words, for error messages."""
        player = self.current_player()
        if player == TERMINAL:
            return "the game is over"
        if player == CHANCE:
            return "a die roll is due (roll 1 .. roll 6)"
        who = TEAM_NAMES[player]
        if self._stage == SETUP:
            return f"{who} places a pawn on its back row"
        if self._throw is not None:
            if self._throw[2] is None:
                return f"{who} declares catch or dodge"
            return (f"{who} places the missed ball on "
                    + ", ".join(SQUARE_NAMES[s] for s in self.miss_squares(self._throw[1])))
        dice = ", ".join(map(str, self._dice[player]))
        return f"{who} acts with dice {dice} (or end)"

    def to_position(self) -> str:
        return format_position(self)


def _throw_view(thrower: int, target: int, declared: Optional[int], r1: Optional[int],
                r2: Optional[int]) -> Throw:
    return Throw(SQUARE_NAMES[thrower], SQUARE_NAMES[target],
                 None if declared is None else "catch" if declared == CATCH else "dodge",
                 tuple(r for r in (r1, r2) if r is not None))


# --- a turn's actions: the engine's hot loop ---------------------------------------------

def _move_actions(append: Callable[[int], None], pawn: int, carrying: bool, values: List[int],
                  reach: int, board: List[int], loose: List[int],
                  steps: Tuple[Tuple[int, ...], ...]) -> None:
    """Append the MOVE actions of the pawn on `pawn` for the dice `values` (sorted, the
    largest `reach`)."""
    # D-2: king steps through squares free of pawns, all on the own half; balls on the way
    # do not block and are not picked up.  Breadth-first by distance.
    seen = {pawn}
    frontier = [pawn]
    for distance in range(1, reach + 1):
        dice = [v for v in values if v >= distance]
        following = []
        for s in frontier:
            for n in steps[s]:
                if n not in seen and board[n] < 0:
                    seen.add(n)
                    following.append(n)
                    # D-3: a carrier cannot end on a square holding a loose ball.
                    if not (carrying and loose[n]):
                        for v in dice:
                            append(MOVE | v << 4 | pawn << 7 | n << 13)
        if not following:
            return
        frontier = following


def _ball_actions(append: Callable[[int], None], pawn: int, own: List[int], opponents: List[int],
                  carry: List[bool], values: List[int]) -> None:
    """Append the PASS actions to the team mates `own` not carrying a ball and the THROW
    actions at the `opponents` of the carrier on `pawn`, for each die reaching them."""
    row = DIST[pawn]
    for mate in own:
        if mate != pawn and not carry[mate]:
            d = row[mate]
            for v in values:
                if v >= d:
                    append(PASS | v << 4 | pawn << 7 | mate << 13)
    for target in opponents:
        d = row[target]
        for v in values:
            if v >= d:
                append(THROW | v << 4 | pawn << 7 | target << 13)


