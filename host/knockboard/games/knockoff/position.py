"""Knock-Off's position text (`docs/rules/knockoff.md`): `<seats> <status>`, each seat's
pawns (`1a,3c/-`), then `rolloff <marks>`, `P<n> roll`, `P<n> dice <unused dice>[+]` or
`P<n> wins`; and the phases and marks a position holds."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, List

from ..base import PositionError
from ..position_text import split_fields, split_items
from .board import KnockoffBoard

if TYPE_CHECKING:                      # the state is only read and filled here, never made
    from .game import KnockoffGame, KnockoffState

PAWNS = 4        # per player
WIN_ON_TOP = 3   # KOF-1: pawns on the top row at the same time

ROLLOFF, ROLL, MOVE, OVER = range(4)

# roll-off marks per player: a die value, or one of these
TO_ROLL = 0
OUT_OF_ROLLOFF = -1

_PLAYER_RE = re.compile(r"P([1-9])")


def format_position(state: KnockoffState) -> str:
    """`<seats> <status>`, as `parse_position` reads it."""
    names = state.game.board.names
    seats = []
    for p in range(state.game.num_players):
        where = sorted(state.pos[p])
        seats.append(",".join(names[i] for i in where) if where else "-")
    who = state.game.player_name(state.player)
    if state.phase == ROLLOFF:
        marks = "".join("?" if r == TO_ROLL else "-" if r == OUT_OF_ROLLOFF else str(r)
                        for r in state.rolls)
        status = f"rolloff {marks}"
    elif state.phase == ROLL:
        status = f"{who} roll"
    elif state.phase == MOVE:
        status = f"{who} dice {''.join(map(str, state.dice))}{'+' if state.extra else ''}"
    else:
        status = f"{who} wins"
    return "/".join(seats) + " " + status


def parse_position(state: KnockoffState, text: str) -> KnockoffState:
    """`<seats> <status>`, see docs/rules/knockoff.md: the pawns and then the status are
    read into the fresh `state`, each checked as it is read; returns it."""
    game = state.game
    tokens = split_fields(text, f"{text!r}: a position is text")
    if len(tokens) < 2:
        raise PositionError(f"{text!r}: expected '<pawns> <status>', e.g. '-/- P1 roll'")
    _put_pawns(game, state, tokens[0])
    status = tokens[1:]
    if status[0] == "rolloff":
        _read_rolloff(game, state, tokens[0], status)
        return state
    _read_turn(game, state, status)
    _check_no_winner_left(game, state)
    return state


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
    state.rolls = tuple(TO_ROLL if c == "?" else OUT_OF_ROLLOFF if c == "-" else int(c)
                        for c in marks)


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
