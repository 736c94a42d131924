"""Dodgeball's position text, one line (`docs/rules/dodgeball.md` names the fields):

    <stage> 1:<pawns> 2:<pawns> balls:<balls> dice:<team 1>/<team 2>[ throw:<throw>]

Parsing reads each field into a fresh state, then checks the whole against the rules,
naming the first problem."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable, List, Optional, Tuple, cast

from ..base import PositionError
from ..position_text import split_fields, split_items
from .board import BACK_ROW, DIST, HALF, SQUARE_NAMES, SQUARES, START_NAMES
from .notation import CATCH, DODGE

if TYPE_CHECKING:                      # the state is only read and filled here, never made
    from .game import DodgeballState

# A throw in progress: (thrower square, target square, CATCH/DODGE or None, thrower's roll
# or None, target's roll or None).
ThrowInFlight = Tuple[int, int, Optional[int], Optional[int], Optional[int]]

# The stages a game goes through (the position's first field).
SETUP, ROLLOFF, TURN = "setup", "rolloff", "turn"

def _stage_token(state: DodgeballState) -> str:
    if state._stage == TURN:
        return f"turn{state._active + 1}"
    if state._stage == SETUP:
        return f"setup{state._active + 1}"
    return ROLLOFF


def _by_name(squares: Iterable[int]) -> List[int]:
    return sorted(squares, key=lambda s: SQUARE_NAMES[s])


def _dice_token(state: DodgeballState, team: int) -> str:
    dice, spent = state._dice[team], state._spent[team]
    text = "".join(map(str, dice)) + "x" * spent
    return text or "-"


def format_position(state: DodgeballState) -> str:
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


def _square(token: str, what: str) -> int:
    if token not in SQUARES:
        raise PositionError(f"{what}: {token!r} is not a square (a1 .. h8)")
    return SQUARES[token]


def parse_position(state: DodgeballState, text: str) -> DodgeballState:
    """`state`, a fresh state, set to the position `text` describes: each field read into
    plain values, then the whole checked against the rules (`_validate`), the first problem
    named."""
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
    state._stage, state._active = _STAGES[tokens[0]]
    carried = sum(_put_pawns(state, team, tokens[1 + team][2:]) for team in (0, 1))
    _put_balls(state, tokens[3][6:])
    for team, (dice, spent) in enumerate(_read_dice(tokens[4][5:])):
        state._dice[team], state._spent[team] = dice, spent
    if len(tokens) == 6:
        state._throw = _read_throw(tokens[5])
    _validate(state, carried)
    return state


def _put_pawns(state: DodgeballState, team: int, body: str) -> int:
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


def _put_balls(state: DodgeballState, body: str) -> None:
    state._start = [False] * 3
    for item in split_items(body):
        if item not in START_NAMES:
            state._loose[_square(item, f"ball {item!r}")] += 1
            continue
        i = START_NAMES.index(item)
        if state._start[i]:
            raise PositionError(f"balls: starting ball {item!r} listed twice")
        state._start[i] = True


def _read_dice(body: str) -> List[Tuple[List[int], int]]:
    """[(dice, spent)] of both teams from `<team 1>/<team 2>`."""
    parts = body.split("/")
    if len(parts) != 2 or not all(p and _DICE_RE.fullmatch(p) for p in parts):
        raise PositionError(f"dice {body!r}: expected <team 1>/<team 2>, each '-' or up to "
                            "three dice 1-6 followed by an x per spent die, e.g. 35x/224")
    return [([], 0) if part == "-" else
            (sorted(int(c) for c in part if c != "x"), part.count("x")) for part in parts]


def _read_throw(token: str) -> ThrowInFlight:
    """(thrower, target, declared, roll 1, roll 2) from `throw:<from>-<to>[:...]`."""
    m = _THROW_RE.fullmatch(token[6:]) if token.startswith("throw:") else None
    if not m:
        raise PositionError(f"field {token!r}: expected throw:<from>-<to>"
                            "[:catch|dodge[:<roll>[:<roll>]]]")
    declared = {None: None, "catch": CATCH, "dodge": DODGE}[m[3]]
    return (SQUARES[m[1]], SQUARES[m[2]], declared,
            None if m[4] is None else int(m[4]), None if m[5] is None else int(m[5]))


def _validate(state: DodgeballState, carried: int) -> None:
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


def _check_before_turn(state: DodgeballState, carried: int) -> None:
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


def _check_setup(state: DodgeballState) -> None:
    npawns = state._npawns
    expected = (npawns[0] < 5 and npawns[1] == 0) if state._active == 0 else \
        (npawns[0] == 5 and npawns[1] < 5)
    if not expected:
        raise PositionError(f"setup{state._active + 1} with {npawns[0]} and {npawns[1]} "
                            "pawns: team 1 places its five pawns first, then team 2")
    if state._dice[0] or state._dice[1]:
        raise PositionError("no dice are rolled during the set-up: dice:-/-")


def _check_rolloff(state: DodgeballState) -> None:
    dice = state._dice
    if state._npawns != [5, 5]:
        raise PositionError("the roll-off comes after both teams placed five pawns")
    if (dice[1] and len(dice[0]) < 3) or len(dice[1]) == 3:
        raise PositionError(f"roll-off dice {_dice_token(state, 0)}/"
                            f"{_dice_token(state, 1)}: team 1 rolls three dice, then "
                            "team 2; a complete roll-off has already started the game")


def _check_turn(state: DodgeballState) -> None:
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


def _check_throw(state: DodgeballState, over: bool) -> None:
    team = state._active
    other = 1 - team
    thrower, target, declared, r1, r2 = cast(ThrowInFlight, state._throw)   # _check_turn's
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
    if r1 is not None and r2 is not None and (declared == CATCH or r1 > r2):
        raise PositionError(f"{name}: rolls {r1} and {r2} have already decided the throw; "
                            "only a miss waits for its ball to be placed")
