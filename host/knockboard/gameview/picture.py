"""A picture of a position as players see their pieces, as plain data: the board from
`knockboard.layouts` (the simulator's geometry and overlay colours) with the pieces of the
engine's typed view (`state.view()`) drawn on it, and the lines of text beside it (title,
phase, whose turn, dice, scores, the last moves). The Tk window and the SVG export draw the
same shapes, so what a test samples on screen is what the export writes."""

from __future__ import annotations

from dataclasses import dataclass

from .. import registry
from ..sim import look

PANEL_PX = 300                  # the text column right of the board
PIECE_SCALE = 0.78              # a piece's radius, as a share of its cell's half-width
TEXT_COLOUR = "#e6e9ef"
BALL_FILL = "#ffe14a"           # yellow: no seat's colour in any game
BALL_EDGE = "#5a4a00"
LAST_MOVE = "#4ad8ff"           # the rings round the last move's from and to cells


@dataclass(frozen=True)
class Shape:
    """One thing drawn: "polygon" (points x0, y0, x1, y1, ...), "oval" (bounding box
    x0, y0, x1, y1), "line" (x0, y0, x1, y1) or "text" (at x, y, centred)."""
    kind: str
    points: tuple
    fill: str = ""
    outline: str = ""
    width: float = 1.0
    text: str = ""
    size: int = 10              # text height in pixels
    bold: bool = False
    anchor: str = "center"      # text: "center", or "w" (starts at x)


@dataclass(frozen=True)
class Token:
    """A piece as drawn on a space: its fill, the text on it, and its edge."""
    fill: str
    label: str
    ink: str
    edge: str = look.CELL_EDGE
    ball: bool = False


class Picture:
    """The board of `ui.layout` fitted into `fit_px` pixels, with the pieces of a view."""

    def __init__(self, ui, fit_px: float = 560):
        self.ui = ui
        self.look = look_of(ui.name)
        self.layout = ui.layout
        self.view_px = look.Viewport(self.layout, fit_px)
        self.width = self.view_px.width + PANEL_PX
        self.height = self.view_px.height

    # --- where things are ------------------------------------------------------------------
    def piece_centre(self, space: str) -> tuple:
        return self.view_px.centre(self.layout.cell(space))

    def sample_point(self, space: str) -> tuple:
        """A point on the piece on `space` that its label does not cover."""
        cell = self.layout.cell(space)
        cx, cy = self.view_px.centre(cell)
        return cx, cy - 0.62 * PIECE_SCALE * self.view_px.radius(cell)

    # --- what is drawn ---------------------------------------------------------------------
    def board(self) -> list:
        """The empty board: cells in their overlay print, lines, arrows and marks."""
        v = self.view_px
        w = self.width                       # the text column too
        shapes = [Shape("polygon", (0, 0, w, 0, w, v.height, 0, v.height),
                        fill=look.BACKGROUND)]
        for line in self.layout.lines:
            a, b = self.layout.cell(line.a), self.layout.cell(line.b)
            shapes.append(Shape("line", v.edge_segment(a, b), fill=look.LINE, width=2))
        for mark in self.layout.marks:
            if mark.kind == "line":
                shapes.append(Shape("line", v.px(*mark.points[0]) + v.px(*mark.points[1]),
                                    fill=look.LINE, width=2))
        for cell in self.layout.cells:
            kind = "oval" if cell.shape == "circle" else "polygon"
            shapes.append(Shape(kind, tuple(v.outline(cell)), fill=look.unlit_fill(cell),
                                outline=look.outline_colour(cell), width=2))
            shapes.append(Shape("text", v.label_point(cell), fill=look.TEXT,
                                text=cell.label or cell.space, size=max(8, round(
                                    v.radius(cell) * 0.32))))
        return shapes

    def pieces(self, view) -> list:
        """The pieces of `view` (a `games.view.PositionView`) on their spaces, and what the
        game shows besides: KNOCKabout's die to re-roll, Dodgeball's balls and the throw in
        the air, the pawns waiting in Knock-Off's home bases."""
        shapes = []
        for space, piece in view.pieces.items():
            shapes += self.token(space, self.look.token(self.ui, view, piece))
        return shapes + self.look.extras(self, view)

    def token(self, space, token: Token, scale=PIECE_SCALE, offset=(0.0, 0.0)) -> list:
        cell = self.layout.cell(space)
        cx, cy = self.view_px.centre(cell)
        r = scale * self.view_px.radius(cell)
        cx, cy = cx + offset[0] * r, cy + offset[1] * r
        box = (cx - r, cy - r, cx + r, cy + r)
        shapes = [Shape("oval", box, fill=token.fill, outline=token.edge, width=2),
                  Shape("text", (cx, cy + 0.12 * r), fill=token.ink, text=token.label,
                        size=max(8, round(r * 0.62)), bold=True)]
        if token.ball:
            shapes += self.ball(cx + 0.62 * r, cy + 0.62 * r, 0.36 * r)
        return shapes

    def ball(self, x, y, r) -> list:
        """A ball (Dodgeball's) of radius `r` at (x, y)."""
        return [Shape("oval", (x - r, y - r, x + r, y + r), fill=BALL_FILL, outline=BALL_EDGE,
                      width=1.5)]

    def panel(self, lines) -> list:
        """Text lines in the column right of the board; the first is the title."""
        x = self.view_px.width + 14
        shapes, y = [], 26
        for k, line in enumerate(lines):
            size = 16 if k == 0 else 12
            shapes.append(Shape("text", (x, y), fill=TEXT_COLOUR, text=line, size=size,
                                bold=k == 0, anchor="w"))
            y += size + 10 if k == 0 else size + 6
        return shapes

    def last_move(self, spaces) -> list:
        """Rings round the cells of the last move (`sheet.last_move`): a thin one where
        it left, a thick one where it ended."""
        shapes = []
        for k, space in enumerate(spaces):
            cell = self.layout.cell(space)
            cx, cy = self.view_px.centre(cell)
            r = self.view_px.radius(cell) * 0.95
            shapes.append(Shape("oval", (cx - r, cy - r, cx + r, cy + r), outline=LAST_MOVE,
                                width=4 if k == len(spaces) - 1 else 2))
        return shapes

    def shapes(self, view, lines, last=()) -> list:
        """The board, the rings of the `last` move's spaces, the pieces and the text."""
        return self.board() + self.last_move(last) + self.pieces(view) + self.panel(lines)


def look_of(game_name: str):
    """How a game's pieces are drawn: the `look` its registration names, else plain discs
    in the seats' colours (a game needs no look of its own to be shown)."""
    from .looks import Look
    found = registry.entry(game_name).load("look")
    return (found or Look)()


def token_for(ui, view, piece) -> "Token":
    """How `piece` of `view` looks in `ui`'s game."""
    return look_of(ui.name).token(ui, view, piece)
