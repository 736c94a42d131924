"""K.O. position format: one line of space-separated fields.

    <seats> <phase> <color>=<p1>,<p2>,<p3>,<p4>,<p5>,<p6> ...

- seats: the seating, clockwise, seats separated by `/` and each seat written as its color
  letters: `R/G/Y/B` (4 players), `R/G/Y` (3), `RB/GY` (2 players: red+blue, green+yellow).
- phase, one of
    setup:R3            set-up (KO-1); the piece named is the next to be placed
    rolloff:7,?,-,?     roll-off, per seat: its sum this round, `?` still to throw,
                        `-` dropped out in an earlier tied round
    turn:G:roll         a turn; the seat named must throw the dice
    turn:G:1>5,5>1      a turn after the throw: the moves left, `n>k` = piece n moves k
                        steps, `*>k` = any other piece (of a double) moves k steps
    turn:G:roll:q7      ... after `:q<n>`: n turns thrown since the last knock-out (KO-3;
                        written only when n > 0)
    end                 the game is over: no knock-out is possible any more
    end:quiet           the game is over by KO-3 (full rounds without a knock-out)
- one field per color in play, in seating order (R B G Y with 2 players): the spaces of its
  pieces 1..6, `-` for a piece knocked out, `?` for one not placed yet.

Parsing checks that the text describes a position the rules can reach, as far as that can
be seen from the position alone, and names the offending field when it does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Iterable, List, NoReturn, Tuple

from ..base import PositionError
from .constants import DROPPED, END, OUT, ROLLOFF, SETUP, TO_THROW, TURN, UNPLACED, Tasks
from .board import PIECES_PER_COLOR, KOBoard
from ..position_text import split_fields

if TYPE_CHECKING:                      # the state is only read and filled here, never made
    from .game import KOGame, KOState

_DIGITS = {"1", "2", "3", "4", "5", "6"}
_FORMAT = "expected '<seats> <phase> <color>=<6 spaces> ...'"


def format_position(state: KOState) -> str:
    game = state.game
    fields = ["/".join(game.seat_tokens), _phase_field(state)]
    names = game.board.spaces
    for color in game.colors:
        spots = []
        for k in range(PIECES_PER_COLOR):
            where = state.pos[color * PIECES_PER_COLOR + k]
            spots.append(names[where] if where >= 0 else "-" if where == OUT else "?")
        fields.append(f"{game.board.letters[color]}=" + ",".join(spots))
    return " ".join(fields)


def _phase_field(state: KOState) -> str:
    game = state.game
    phase = state.phase
    if phase == SETUP:
        return f"setup:{game.piece_name(game.setup_order[state.setup_next])}"
    if phase == ROLLOFF:
        return "rolloff:" + ",".join(
            "?" if r == TO_THROW else "-" if r == DROPPED else str(r) for r in state.rolloff or ())
    if phase == TURN:
        quiet = f":q{state.quiet}" if state.quiet else ""
        if state.tasks is None:
            return f"turn:{game.seat_tokens[state.cur]}:roll{quiet}"
        moves = ",".join(f"{n if n else '*'}>{k}" for n, k in state.tasks)
        return f"turn:{game.seat_tokens[state.cur]}:{moves}{quiet}"
    return "end:quiet" if state.knockout_possible() else "end"


def _fail(message: str) -> NoReturn:
    raise PositionError(f"K.O. position: {message}")


def parse_position(state: KOState, text: str) -> KOState:
    """Fill the fresh KOState `state` from the position `text` and return it: the fields
    are read into plain values (seating, each color's spots, the phase), then checked
    against the rules, the first problem found named with its field."""
    game = state.game
    tokens = split_fields(text, f"K.O. position: {_FORMAT}, got {text!r}")
    if len(tokens) < 2:
        _fail(f"{_FORMAT}, got {text!r}")
    _check_seats(game, tokens[0])
    _place_pieces(state, _read_colors(game, tokens[2:]))
    phase, _, arg = tokens[1].partition(":")
    _PHASES.get(phase, _bad_phase)(state, tokens[1], arg)
    if state.phase != SETUP:
        state.setup_next = len(game.setup_order)
    state._legal = None
    return state


def _read_colors(game: KOGame, tokens: List[str]) -> Dict[int, List[int]]:
    """{color: [space index, OUT or UNPLACED for pieces 1..6]} from the color fields."""
    board = game.board
    pos: Dict[int, List[int]] = {}
    for token in tokens:
        color, rest = _read_color(game, token, pos)
        entries = rest.split(",")
        if len(entries) != PIECES_PER_COLOR:
            _fail(f"field {token!r}: expected {PIECES_PER_COLOR} entries (pieces 1 to "
                  f"{PIECES_PER_COLOR}), got {len(entries)}")
        pos[color] = [_read_spot(board, token, k, entry) for k, entry in enumerate(entries)]
    missing = [board.letters[c] for c in game.colors if c not in pos]
    if missing:
        _fail(f"no field{'s' if len(missing) > 1 else ''} for color"
              f"{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
    return pos


def _read_color(game: KOGame, token: str, seen: Dict[int, List[int]]) -> Tuple[int, str]:
    """The color of a field `<letter>=<entries>` and its entries."""
    board = game.board
    letter, eq, rest = token.partition("=")
    if not eq or letter.upper() not in board.letters:
        _fail(f"field {token!r}: expected <color letter>=<6 spaces> with a color of "
              f"{'/'.join(board.letters)}")
    color = board.letters.index(letter.upper())
    if color not in game.colors:
        _fail(f"field {token!r}: {board.color_names[color]} does not play in a "
              f"{game.num_players}-player game")
    if color in seen:
        _fail(f"field {token!r}: {board.color_names[color]} is listed twice")
    return color, rest


_MARKERS = {"?": UNPLACED, "-": OUT}


def _read_spot(board: KOBoard, token: str, k: int, entry: str) -> int:
    if entry in _MARKERS:
        return _MARKERS[entry]
    where = board.index.get(entry.lower())
    if where is None:
        _fail(f"field {token!r}: piece {k + 1} at {entry!r}, which is not a space "
              "(or '-' for out, '?' for not placed)")
    return where


def _place_pieces(state: KOState, pos: Dict[int, List[int]]) -> None:
    game = state.game
    taken: Dict[int, int] = {}
    for color in game.colors:
        for k, where in enumerate(pos[color]):
            piece = color * PIECES_PER_COLOR + k
            if where < 0:
                state.pos[piece] = where
                continue
            if where in taken:
                _fail(f"{game.board.spaces[where]} holds both "
                      f"{game.piece_name(taken[where])} and {game.piece_name(piece)}")
            taken[where] = piece
            state._place(piece, where)


def _bad_phase(state: KOState, token: str, arg: str) -> None:
    _fail(f"phase {token!r}: expected setup:<piece>, rolloff:<throws>, "
          "turn:<seat>:roll, turn:<seat>:<moves> or end")


def _end(state: KOState, token: str, arg: str) -> None:
    if arg not in ("", "quiet"):
        _bad_phase(state, token, arg)
    _no_unplaced(state, token)
    if arg and not state.game.options["quiet_rounds"]:
        _fail(f"phase {token!r}: this game has no limit of rounds without a knock-out "
              "(option quiet_rounds=0)")
    if arg and not state.knockout_possible():
        _fail(f"phase {token!r}, but no number is in play for two seats any more: the "
              "game ended without knock-outs left (phase 'end')")
    if not arg and state.knockout_possible():
        _fail("phase 'end', but some number is still in play for two seats, so a "
              "knock-out is still possible (a game ended by KO-3 is 'end:quiet')")
    state.phase = END
    # KO-3 ends the game on the turn that reaches the limit, so the count is the limit
    state.quiet = state.quiet_limit() if arg else 0


def _check_seats(game: KOGame, token: str) -> None:
    expected = "/".join(game.seat_tokens)
    if token.upper() == expected:
        return
    for count, seats in sorted(game.board.seats.items()):
        if token.upper() == "/".join("".join(game.board.letters[c] for c in s) for s in seats):
            _fail(f"seating {token!r} is a {count}-player position, but this game has "
                  f"{game.num_players} players ({expected}); use the option players={count}")
    _fail(f"seating {token!r}: expected {expected} for {game.num_players} players")


def _no_unplaced(state: KOState, token: str) -> None:
    for piece in state.game.setup_order:
        if state.pos[piece] == UNPLACED:
            _fail(f"phase {token!r}, but {state.game.piece_name(piece)} is not placed ('?')")


def _on_start_spaces(state: KOState, token: str, pieces: Iterable[int]) -> None:
    game = state.game
    for piece in pieces:
        where = state.pos[piece]
        color = piece // PIECES_PER_COLOR
        if where == OUT:
            _fail(f"phase {token!r}, but {game.piece_name(piece)} is out: nothing can be "
                  "knocked out before the first turn")
        if where >= 0 and where not in game.board.starts[color]:
            _fail(f"phase {token!r}, but {game.piece_name(piece)} stands on "
                  f"{game.board.spaces[where]}, not a start space of "
                  f"{game.board.color_names[color]}")


def _setup(state: KOState, token: str, arg: str) -> None:
    game = state.game
    order = game.setup_order
    names = [game.piece_name(p) for p in order]
    if arg.upper() not in names:
        _fail(f"phase {token!r}: expected setup:<piece to place next>, e.g. setup:{names[0]}")
    nxt = names.index(arg.upper())
    _on_start_spaces(state, token, order)
    for i, piece in enumerate(order):
        placed = state.pos[piece] >= 0
        if placed != (i < nxt):
            _fail(f"phase {token!r}: pieces are placed seat by seat, each color 1 to 6, so "
                  f"before {names[nxt]} exactly {', '.join(names[:nxt]) or 'none'} are "
                  f"placed ({names[i]} is {'placed' if placed else 'not'})")
    state.phase = SETUP
    state.setup_next = nxt
    state.cur = game.seat_of_piece[order[nxt]]


def _rolloff(state: KOState, token: str, arg: str) -> None:
    game = state.game
    rolls = _read_rolls(game, token, arg)
    if TO_THROW not in rolls:
        _fail(f"phase {token!r}: someone must still throw ('?'); a decided roll-off is "
              "written as the first turn, turn:<seat>:roll")
    contenders = [r for r in rolls if r != DROPPED]
    if len(contenders) < 2:
        _fail(f"phase {token!r}: a roll-off needs at least two seats still in it")
    if any(r > 0 for r in contenders[contenders.index(TO_THROW):]):
        _fail(f"phase {token!r}: seats throw in seating order, so no sum can follow a '?'")
    _no_unplaced(state, token)
    _on_start_spaces(state, token, game.setup_order)
    state.phase = ROLLOFF
    state.rolloff = tuple(rolls)
    state.cur = rolls.index(TO_THROW)


_ROLL_MARKERS = {"?": TO_THROW, "-": DROPPED}


def _read_rolls(game: KOGame, token: str, arg: str) -> List[int]:
    """Per seat: the sum it threw, TO_THROW or DROPPED."""
    entries = arg.split(",")
    if len(entries) != game.num_players:
        _fail(f"phase {token!r}: expected one entry per seat ({game.num_players})")
    rolls = []
    for entry in entries:
        if entry in _ROLL_MARKERS:
            rolls.append(_ROLL_MARKERS[entry])
        elif entry.isdigit() and 2 <= int(entry) <= 12:
            rolls.append(int(entry))
        else:
            _fail(f"phase {token!r}: entry {entry!r} is not a sum of two dice (2-12), "
                  "'?' (to throw) or '-' (dropped out)")
    return rolls


def _turn(state: KOState, token: str, arg: str) -> None:
    game = state.game
    seat_token, sep, moves = arg.partition(":")
    if not sep or seat_token.upper() not in game.seat_tokens:
        _fail(f"phase {token!r}: expected turn:<seat>:roll or turn:<seat>:<moves> with a "
              f"seat of {'/'.join(game.seat_tokens)}")
    seat = game.seat_tokens.index(seat_token.upper())
    moves, quiet = _quiet(state, token, moves)
    _no_unplaced(state, token)
    if not state.knockout_possible():
        _fail(f"phase {token!r}, but no number is in play for two seats any more: the "
              "game is over (phase 'end')")
    if moves == "roll":
        tasks = None
        if not state.is_active(seat):
            _fail(f"phase {token!r}: {game.player_name(seat)} has no piece that can move "
                  "and would be skipped")
    else:
        tasks = _tasks(token, moves)
    limit = state.quiet_limit()
    if limit and (quiet > limit or quiet == limit and tasks is None):
        _fail(f"phase {token!r}: {quiet} turns without a knock-out reach the limit of "
              f"{limit} (KO-3), so the game would be over ('end:quiet')")
    state.phase = TURN
    state.cur = seat
    state.tasks = tasks
    state.quiet = quiet


def _quiet(state: KOState, token: str, moves: str) -> Tuple[str, int]:
    """(the moves, the KO-3 count) of `roll:q7` or `1>5,5>1:q7`; the count is 0 without."""
    moves, sep, count = moves.partition(":")
    if not sep:
        return moves, 0
    if not count.startswith("q") or not count[1:].isdigit() or count[1:].startswith("0"):
        _fail(f"phase {token!r}: {count!r} is not q<n>, the turns thrown since the last "
              "knock-out (n > 0)")
    return moves, int(count[1:])


def _tasks(token: str, text: str) -> Tasks:
    tasks = [_read_task(token, item) for item in text.split(",")]
    if len(tasks) > 2 or len(set(tasks)) != len(tasks):
        _fail(f"phase {token!r}: a throw leaves at most two different moves")
    if any(n in (0, k) for n, k in tasks):
        steps = tasks[0][1]
        if any(k != steps or n not in (0, steps) for n, k in tasks):
            _fail(f"phase {token!r}: a double n leaves only n>n and *>n")
    elif len(tasks) == 2 and tasks[1] != (tasks[0][1], tasks[0][0]):
        _fail(f"phase {token!r}: two moves of one throw a, b are a>b and b>a")
    return tuple(sorted(tasks, key=lambda t: (t[0] == 0, t[0])))


def _read_task(token: str, item: str) -> Tuple[int, int]:
    """(piece number or 0 for any other piece, steps) from `n>k`."""
    number, gt, steps = item.partition(">")
    if not gt or not (number == "*" or number in _DIGITS) or steps not in _DIGITS:
        _fail(f"phase {token!r}: move {item!r} is not n>k (piece n moves k steps, "
              "n = 1..6 or * for any other piece of a double, k = 1..6)")
    return (0 if number == "*" else int(number), int(steps))


_PHASES = {"setup": _setup, "rolloff": _rolloff, "turn": _turn, "end": _end}
