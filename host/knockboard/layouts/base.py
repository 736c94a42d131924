"""What a layout is: the physical cells of one game board, where they sit, what they mean."""

from dataclasses import dataclass


@dataclass(frozen=True)
class LayoutCell:
    index: int       # physical cell number: LED chain position, key number, firmware cell
    space: str       # the engine's name for the space ("F3", "b4", "e5", "3c", "H1")
    x: float         # centre in millimetres, origin top-left of the overlay, y downwards
    y: float
    shape: str       # "hex" (flat-topped, size = circumradius), "square" (size = side),
    size: float      # "circle" (size = diameter)
    kind: str        # what the printing shows: "gutter", "dark", "start-red", "level-3", ...
    label: str = ""  # text printed in the cell (a Knock-Off platform's number)


@dataclass(frozen=True)
class Line:
    a: str           # spaces joined: K.O. lattice lines, Knock-Off arrows (a -> b)
    b: str
    directed: bool = False


@dataclass(frozen=True)
class Mark:
    kind: str        # "line" (through `points`), "circle" (centre points[0], radius size), "text"
    points: tuple
    size: float = 0.0
    text: str = ""


class Layout:
    def __init__(self, game, width_mm, height_mm, cells, lines=(), marks=()):
        self.game = game
        self.board_id = game        # the key of this board in firmware/boards.json
        self.width_mm = width_mm
        self.height_mm = height_mm
        self.cells = tuple(sorted(cells, key=lambda c: c.index))
        self.lines = tuple(lines)
        self.marks = tuple(marks)
        self._by_space = {c.space: c for c in self.cells}
        if [c.index for c in self.cells] != list(range(len(self.cells))):
            raise ValueError(f"{game}: cell indices must be 0..{len(self.cells) - 1}")
        if len(self._by_space) != len(self.cells):
            raise ValueError(f"{game}: two cells name the same space")

    def __len__(self):
        return len(self.cells)

    def cell(self, space):
        """The cell of an engine space name; KeyError naming the space if there is none."""
        try:
            return self._by_space[space]
        except KeyError:
            raise KeyError(f"{self.game} has no space {space!r}") from None

    def space_of(self, index):
        return self.cells[index].space

    def __repr__(self):
        return f"<Layout {self.game}: {len(self.cells)} cells, {self.width_mm}x{self.height_mm} mm>"


def serpentine(rows):
    """Number the cells of `rows` (lists of spaces) along a snake: the LED chain runs along
    the first row, back along the second, and so on, so each hop between rows is short."""
    order = []
    for i, row in enumerate(rows):
        order.extend(row if i % 2 == 0 else reversed(row))
    return {space: index for index, space in enumerate(order)}
