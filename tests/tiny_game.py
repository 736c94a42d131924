"""A throwaway game of three cells, to show that a game is added with its own files and one
registration (tests/test_registry.py).  Two players take turns claiming a free cell of the
row a-b-c; whoever holds two cells when the row is full wins.

Position text: the player to move (1 or 2) and the row, e.g. `2 1..` (cell a is player
1's); `- 121` once the row is full."""

from knockboard.games import TERMINAL, Game, IllegalMoveError, NotationError, PositionError, State
from knockboard.games.view import PieceView, PositionView, frozen_map
from knockboard.layouts import LayoutCell, Layout
from knockboard.session.adapters.base import GameUI
from knockboard.session.types import Option, Piece, View

CELLS = "abc"
NAME = "tiny"


class TinyGame(Game):
    name = NAME
    title = "Tiny"

    @property
    def num_players(self):
        return 2

    def new_initial_state(self):
        return TinyState(self)

    def from_position(self, text):
        turn, _, row = str(text).partition(" ")
        if len(row) != 3 or set(row) - set(".12"):
            raise PositionError(f"{text!r}: expected '<turn> <row of . 1 2>'")
        state = TinyState(self)
        state.row = [None if c == "." else int(c) - 1 for c in row]
        if turn != state._turn_token():
            raise PositionError(f"{text!r}: turn {turn!r} does not match the row")
        return state


class TinyState(State):
    def __init__(self, game):
        super().__init__(game)
        self.row = [None] * 3

    def _turn_token(self):
        return "-" if self.is_terminal() else str(self.current_player() + 1)

    def current_player(self):
        taken = sum(c is not None for c in self.row)
        return TERMINAL if taken == 3 else taken % 2

    def legal_actions(self):
        return [] if self.is_terminal() else [i for i, c in enumerate(self.row) if c is None]

    def chance_outcomes(self):
        return []

    def _check_action(self, action):
        if action not in self.legal_actions():
            raise IllegalMoveError(f"{action!r} is not legal here")

    def _apply_action(self, action, checked):
        self.row[action] = self.current_player()
        return action

    def _undo_action(self, record):
        self.row[record] = None

    def view(self):
        pieces = frozen_map((CELLS[i], PieceView(c)) for i, c in enumerate(self.row)
                            if c is not None)
        who = self.current_player()
        return PositionView(NAME, "over" if who == TERMINAL else "move", who,
                            -1 if who == TERMINAL else who, pieces,
                            scores=(self.row.count(0), self.row.count(1)))

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        first = 1.0 if self.row.count(0) >= 2 else -1.0
        return [first, -first]

    def to_position(self):
        return self._turn_token() + " " + "".join(
            "." if c is None else str(c + 1) for c in self.row)

    def action_to_string(self, action):
        return CELLS[action]

    def _read_notation(self, text):
        if text not in CELLS:
            raise NotationError(f"{text!r} is not a cell (a, b or c)")
        return CELLS.index(text)

    def clone(self):
        other = TinyState(self.game)
        other.row, other.history = list(self.row), list(self.history)
        other._undo = list(self._undo)
        return other

    def result(self):
        if not self.is_terminal():
            return None
        return f"player {1 if self.returns()[0] > 0 else 2} wins"


def layout():
    return Layout(NAME, 100.0, 40.0,
                  [LayoutCell(i, s, 20.0 + 30 * i, 20.0, "square", 25.0, "plain")
                   for i, s in enumerate(CELLS)])


class TinyUI(GameUI):
    name = NAME

    def view(self, state):
        return View({CELLS[i]: Piece(c, f"P{c + 1}") for i, c in enumerate(state.row)
                     if c is not None})

    def option(self, state, action):
        return Option(action, (self.cell(CELLS[action]),), CELLS[action])


def score(state, player):
    return state.row.count(player) - state.row.count(1 - player)
