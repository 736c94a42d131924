"""Boards drawn as plain text for terminals (the demo, `show`, debugging)."""

from .games.knockabout.board import CELL_NAMES, COLUMNS, COORDS, IS_GUTTER, RADIUS

_CELL_WIDTH = 5


def render_knockabout(state, marks=()):
    """The hex board as text: columns A..M left to right, White's side at the bottom.

    A die is drawn as owner, sides and face (`W8:3` is White's d8 showing 3); `~` is an empty
    gutter cell, `.` an empty main-board cell.  Cells named in `marks` get a `*` in front."""
    height = 4 * RADIUS + 1
    width = _CELL_WIDTH * len(COLUMNS)
    grid = [[" "] * width for _ in range(height)]
    for cell, (q, r) in enumerate(COORDS):
        die = state.die_at(CELL_NAMES[cell])
        if die:
            text = f"{'WB'[die[0]]}{die[1]}:{die[2]}"
        else:
            text = "  ~" if IS_GUTTER[cell] else "  ."
        text = ("*" if CELL_NAMES[cell] in marks else " ") + text
        row = 2 * r + q + 2 * RADIUS
        col = (q + RADIUS) * _CELL_WIDTH
        grid[row][col:col + len(text)] = text
    header = "".join(f"   {c} " for c in COLUMNS).rstrip()
    lines = [header] + ["".join(row).rstrip() for row in grid] + [header]
    return "\n".join(lines)


KNOCKABOUT_KEY = ("W8:3 is White's d8 showing 3, B Black's; ~ the gutter, . an empty cell; "
                  "a cell is named by its column\nand its place counted from the column's "
                  "foot (A1 is the gutter's corner); * marks the cells the last move changed.")


def changed_cells(before, after):
    """The cells whose die differs between two KNOCKabout states: where a move's die left,
    where it and the dice it knocked came to rest."""
    return {name for name in CELL_NAMES if before.die_at(name) != after.die_at(name)}
