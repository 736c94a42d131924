"""Where a cell's parts and lines are on the cell board (hardware/schematic/cell_board.py):
LED i and its 100 nF C i, key SW i and diode D i; the key on row i // cols and column i % cols, the
row lines on J2 (ROWS, pin r + 1), the column lines on J3 (COLS, pin c + 1)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import registry
from ..layouts import get_layout


@dataclass(frozen=True)
class Wiring:
    board: str            # board id (a game's name)
    spaces: tuple         # the engine's space name of each cell, by cell index
    rows: int
    cols: int

    @classmethod
    def of(cls, board: str) -> "Wiring":
        """The wiring of a game's board; KeyError naming the known boards otherwise."""
        layout = get_layout(board)
        rows, cols = registry.entry(board).matrix
        return cls(board, tuple(c.space for c in layout.cells), rows, cols)

    @property
    def cells(self) -> int:
        return len(self.spaces)

    def row(self, cell: int) -> int:
        return cell // self.cols

    def col(self, cell: int) -> int:
        return cell % self.cols

    def name(self, cell: int) -> str:
        """"cell E5 (37)": the overlay's name first, the number the parts carry after."""
        return f"cell {self.spaces[cell]} ({cell})"

    def in_row(self, row: int) -> list[int]:
        return [c for c in range(self.cells) if self.row(c) == row]

    def in_col(self, col: int) -> list[int]:
        return [c for c in range(self.cells) if self.col(c) == col]


def row_line(row: int) -> str:
    return f"row line ROW{row} (J2 pin {row + 1})"


def col_line(col: int) -> str:
    return f"column line COL{col} (J3 pin {col + 1})"
