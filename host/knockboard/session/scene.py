"""Scene builder: a position's View plus what the session highlights -> the LED scene.

Resting pieces glow in their owner's colour at a third of full strength; highlights
(pulsing movable pieces, a blinking selection, pulsing targets, the steps of a chain, a
red flash for an illegal press) are full strength on top."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..device.protocol import BLINK, PULSE, SOLID, Cell, Scene

if TYPE_CHECKING:
    from .adapters.base import GameUI
    from .types import Piece, View

REST = 0.3             # resting pieces
MARK = 0.25            # balls lying on the board
HINT = 0.08            # the squares next to a starting ball
RED = (255, 0, 0)
WHITE = (255, 255, 255)


def scaled(rgb: tuple[int, int, int], f: float) -> tuple[int, int, int]:
    r, g, b = (int(round(v * f)) for v in rgb)
    return r, g, b


def cell(rgb: tuple[int, int, int], effect: int = SOLID, f: float = 1.0, phase: int = 0) -> Cell:
    r, g, b = scaled(rgb, f)
    return Cell(r, g, b, effect, phase)


def piece_rgb(ui: GameUI, piece: Piece) -> tuple[int, int, int]:
    return ui.color(piece.color if piece.color >= 0 else piece.owner)


def base_cells(ui: GameUI, view: View, level: float = REST) -> list[Cell]:
    """Every cell of the layout: pieces at `level`, balls, the rest off."""
    ball = getattr(ui, "BALL", WHITE)
    cells = []
    for c in ui.layout.cells:
        piece = view.pieces.get(c.space)
        if piece is not None:
            cells.append(cell(piece_rgb(ui, piece), f=level))
        elif view.marks.get(c.space) == "ball":
            cells.append(cell(ball, f=MARK))
        elif view.marks.get(c.space) == "start-ball":
            cells.append(cell(ball, f=HINT))
        else:
            cells.append(Cell())
    return cells


def build(ui: GameUI, view: View, highlights: Optional[dict[int, Cell]] = None,
          level: float = REST) -> Scene:
    """The Scene for `view` with `highlights` ({cell index: Cell}) on top."""
    cells = base_cells(ui, view, level)
    for index, c in (highlights or {}).items():
        cells[index] = c
    return Scene(tuple(cells))


def target_rgb(ui: GameUI) -> tuple[int, int, int]:
    return getattr(ui, "TARGET", WHITE)


__all__ = ["BLINK", "PULSE", "SOLID", "RED", "WHITE", "build", "cell", "piece_rgb",
           "target_rgb", "scaled"]
