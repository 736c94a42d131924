"""What every game adapter gives the session: the game's view of a position, the presses
that choose each legal action, the physical steps an action asks for, and its dice.

The session itself knows no game; an adapter knows one game and no board I/O.  Adapters
read positions through `state.view()` (games/view.py) and actions through the notation,
the public contract of `knockboard.games`, so they never reach into an engine's internals
nor parse its position string; they write a position string only for an edited board."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from ...games import CHANCE, TERMINAL
from ..types import Option, Piece, Step, View, clip

if TYPE_CHECKING:
    from ...games.base import Action, Game, State
    from ...layouts.base import Layout
    from ..types import EditBoard

_INTS = re.compile(r"\d+")


class GameUI:
    """Defaults shared by the four games; each adapter overrides what its game needs."""

    name = ""
    # one (r, g, b) per seat, full strength; the scene dims them for resting pieces
    COLORS: tuple = ((255, 255, 255), (0, 90, 255), (255, 200, 0), (0, 255, 0))
    SCORE_UNIT = ""          # what the view's scores count ("points in play")
    FEWEST_LEAD = False      # True: the fewest lead (KNOCKabout's dice in the gutter)
    # a hint's cells chase in a colour no seat, target or ball uses, so it is seen on any piece
    HINT: tuple = (255, 0, 255)

    def __init__(self, game: Game, layout: Layout, names: Sequence[str] = ()) -> None:
        self.game = game
        self.layout = layout
        # the players' names by seat ("": none); a name that is only the seat's colour or the
        # engine's name for it (a record names every seat) is none
        self.names = tuple(
            "" if name in (self.colour_name(seat), game.player_name(seat)) else name
            for seat, name in enumerate(list(names)[:game.num_players]))

    # --- who and what -----------------------------------------------------------------------
    def colour_name(self, seat: int) -> str:
        """The seat by the colour its pieces are lit in ("White", "Green+Yellow"): what
        the pieces, the steps and the edits name, whoever plays them."""
        return self.game.player_name(seat)

    def seat_name(self, seat: int) -> str:
        """Who plays the seat, as the table says it: the player's name, else its colour."""
        name = self.names[seat] if 0 <= seat < len(self.names) else ""
        return name or self.colour_name(seat)

    def named(self, text: str) -> str:
        """`text` with each named seat's colour ("White", "Green+Yellow") in it as the
        player's name: an engine's result written by colour, read at a named table."""
        said = {self.colour_name(s): n for s, n in enumerate(self.names) if n}
        if not said:
            return text
        # one pass, longest colour first: a name with a colour in it stays as it is given
        colours = "|".join(re.escape(c) for c in sorted(said, key=len, reverse=True))
        return re.sub(rf"(?<![\w+])(?:{colours})(?![\w+])", lambda m: said[m.group(0)], text)

    def color(self, index: int) -> tuple[int, int, int]:
        return self.COLORS[index % len(self.COLORS)]

    def table_words(self, text: str) -> str:
        """An engine's message (an edit it refuses) as the players read it: the seats it
        names as the engine numbers them ("P1 has 3 pawns", "team 1 pawn on a7") named as
        the players know them ("Red has 3 pawns", "Blue pawn on a7")."""
        for seat in range(self.game.num_players):
            engine, ours = self.game.player_name(seat), self.colour_name(seat)
            if engine != ours:
                text = re.sub(rf"\b{re.escape(engine)}\b", ours, text, flags=re.IGNORECASE)
        return text

    def result(self, state: State) -> Optional[str]:
        """How the game ended, its seats named as at the table: the engine's words, or, for
        a game whose engine numbers its seats ("P1 wins", "Team 1 wins"), the winner by
        `seat_name` (the seat the engine's returns rank first)."""
        text = state.result()
        if text is None or self.colour_name(0) == self.game.player_name(0):
            return None if text is None else self.named(text)
        returns = list(state.returns())
        best = max(returns)
        winners = [seat for seat, r in enumerate(returns) if r == best]
        return f"{self.seat_name(winners[0])} wins" if len(winners) == 1 else text

    def end_reason(self, state: State) -> str:
        """Why the game is over, in the rules' words ("Black has 5 dice in the gutter"); ""
        before the end."""
        return ""

    def prompt(self, state: State) -> str:
        """The OLED's first line for the player to act."""
        return clip(f"{self.seat_name(state.current_player())} to move")

    def view(self, state: State) -> View:
        raise NotImplementedError

    def rolloff_roller(self, state: State) -> str:
        """Who rolls at this roll-off chance step ("Red"), for the terminal's log."""
        marks = getattr(state.view(), "rolloff", ())
        return self.seat_name(list(marks).index(0)) if 0 in marks else "everybody"

    def rolloff_outcome(self, state: State) -> str:
        """Once the roll-off is over: who starts, and by what rule."""
        return f"{self.seat_name(state.view().turn)} starts (the highest roll)"

    def public(self, view: Any) -> Any:
        """The engine's view (`games.view`) as everybody at the table may see it, for the
        pictures of the board (the simulator's window): all of it, unless the game keeps
        something secret."""
        return view

    def standing(self, state: State) -> tuple[str, str]:
        """A game the players end by agreement, scored by what the rules count on the
        board (the view's scores: K.O.'s points, the pawns left, the dice in the gutter):
        (who leads, "Red 9, Green 4 points in play")."""
        scores = list(state.view().scores)
        names = [self.seat_name(seat) for seat in range(len(scores))]
        best = (min if self.FEWEST_LEAD else max)(scores)
        leaders = [n for n, s in zip(names, scores) if s == best]
        if len(leaders) == len(names):
            verdict = "a draw"
        elif len(leaders) == 1:
            verdict = f"{leaders[0]} wins"
        else:
            verdict = " and ".join(leaders) + " share"
        tally = ", ".join(f"{n} {s:g}" for n, s in zip(names, scores))
        return verdict, f"{tally} {self.SCORE_UNIT}".rstrip()

    # --- presses ----------------------------------------------------------------------------
    def options(self, state: State) -> list[Option]:
        """An Option for every legal action of the player to act."""
        return [self.option(state, a) for a in state.legal_actions()]

    def option(self, state: State, action: Action) -> Option:
        text = state.action_to_string(action)
        return Option(action, (), clip(text))

    def cell(self, space: str) -> int:
        return self.layout.cell(space).index

    def refusal(self, state: State, options: Sequence[Option], space: str) -> str:
        """Why a press on `space` starts none of `options` (the legal actions of the
        player to act), in a few words for the OLED: whose piece it is, or that it cannot
        move, or that nothing starts there."""
        piece = self.view(state).pieces.get(space)
        if piece is None:
            placing = any(len(o.path) == 1 for o in options)
            return "not free to use" if placing else f"{space}: no piece"
        if piece.owner != state.current_player():
            return clip(f"{self.piece_words(piece)}: not yours")
        return clip(f"{self.piece_words(piece)} can't move")

    def piece_words(self, piece: Piece) -> str:
        """A piece as the players at the table name it, by its colour and what is printed
        on it ("Green pawn", "Black d4"), not by the terminal board's code ("Gx4", "O")."""
        return f"{self.colour_name(piece.owner)} {piece.name}"

    # --- physical steps ---------------------------------------------------------------------
    def steps(self, before: State, action: Action, after: State) -> list[Step]:
        """The Steps that bring the physical board from `before` to `after` (= before with
        `action` applied); [] when nothing but the piece the player pressed moves."""
        return []

    def hides(self, state: State, action: Action) -> bool:
        """True if the log must not show this action (a secret set-up)."""
        return False

    # --- dice -------------------------------------------------------------------------------
    def die_kind(self, state: State) -> int:
        """The die (4, 6 or 8 sides) rolled at this chance node."""
        return 6

    def dice_count(self, state: State) -> int:
        """How many dice this chance node rolls at once."""
        return len(self.dice_values(state, state.legal_actions()[0]))

    def dice_values(self, state: State, outcome: Action) -> tuple[int, ...]:
        """The faces a chance outcome shows, in the order the notation writes them."""
        return tuple(int(v) for v in _INTS.findall(state.action_to_string(outcome)))

    def outcome_for(self, state: State, values: Sequence[int]) -> Optional[Action]:
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

    def dice_owners(self, state: State) -> list[str]:
        """Whose each die rolled at this chance node is, as the players say it ("Red",
        "White", "reroll F8"): the seat whose turn it is; roll-offs and duels override."""
        turn = state.view().turn
        owner = self.seat_name(turn) if turn >= 0 else "roll-off"
        return [owner] * self.dice_count(state)

    def dice_labels(self, state: State) -> list[str]:
        """What each physical die is, for the entry prompt: whose and which ("Red d6")."""
        kind = self.die_kind(state)
        return [f"{owner} d{kind}" for owner in self.dice_owners(state)]

    # --- edit mode (session/edit_presses.py) --------------------------------------------------
    # What pressing a selected piece again changes ("face", "ball"); None: it deselects.
    EDIT_VARIANT: Optional[str] = None

    def edit_refusal(self, state: State) -> Optional[str]:
        """Why this position cannot be edited now, in a word for the OLED ("dice", "throw",
        "setup", "over"), or None: edits are made where a player is to decide, with no die
        to roll and nothing half done, so the position string says all there is."""
        player = state.current_player()
        if player == TERMINAL:
            return "over"
        if player == CHANCE:
            return "dice"
        return None

    def edit_board(self, state: State) -> EditBoard:
        """The EditBoard of an editable position."""
        raise NotImplementedError

    def edit_position(self, board: EditBoard) -> str:
        """The position string of an edited board, for the engine's from_position (which
        checks it)."""
        raise NotImplementedError

    def edit_view(self, board: EditBoard) -> View:
        return View(dict(board.pieces), self.edit_marks(board))

    def edit_marks(self, board: EditBoard) -> dict[str, str]:
        return {}

    def edit_can_vary(self, board: EditBoard, space: str) -> bool:
        return self.EDIT_VARIANT is not None and space in board.pieces

    def edit_vary(self, board: EditBoard, space: str) -> Optional[str]:
        """Change what the piece on `space` is; a short reason instead when it cannot be."""
        return "no change"

    def edit_takes(self, board: EditBoard, src: str, dst: str) -> bool:
        """True if the occupied `dst` takes the piece selected on `src` (Knock-Off: its own
        home base) instead of being selected itself."""
        return False

    def edit_move(self, board: EditBoard, src: str, dst: str) -> Optional[str]:
        """Move the piece on `src` to `dst` (empty, or taking it); a reason if it cannot go."""
        board.pieces[dst] = board.pieces.pop(src)
        return None

    def edit_remove(self, board: EditBoard, space: str) -> Optional[str]:
        """Take the piece on `space` off the board; a reason if it cannot be."""
        board.spare.append(board.pieces.pop(space))
        return None

    def edit_candidates(self, board: EditBoard, space: str) -> list[Piece]:
        """The pieces off the board that may be put on the empty `space`, one of each kind."""
        out = []
        for piece in board.spare:
            if piece not in out:
                out.append(piece)
        return out

    def edit_put(self, board: EditBoard, space: str, piece: Piece) -> None:
        board.spare.remove(piece)
        board.pieces[space] = piece

    def edit_settings(self, board: EditBoard) -> list[tuple[str, str]]:
        """What else of the position may be changed: [(key, label)], MENU in edit mode."""
        return [("turn", clip(f"{self.seat_name(board.turn)} to move"))]

    def edit_setting(self, board: EditBoard, key: str) -> Optional[str]:
        """Change the setting `key` to its next value; a reason if it cannot change."""
        if key == "turn":
            board.turn = (board.turn + 1) % self.game.num_players
        return None

    def edit_diff(self, before: EditBoard, after: EditBoard) -> list[Step]:
        """The Steps that take the physical board from EditBoard `before` to `after`: moves,
        pieces off and on, pieces changed in place, then the changed settings."""
        return self.edit_piece_steps(before, after) + self.edit_setting_steps(before, after)

    def edit_piece_steps(self, before: EditBoard, after: EditBoard) -> list[Step]:
        gone = {s: p for s, p in before.pieces.items() if after.pieces.get(s) != p}
        new = {s: p for s, p in after.pieces.items() if before.pieces.get(s) != p}
        steps = []
        for space in sorted(set(gone) & set(new)):     # changed in place (a die's face)
            piece = new.pop(space)
            del gone[space]
            steps.append(Step("place", None, space, clip(f"{space}: {piece.name}"),
                              piece.owner))
        for src in sorted(gone):                       # the same piece gone here, new there
            dst = next((d for d in sorted(new) if new[d] == gone[src]), None)
            if dst is not None:
                piece = gone.pop(src)
                del new[dst]
                steps.append(Step("move", src, dst, clip(f"{piece.name} {src}>{dst}"),
                                  piece.owner))
        steps += [Step("remove", s, None, clip(f"{p.name} {s} off"), p.owner)
                  for s, p in sorted(gone.items())]
        steps += [Step("place", None, s, clip(f"{p.name} on {s}"), p.owner)
                  for s, p in sorted(new.items())]
        return steps

    def edit_setting_steps(self, before: EditBoard, after: EditBoard) -> list[Step]:
        was = dict(self.edit_settings(before))
        return [Step("info", text=label) for key, label in self.edit_settings(after)
                if was.get(key) != label]

    # --- terminal ---------------------------------------------------------------------------
    def text_board(self, state: State) -> str:
        """The board as text, for the terminal; a grid of the layout by default."""
        view = self.view(state)
        return grid_text(self.layout, lambda space: _token(view, space))


def _token(view: View, space: str) -> str:
    piece = view.pieces.get(space)
    if piece is not None:
        return piece.name
    if space in view.marks:
        return "o"
    return "."


def grid_text(layout: Layout, token_of: Callable[[str], str], width: int = 5) -> str:
    """Cells drawn at their layout positions on a character grid (rows by y, columns by x)."""
    xs = sorted({round(c.x) for c in layout.cells})
    ys = sorted({round(c.y) for c in layout.cells})
    col = {x: i for i, x in enumerate(xs)}
    row = {y: i for i, y in enumerate(ys)}
    grid = [[" " * width] * len(xs) for _ in ys]
    for c in layout.cells:
        token = token_of(c.space)[:width - 1].rjust(width - 1)
        grid[row[round(c.y)]][col[round(c.x)]] = token + " "
    return "\n".join("".join(r).rstrip() for r in grid)
