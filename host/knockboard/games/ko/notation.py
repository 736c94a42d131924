"""K.O. move notation, and the reasons given for illegal actions.

    R3-e5     piece red 3 moves to e5 (any path of the right length: only the end counts)
    R3xe5     the same, written when e5 holds the opponent's 3 that is knocked out
    R1@a1     set-up: red 1 is placed on a1
    roll 3 5  a throw of the two dice (written low die first)
    pass      the forced pass of a player who cannot carry out any remaining move

Piece letters and space names come from the board data.  Parsing ignores case and accepts
either `-` or `x` for any move, and `roll 35`, `roll 5,3`, `roll 5+3` for a throw.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Optional

from ..base import CHANCE, Action, IllegalMoveError, NotationError
from .constants import END, OUT, SETUP, Tasks
from .board import PIECES_PER_COLOR

if TYPE_CHECKING:                      # the state is only read here
    from .game import KOGame, KOState

_PIECE_ACTION = re.compile(r"([A-Za-z])([0-9]+)([-xX@])([A-Za-z0-9]+)\Z")
_ROLL = re.compile(r"roll\s*([0-9]+)\s*[ ,+-]?\s*([0-9]+)\Z", re.IGNORECASE)
_SYNTAX = ("moves are written 'R3-e5' or 'R3xe5', placements 'R1@a1', throws 'roll 3 5', "
           "and 'pass'")


def _kind(game: KOGame, action: int) -> str:
    if action < game.setup_base:
        return "move"
    if action < game.roll_base:
        return "place"
    if action == game.pass_action:
        return "pass"
    return "roll"


def _valid(game: KOGame, action: Action) -> Optional[int]:
    """`action` if it is an action of `game` (legal here or not), else None."""
    if not isinstance(action, int) or isinstance(action, bool):
        return None
    if action < 0 or action > game.pass_action:
        return None
    if game.roll_base <= action < game.pass_action:
        low, high = divmod(action - game.roll_base, 6)
        return action if low <= high else None
    return action


def action_to_string(state: KOState, written: Action) -> str:
    game = state.game
    action = _valid(game, written)
    if action is None:
        raise NotationError(f"{written!r} is not a K.O. action")
    names = game.board.spaces
    kind = _kind(game, action)
    if kind == "move":
        piece, dest = divmod(action, game.num_spaces)
        other = state.occ[dest]
        if other == piece:      # just played: did it knock a piece out?
            knocks = bool(state.history) and state.history[-1] == action \
                and state.last_knockout() is not None
        else:
            knocks = (other >= 0 and other % PIECES_PER_COLOR == piece % PIECES_PER_COLOR
                      and game.seat_of_piece[other] != game.seat_of_piece[piece])
        return f"{game.piece_name(piece)}{'x' if knocks else '-'}{names[dest]}"
    if kind == "place":
        piece, space = divmod(action - game.setup_base, game.num_spaces)
        return f"{game.piece_name(piece)}@{names[space]}"
    if kind == "pass":
        return "pass"
    low, high = divmod(action - game.roll_base, 6)
    return f"roll {low + 1} {high + 1}"


def parse_action(state: KOState, text: object) -> int:
    game = state.game
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not K.O. notation ({_SYNTAX})")
    written = text.strip()
    lower = written.lower()
    if lower == "pass":
        action = game.pass_action
    elif lower.startswith("roll"):
        action = _parse_roll(game, written)
    else:
        action = _parse_piece_action(game, written)
    if action not in state.legal_actions():
        raise IllegalMoveError(_reason(state, action))
    return action


def _parse_roll(game: KOGame, written: str) -> int:
    match = _ROLL.match(written)
    if not match:
        raise NotationError("a throw is written 'roll A B' (two dice)")
    dice = sorted(int(v) for v in match.groups())
    if not all(1 <= d <= 6 for d in dice):
        raise NotationError("dice show 1 to 6")
    return game.roll_base + (dice[0] - 1) * 6 + (dice[1] - 1)


def _parse_piece_action(game: KOGame, written: str) -> int:
    """A move `R3-e5` / `R3xe5` or a placement `R1@a1`."""
    match = _PIECE_ACTION.match(written)
    if not match:
        raise NotationError(f"not K.O. notation ({_SYNTAX})")
    letter, number, sep, space = match.groups()
    board = game.board
    if letter.upper() not in board.letters:
        raise NotationError(f"no color {letter.upper()} on this board "
                            f"(colors: {', '.join(board.letters)})")
    number = int(number)
    if not 1 <= number <= PIECES_PER_COLOR:
        raise NotationError(f"pieces are numbered 1 to {PIECES_PER_COLOR}")
    if space.lower() not in board.index:
        raise NotationError(f"{space} is not a space of the {board.name} board")
    piece = board.letters.index(letter.upper()) * PIECES_PER_COLOR + number - 1
    action = piece * game.num_spaces + board.index[space.lower()]
    return action + game.setup_base if sep == "@" else action


def describe_tasks(tasks: Tasks) -> str:
    """'piece 1 moves 5, piece 5 moves 1' for the turn's remaining moves."""
    return ", ".join(f"piece {n} moves {k}" if n else f"another piece moves {k}"
                     for n, k in tasks)


def explain_illegal(state: KOState, action: Action) -> str:
    """Why `action` is not legal in `state`, as '<notation>: <reason>'."""
    number = _valid(state.game, action)
    if number is None:
        return f"{action!r} is not a K.O. action"
    return f"{action_to_string(state, number)}: {_reason(state, number)}"


def _reason(state: KOState, action: int) -> str:
    game = state.game
    kind = _kind(game, action)
    if state.phase == END:
        return "the game is over"
    who = game.player_name(state.cur)
    if state.current_player() == CHANCE:
        return "the dice must be thrown first (enter the throw as 'roll A B')"
    if kind == "roll":
        return f"no throw is due: {who} is to {'place a piece' if state.phase == SETUP else 'move'}"
    if state.phase == SETUP:
        return _setup_reason(state, action, kind, who)
    if kind == "place":
        return "the set-up is over"
    if kind == "pass":
        return "a move is possible, and the rolled pieces have to move (KO-2)"
    return _move_reason(state, action, who)


def _setup_reason(state: KOState, action: int, kind: str, who: str) -> str:
    game = state.game
    board = game.board
    expected = game.setup_order[state.setup_next]
    if kind != "place":
        return (f"the set-up comes first: {who} places "
                f"{game.piece_name(expected)} on a start space")
    piece, space = divmod(action - game.setup_base, game.num_spaces)
    color = piece // PIECES_PER_COLOR
    if piece != expected:
        return (f"{game.piece_name(expected)} is to be placed now (each color places "
                "its pieces 1 to 6 in order)")
    if space not in board.starts[color]:
        return f"{board.spaces[space]} is not a start space of {board.color_names[color]}"
    return f"{board.spaces[space]} is already taken"


def _move_reason(state: KOState, action: int, who: str) -> str:
    game = state.game
    piece = action // game.num_spaces
    name = game.piece_name(piece)
    owner = game.seat_of_piece[piece]
    if owner < 0:
        color = game.board.color_names[piece // PIECES_PER_COLOR]
        return f"{color} does not play in a {game.num_players}-player game"
    if owner != state.cur:
        return f"{name} belongs to {game.player_name(owner)}, and {who} is to move"
    if state.pos[piece] == OUT:
        return f"{name} is out of the game"
    number = piece % PIECES_PER_COLOR + 1
    if not state.contested(owner, number):
        return (f"{name} is frozen: no opponent has a {number} in play any more, so it "
                "stays where it is")
    steps = None
    for task_number, task_steps in state.tasks or ():
        if task_number == number or (task_number == 0 and number != task_steps):
            steps = task_steps
    if steps is None:
        return (f"the moves left this turn ({describe_tasks(state.tasks or ())}) do not move a "
                f"{number}")
    return _destination_reason(state, action, steps)


def _destination_reason(state: KOState, action: int, steps: int) -> str:
    """Why a piece with a move of `steps` left cannot end its move where `action` says."""
    game = state.game
    board = game.board
    piece, dest = divmod(action, game.num_spaces)
    name = game.piece_name(piece)
    if dest not in board.reach[state.pos[piece]][steps]:
        return (f"{name} cannot reach {board.spaces[dest]} by a path of exactly {steps} "
                f"step{'s' if steps > 1 else ''} along lines that visits no space twice")
    other = state.occ[dest]
    if other < 0:
        return "not legal here"
    if game.seat_of_piece[other] == game.seat_of_piece[piece]:
        return f"{board.spaces[dest]} is taken by {game.piece_name(other)}, your own piece"
    return (f"{board.spaces[dest]} is taken by {game.piece_name(other)}, and {name} "
            f"can only knock out a {piece % PIECES_PER_COLOR + 1}")
