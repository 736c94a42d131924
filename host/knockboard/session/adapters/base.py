"""What every game adapter gives the session: the game's view of a position, the presses
that choose each legal action, the physical steps an action asks for, and its dice.

The session itself knows no game; an adapter knows one game and no board I/O.  Adapters
read positions through the engines' documented position format and notation (the public
contract of `knockboard.games`), so they never reach into an engine's internals."""

import re

from ...games import CHANCE
from ..types import Option, clip

_INTS = re.compile(r"\d+")


class GameUI:
    """Defaults shared by the four games; each adapter overrides what its game needs."""

    name = ""
    # one (r, g, b) per seat, full strength; the scene dims them for resting pieces
    COLORS = ((255, 255, 255), (0, 90, 255), (255, 200, 0), (0, 255, 0))

    def __init__(self, game, layout):
        self.game = game
        self.layout = layout

    # --- who and what -----------------------------------------------------------------------
    def seat_name(self, seat):
        return self.game.player_name(seat)

    def color(self, index):
        return self.COLORS[index % len(self.COLORS)]

    def acting_seat(self, state):
        """The seat the next decision belongs to (CHANCE and TERMINAL pass through)."""
        return state.current_player()

    def prompt(self, state):
        """The OLED's first line for the player to act."""
        return clip(f"{self.seat_name(state.current_player())} to move")

    def view(self, state):
        raise NotImplementedError

    # --- presses ----------------------------------------------------------------------------
    def options(self, state):
        """An Option for every legal action of the player to act."""
        return [self.option(state, a) for a in state.legal_actions()]

    def option(self, state, action):
        text = state.action_to_string(action)
        return Option(action, (), clip(text))

    def cell(self, space):
        return self.layout.cell(space).index

    # --- physical steps ---------------------------------------------------------------------
    def steps(self, before, action, after):
        """The Steps that bring the physical board from `before` to `after` (= before with
        `action` applied); [] when nothing but the piece the player pressed moves."""
        return []

    def hides(self, state, action):
        """True if the log must not show this action (a secret set-up)."""
        return False

    # --- dice -------------------------------------------------------------------------------
    def die_kind(self, state):
        """The die (4, 6 or 8 sides) rolled at this chance node."""
        return 6

    def dice_count(self, state):
        """How many dice this chance node rolls at once."""
        return len(self.dice_values(state, state.legal_actions()[0]))

    def dice_values(self, state, outcome):
        """The faces a chance outcome shows, in the order the notation writes them."""
        return tuple(int(v) for v in _INTS.findall(state.action_to_string(outcome)))

    def outcome_for(self, state, values):
        """The chance outcome matching dice read from physical dice, or None.  Dice that
        the notation writes unordered (low first) match in any order."""
        assert state.current_player() == CHANCE
        values = tuple(values)
        fallback = None
        for outcome in state.legal_actions():
            shown = self.dice_values(state, outcome)
            if shown == values:
                return outcome
            if fallback is None and sorted(shown) == sorted(values):
                fallback = outcome
        return fallback

    def dice_labels(self, state):
        """What each physical die is, for the entry prompt ("White d6", "d6")."""
        return [f"d{self.die_kind(state)}"] * self.dice_count(state)

    # --- terminal ---------------------------------------------------------------------------
    def text_board(self, state):
        """The board as text, for the terminal; a grid of the layout by default."""
        view = self.view(state)
        return grid_text(self.layout, lambda space: _token(view, space))


def _token(view, space):
    piece = view.pieces.get(space)
    if piece is not None:
        return piece.name
    if space in view.marks:
        return "o"
    return "."


def grid_text(layout, token_of, width=5):
    """Cells drawn at their layout positions on a character grid (rows by y, columns by x)."""
    xs = sorted({round(c.x) for c in layout.cells})
    ys = sorted({round(c.y) for c in layout.cells})
    col = {x: i for i, x in enumerate(xs)}
    row = {y: i for i, y in enumerate(ys)}
    grid = [[" " * width] * len(xs) for _ in ys]
    for c in layout.cells:
        grid[row[round(c.y)]][col[round(c.x)]] = token_of(c.space)[:width - 1].rjust(width - 1) + " "
    return "\n".join("".join(r).rstrip() for r in grid)
