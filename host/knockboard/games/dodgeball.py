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

import re

from .base import (CHANCE, TERMINAL, Game, IllegalMoveError, NotationError, PositionError,
                   State)
from .position_text import split_fields, split_items
from .view import DodgeballView, Piece, Throw, frozen_map

# --- board geometry ----------------------------------------------------------------------
# A square is file + 8 * rank, both 0-based: a1 = 0, h1 = 7, a8 = 56.

FILES = "abcdefgh"
SQUARE_NAMES = [FILES[s % 8] + str(s // 8 + 1) for s in range(64)]
SQUARES = {name: s for s, name in enumerate(SQUARE_NAMES)}


def _king_distance(a, b):
    return max(abs(a % 8 - b % 8), abs(a // 8 - b // 8))


DIST = [[_king_distance(a, b) for b in range(64)] for a in range(64)]

# HALF[team]: the squares a team's pawns may stand on (team 1 ranks 1-4, team 2 ranks 5-8).
HALF = (range(0, 32), range(32, 64))
BACK_ROW = (tuple(range(0, 8)), tuple(range(56, 64)))
QUICK_FILES = "bcdef"
# King steps that stay on the team's own half: paths of a MOVE never leave it (D-2).
STEPS = tuple(
    tuple(tuple(n for n in range(64) if DIST[s][n] == 1 and n in HALF[team]) for s in range(64))
    for team in (0, 1))

# The three starting balls sit on the center line at the corners a|b, d|e, g|h; each touches
# the two squares on each side of the line.  They are named by the files they lie between.
START_NAMES = ("ab", "de", "gh")
START_TOUCH = tuple(tuple(SQUARES[f + r] for f in pair for r in "45") for pair in START_NAMES)
TOUCHES = [-1] * 64          # square -> index of the starting ball it touches, or -1
for _ball, _squares in enumerate(START_TOUCH):
    for _s in _squares:
        TOUCHES[_s] = _ball

# --- actions -----------------------------------------------------------------------------
# An action is an int: kind in the low 4 bits, then die value (3 bits), from square (6 bits)
# and to square (6 bits).  Chance outcomes are ROLL actions.

PLACE, MOVE, PASS, THROW, CATCH, DODGE, END, ROLL, BALL = range(1, 10)
KIND_NAMES = {MOVE: "move", PASS: "pass", THROW: "throw"}


def _action(kind, die=0, a=0, b=0):
    return kind | die << 4 | a << 7 | b << 13


def _decode(action):
    return action & 15, action >> 4 & 7, action >> 7 & 63, action >> 13 & 63


ROLLS = tuple(_action(ROLL, v) for v in range(1, 7))
ROLL_OUTCOMES = [(a, 1 / 6) for a in ROLLS]
CATCH_ACTION, DODGE_ACTION, END_ACTION = _action(CATCH), _action(DODGE), _action(END)

_SQ = "([a-h][1-8])"
_NOTATION = [
    (re.compile(rf"place {_SQ}"), lambda m: _action(PLACE, 0, SQUARES[m[1]])),
    (re.compile(rf"([1-6]):(move|pass|throw) {_SQ}-{_SQ}"),
     lambda m: _action({"move": MOVE, "pass": PASS, "throw": THROW}[m[2]], int(m[1]),
                       SQUARES[m[3]], SQUARES[m[4]])),
    (re.compile(r"catch"), lambda m: CATCH_ACTION),
    (re.compile(r"dodge"), lambda m: DODGE_ACTION),
    (re.compile(r"end"), lambda m: END_ACTION),
    (re.compile(r"roll ([1-6])"), lambda m: _action(ROLL, int(m[1]))),
    (re.compile(rf"ball {_SQ}"), lambda m: _action(BALL, 0, SQUARES[m[1]])),
]

SETUP, ROLLOFF, TURN = "setup", "rolloff", "turn"
TEAM_NAMES = ("team 1", "team 2")


class DodgeballGame(Game):
    name = "dodgeball"
    title = "Dodgeball"
    # setup=choose: each team places its pawns on its back row (D-1);
    # setup=quick: pawns start on files b-f and the game begins with the roll-off.
    OPTIONS = {"setup": ("choose", ("choose", "quick"))}

    @property
    def num_players(self):
        return 2

    def player_name(self, player):
        return TEAM_NAMES[player]

    def new_initial_state(self):
        state = DodgeballState(self)
        if self.options["setup"] == "quick":
            for team in (0, 1):
                for f in QUICK_FILES:
                    state._board[SQUARES[f + ("1", "8")[team]]] = team
                state._npawns[team] = 5
            state._stage = ROLLOFF
        return state

    def from_position(self, text):
        return _parse_position(self, text)


class DodgeballState(State):
    """One Dodgeball position.  Undo restores a snapshot taken before each action."""

    def __init__(self, game):
        super().__init__(game)
        self._stage = SETUP
        self._active = 0            # the team placing (setup) or whose turn it is (turn)
        self._board = [-1] * 64     # -1 empty, else the team of the pawn there
        self._carry = [False] * 64  # the pawn on this square carries a ball
        self._loose = [0] * 64      # loose balls lying on this square (D-5: may be several)
        self._start = [True] * 3    # starting balls still on the center line (START_NAMES)
        self._npawns = [0, 0]
        # Each team's unspent dice (sorted) and how many of them it has spent this turn.
        # Fewer than three in all means the dice are being rolled (roll-off, or the end of
        # the acting team's turn).
        self._dice = [[], []]
        self._spent = [0, 0]
        # A throw in progress: (thrower square, target square, CATCH/DODGE or None,
        # thrower's roll or None, target's roll or None).  Both rolls set means a miss whose
        # ball the target's owner still has to place.
        self._throw = None
        self._legal = None

    # --- snapshots ---------------------------------------------------------------------
    def _snapshot(self):
        return (self._stage, self._active, self._board[:], self._carry[:], self._loose[:],
                self._start[:], self._npawns[:], self._dice[0][:], self._dice[1][:],
                self._spent[:], self._throw)

    def _restore(self, snap):
        # Copies, not the snapshot's own lists: a clone shares the undo stack's snapshots.
        (self._stage, self._active, board, carry, loose, start, npawns, d0, d1, spent,
         self._throw) = snap
        self._board, self._carry, self._loose, self._start = board[:], carry[:], loose[:], \
            start[:]
        self._npawns, self._dice, self._spent = npawns[:], [d0[:], d1[:]], spent[:]
        self._legal = None

    def clone(self):
        other = DodgeballState(self.game)
        other._restore(self._snapshot())
        other.history = self.history[:]
        other._undo = self._undo[:]
        return other

    # --- queries -----------------------------------------------------------------------
    def current_player(self):
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

    def winner(self):
        """The winning team (0 or 1) once the game is over, else None."""
        if self._stage != TURN or (self._npawns[0] and self._npawns[1]):
            return None
        return 0 if self._npawns[0] else 1

    def returns(self):
        win = self.winner()
        if win is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if win == 0 else [-1.0, 1.0]

    def result(self):
        win = self.winner()
        return None if win is None else f"{TEAM_NAMES[win].capitalize()} wins"

    def dice(self, team):
        """(unspent dice sorted, number spent) of a team; visible to both players."""
        return tuple(self._dice[team]), self._spent[team]

    # --- read accessors: cheap, for bots that score many positions ----------------------
    @property
    def stage(self):
        """SETUP, ROLLOFF or TURN (a finished game stays in TURN)."""
        return self._stage

    @property
    def active(self):
        """The team placing (set-up) or whose turn it is."""
        return self._active

    @property
    def throw(self):
        """The throw in progress as (thrower square, target square, CATCH/DODGE or None,
        thrower's roll or None, target's roll or None), or None."""
        return self._throw

    def squares(self):
        """(team of the pawn per square or -1, carries a ball per square, loose balls per
        square, starting balls still on the line, pawns per team): the engine's own lists,
        handed out without a copy for speed.  Read them, never change them."""
        return self._board, self._carry, self._loose, self._start, self._npawns

    def dice_held(self):
        """(unspent dice per team, sorted; dice spent this turn per team): the engine's own
        lists like `squares()`, read only; `dice(team)` is the copying form."""
        return self._dice, self._spent

    def view(self):
        board, carry = self._board, self._carry
        pieces = frozen_map((SQUARE_NAMES[s], Piece(board[s], ball=carry[s]))
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

    def chance_outcomes(self):
        return list(ROLL_OUTCOMES) if self.current_player() == CHANCE else []

    def legal_actions(self):
        return list(self._actions())

    def _actions(self):
        """The legal actions, generated once per position (apply() checks against them)."""
        if self._legal is None:
            self._legal = self._generate()
        return self._legal

    def _generate(self):
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return list(ROLLS)
        if self._stage == SETUP:
            board = self._board
            return [_action(PLACE, 0, s) for s in BACK_ROW[player] if board[s] < 0]
        if self._throw is not None:
            _, target, declared, _, _ = self._throw
            if declared is None:
                # D-4: a target already carrying a ball cannot catch.
                return [DODGE_ACTION] if self._carry[target] else [CATCH_ACTION, DODGE_ACTION]
            return [_action(BALL, 0, s) for s in self.miss_squares(target)]
        return self._turn_actions(player)

    def _turn_actions(self, team):
        board, carry, loose = self._board, self._carry, self._loose
        values = sorted(set(self._dice[team]))
        reach = values[-1]
        own = [s for s in HALF[team] if board[s] == team]
        opponents = [s for s in HALF[1 - team] if board[s] == 1 - team]
        steps = STEPS[team]
        # Actions are built inline (as _action() would) in the helpers below, which get
        # everything they read as arguments: this is the engine's hot spot, about 170
        # actions a position in random play.
        actions = []
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

    def miss_squares(self, target):
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
    def _check_action(self, action):
        if action not in self._actions():
            raise IllegalMoveError(self._illegal_message(action))

    def _apply_action(self, action, checked):
        # The legal actions (just generated for the check) ride along with the snapshot:
        # undo brings them back instead of generating them again, which makes the
        # apply/undo of every action in turn (search bots) several times faster.
        record = self._snapshot() + (self._legal,)
        self._legal = None
        kind, die, a, b = _decode(action)
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
            thrower, target, _, _, _ = self._throw
            self._throw = (thrower, target, kind, None, None)
        elif kind == BALL:
            self._loose[a] += 1
            self._throw = None
            self._after_action()
        elif kind == END:
            self._dice[self._active] = []      # D-8: the unused dice are forfeited
            self._spent[self._active] = 0
        return record

    def _spend(self, value):
        team = self._active
        self._dice[team].remove(value)
        self._spent[team] += 1

    def _move(self, origin, dest):
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

    def _after_action(self):
        """After an action is complete: a team with no dice left rolls new ones."""
        team = self._active
        if self._npawns[0] and self._npawns[1] and not self._dice[team]:
            self._spent[team] = 0

    def _apply_roll(self, value):
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

    def _resolve_throw(self, thrower, target, declared, thrower_roll, target_roll):
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

    def _undo_action(self, record):
        *snapshot, legal = record
        self._restore(snapshot)
        self._legal = legal

    # --- notation ----------------------------------------------------------------------
    def action_to_string(self, action):
        return action_to_string(action)

    def _read_notation(self, text):
        return parse_notation(text)

    def _illegal_message(self, action):
        try:
            name = action_to_string(action)
        except NotationError:
            return f"{action!r} is not a dodgeball action"
        return f"{name} is not legal here: {self._expected()}"

    def _expected(self):
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

    def to_position(self):
        return format_position(self)


def _throw_view(thrower, target, declared, r1, r2):
    return Throw(SQUARE_NAMES[thrower], SQUARE_NAMES[target],
                 None if declared is None else "catch" if declared == CATCH else "dodge",
                 tuple(r for r in (r1, r2) if r is not None))


# --- a turn's actions: the engine's hot loop ---------------------------------------------

def _move_actions(append, pawn, carrying, values, reach, board, loose, steps):
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


def _ball_actions(append, pawn, own, opponents, carry, values):
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


# --- notation ----------------------------------------------------------------------------

def action_to_string(action):
    if not isinstance(action, int) or action < 0 or action >> 19:
        raise NotationError(f"{action!r} is not a dodgeball action")
    kind, die, a, b = _decode(action)
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


def parse_notation(text):
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


# --- position format ---------------------------------------------------------------------
# <stage> 1:<pawns> 2:<pawns> balls:<balls> dice:<team 1>/<team 2>[ throw:<throw>]
# See docs/rules/dodgeball.md for the fields.

def _stage_token(state):
    if state._stage == TURN:
        return f"turn{state._active + 1}"
    if state._stage == SETUP:
        return f"setup{state._active + 1}"
    return ROLLOFF


def _by_name(squares):
    return sorted(squares, key=lambda s: SQUARE_NAMES[s])


def _dice_token(state, team):
    dice, spent = state._dice[team], state._spent[team]
    text = "".join(map(str, dice)) + "x" * spent
    return text or "-"


def format_position(state):
    pawns = []
    for team in (0, 1):
        squares = _by_name(s for s in HALF[team] if state._board[s] == team)
        names = [SQUARE_NAMES[s] + ("+" if state._carry[s] else "") for s in squares]
        pawns.append(",".join(names) or "-")
    balls = [START_NAMES[i] for i in range(3) if state._start[i]]
    for s in _by_name(s for s in range(64) if state._loose[s]):
        balls.extend([SQUARE_NAMES[s]] * state._loose[s])
    fields = [_stage_token(state), "1:" + pawns[0], "2:" + pawns[1],
              "balls:" + (",".join(balls) or "-"),
              f"dice:{_dice_token(state, 0)}/{_dice_token(state, 1)}"]
    if state._throw is not None:
        thrower, target, declared, r1, r2 = state._throw
        text = f"throw:{SQUARE_NAMES[thrower]}-{SQUARE_NAMES[target]}"
        if declared is not None:
            text += ":" + ("catch" if declared == CATCH else "dodge")
            for roll in (r1, r2):
                if roll is not None:
                    text += f":{roll}"
        fields.append(text)
    return " ".join(fields)


_STAGES = {"setup1": (SETUP, 0), "setup2": (SETUP, 1), "rolloff": (ROLLOFF, 0),
           "turn1": (TURN, 0), "turn2": (TURN, 1)}
_DICE_RE = re.compile(r"-|[1-6]{0,3}x{0,3}")
_THROW_RE = re.compile(r"([a-h][1-8])-([a-h][1-8])(?::(catch|dodge)(?::([1-6])(?::([1-6]))?)?)?")
_FIELDS = ("1:", "2:", "balls:", "dice:")


def _square(token, what):
    if token not in SQUARES:
        raise PositionError(f"{what}: {token!r} is not a square (a1 .. h8)")
    return SQUARES[token]


def _parse_position(game, text):
    """The state `text` describes: each field read into plain values, then the whole
    checked against the rules (`_validate`), the first problem named."""
    tokens = split_fields(text, f"position must be text, not {type(text).__name__}")
    if not 5 <= len(tokens) <= 6:
        raise PositionError(
            f"expected 5 or 6 fields '<stage> 1:<pawns> 2:<pawns> balls:<balls> "
            f"dice:<d1>/<d2> [throw:<throw>]', got {len(tokens)}")
    if tokens[0] not in _STAGES:
        raise PositionError(f"stage {tokens[0]!r}: expected one of {', '.join(_STAGES)}")
    for token, prefix in zip(tokens[1:5], _FIELDS):
        if not token.startswith(prefix):
            raise PositionError(f"field {token!r}: expected it to start with {prefix!r}")
    state = DodgeballState(game)
    state._stage, state._active = _STAGES[tokens[0]]
    carried = sum(_put_pawns(state, team, tokens[1 + team][2:]) for team in (0, 1))
    _put_balls(state, tokens[3][6:])
    for team, (dice, spent) in enumerate(_read_dice(tokens[4][5:])):
        state._dice[team], state._spent[team] = dice, spent
    if len(tokens) == 6:
        state._throw = _read_throw(tokens[5])
    _validate(state, carried)
    return state


def _put_pawns(state, team, body):
    """Put a team's pawns `a1,b2+,...` on the board; returns how many carry a ball."""
    carried = 0
    for item in split_items(body):
        carrying = item.endswith("+")
        s = _square(item[:-1] if carrying else item, f"team {team + 1} pawn {item!r}")
        if state._board[s] >= 0:
            raise PositionError(f"two pawns on {SQUARE_NAMES[s]}")
        if s not in HALF[team]:
            raise PositionError(f"team {team + 1} pawn on {SQUARE_NAMES[s]}: outside "
                                f"its half (ranks {'1-4' if team == 0 else '5-8'})")
        state._board[s] = team
        state._carry[s] = carrying
        state._npawns[team] += 1
        carried += carrying
    if state._npawns[team] > 5:
        raise PositionError(f"team {team + 1} has {state._npawns[team]} pawns (at most 5)")
    return carried


def _put_balls(state, body):
    state._start = [False] * 3
    for item in split_items(body):
        if item not in START_NAMES:
            state._loose[_square(item, f"ball {item!r}")] += 1
            continue
        i = START_NAMES.index(item)
        if state._start[i]:
            raise PositionError(f"balls: starting ball {item!r} listed twice")
        state._start[i] = True


def _read_dice(body):
    """[(dice, spent)] of both teams from `<team 1>/<team 2>`."""
    parts = body.split("/")
    if len(parts) != 2 or not all(p and _DICE_RE.fullmatch(p) for p in parts):
        raise PositionError(f"dice {body!r}: expected <team 1>/<team 2>, each '-' or up to "
                            "three dice 1-6 followed by an x per spent die, e.g. 35x/224")
    return [([], 0) if part == "-" else
            (sorted(int(c) for c in part if c != "x"), part.count("x")) for part in parts]


def _read_throw(token):
    """(thrower, target, declared, roll 1, roll 2) from `throw:<from>-<to>[:...]`."""
    m = _THROW_RE.fullmatch(token[6:]) if token.startswith("throw:") else None
    if not m:
        raise PositionError(f"field {token!r}: expected throw:<from>-<to>"
                            "[:catch|dodge[:<roll>[:<roll>]]]")
    declared = {None: None, "catch": CATCH, "dodge": DODGE}[m[3]]
    return (SQUARES[m[1]], SQUARES[m[2]], declared,
            None if m[4] is None else int(m[4]), None if m[5] is None else int(m[5]))


def _validate(state, carried):
    """Reject positions no game can reach, naming the first problem found."""
    balls = carried + sum(state._loose) + sum(state._start) + (state._throw is not None)
    if balls != 3:
        raise PositionError(f"{balls} balls in the position: there are always 3 "
                            "(carried '+', loose, starting, and one in the air during a throw)")
    if state._stage == TURN:
        _check_turn(state)
        return
    _check_before_turn(state, carried)
    if state._stage == SETUP:
        _check_setup(state)
    else:
        _check_rolloff(state)


def _check_before_turn(state, carried):
    if not all(state._start) or carried:
        raise PositionError("before the first turn all three balls are on the center "
                            "line (balls:ab,de,gh)")
    for team in (0, 1):
        for s in HALF[team]:
            if state._board[s] == team and s not in BACK_ROW[team]:
                raise PositionError(f"before the first turn pawns stand on the back rows,"
                                    f" not on {SQUARE_NAMES[s]}")
    if state._throw is not None or any(state._spent):
        raise PositionError("no throw and no spent die before the first turn")


def _check_setup(state):
    npawns = state._npawns
    expected = (npawns[0] < 5 and npawns[1] == 0) if state._active == 0 else \
        (npawns[0] == 5 and npawns[1] < 5)
    if not expected:
        raise PositionError(f"setup{state._active + 1} with {npawns[0]} and {npawns[1]} "
                            "pawns: team 1 places its five pawns first, then team 2")
    if state._dice[0] or state._dice[1]:
        raise PositionError("no dice are rolled during the set-up: dice:-/-")


def _check_rolloff(state):
    dice = state._dice
    if state._npawns != [5, 5]:
        raise PositionError("the roll-off comes after both teams placed five pawns")
    if (dice[1] and len(dice[0]) < 3) or len(dice[1]) == 3:
        raise PositionError(f"roll-off dice {_dice_token(state, 0)}/"
                            f"{_dice_token(state, 1)}: team 1 rolls three dice, then "
                            "team 2; a complete roll-off has already started the game")


def _check_turn(state):
    dice, spent, npawns = state._dice, state._spent, state._npawns
    team = state._active
    other = 1 - team
    if not (npawns[0] or npawns[1]):
        raise PositionError("both teams have no pawn left")
    over = not (npawns[0] and npawns[1])
    if len(dice[other]) != 3 or spent[other]:
        raise PositionError(f"team {other + 1} waits for its turn with three unspent dice, "
                            f"not {_dice_token(state, other)}")
    held = len(dice[team]) + spent[team]
    if held not in (0, 1, 2, 3) or (spent[team] and held != 3):
        raise PositionError(f"team {team + 1}'s dice {_dice_token(state, team)}: three dice, "
                            "an x for each spent one, or fewer while they are being rolled")
    if held == 3 and not dice[team] and state._throw is None and not over:
        raise PositionError(f"team {team + 1} has spent all its dice: it rolls new ones "
                            "(its dice '-') unless a throw is still in progress")
    if held < 3 and over:
        raise PositionError("nobody rolls new dice once the game is over")
    if state._throw is not None:
        _check_throw(state, over)


def _check_throw(state, over):
    team = state._active
    other = 1 - team
    thrower, target, declared, r1, r2 = state._throw
    name = f"throw {SQUARE_NAMES[thrower]}-{SQUARE_NAMES[target]}"
    if over:
        raise PositionError(f"{name}: the game is over")
    if state._board[thrower] != team or state._carry[thrower]:
        raise PositionError(f"{name}: the thrower must be a team {team + 1} pawn whose ball "
                            "is in the air (no '+')")
    if state._board[target] != other:
        raise PositionError(f"{name}: the target must be a team {other + 1} pawn")
    if DIST[thrower][target] > 6:
        raise PositionError(f"{name}: out of range of any die")
    if len(state._dice[team]) + state._spent[team] != 3 or not state._spent[team]:
        raise PositionError(f"{name}: the throw spent one of team {team + 1}'s dice (an x)")
    if declared == CATCH and state._carry[target]:
        raise PositionError(f"{name}: a target carrying a ball cannot catch (D-4)")
    if r2 is not None and (declared == CATCH or r1 > r2):
        raise PositionError(f"{name}: rolls {r1} and {r2} have already decided the throw; "
                            "only a miss waits for its ball to be placed")
