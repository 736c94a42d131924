"""The four standard boards' geometry, derived from the engines' own board data so that a
space name here is always one the engine knows."""

import math

from ..games.knockabout.board import CELL_NAMES, COLUMNS, COORDS, IS_GUTTER, RADIUS
from ..games.knockoff.board import get_board as get_knockoff_board
from ..games.ko.board import STANDARD as KO_STANDARD
from .base import LayoutCell, Layout, Line, Mark, serpentine

MARGIN = 15.0


def knockabout():
    # Hexes 30 mm across the flats hold the largest piece, a d8, with room to spare.
    radius = 30.0 / math.sqrt(3)
    columns = [[n for n in CELL_NAMES if n[0] == col] for col in COLUMNS]
    index = serpentine(columns)
    cells = []
    for name, (q, r), gutter in zip(CELL_NAMES, COORDS, IS_GUTTER):
        x = MARGIN + radius + 1.5 * radius * (q + RADIUS)
        y = MARGIN + radius * math.sqrt(3) / 2 + math.sqrt(3) * radius * (r + q / 2 + RADIUS)
        cells.append(LayoutCell(index[name], name, round(x, 2), round(y, 2), "hex",
                                round(radius, 2), "gutter" if gutter else "main"))
    width = 2 * MARGIN + 2 * radius + 1.5 * radius * 2 * RADIUS
    height = 2 * MARGIN + math.sqrt(3) * radius * (2 * RADIUS + 1)
    return Layout("knockabout", round(width, 1), round(height, 1), cells)


def dodgeball():
    side = 40.0
    files, ranks = "abcdefgh", "12345678"
    index = serpentine([[f + r for f in files] for r in ranks])
    cells = []
    for fi, f in enumerate(files):
        for ri, r in enumerate(ranks):
            x = MARGIN + side * (fi + 0.5)
            y = MARGIN + side * (7 - ri + 0.5)          # rank 1 (team 1) at the bottom
            cells.append(LayoutCell(index[f + r], f + r, x, y, "square", side,
                              "dark" if (fi + ri) % 2 == 0 else "light"))
    centre_y = MARGIN + 4 * side
    marks = [Mark("line", ((MARGIN, centre_y), (MARGIN + 8 * side, centre_y)))]
    # the three balls start on the centre line at the corners between files a|b, d|e, g|h
    marks += [Mark("circle", ((MARGIN + side * k, centre_y),), size=6.0) for k in (1, 4, 7)]
    return Layout("dodgeball", 2 * MARGIN + 8 * side, 2 * MARGIN + 8 * side, cells, (), marks)


def ko():
    pitch, diameter = 36.0, 24.0
    data = KO_STANDARD
    start_color = {s: c["name"] for c in data["colors"] for s in c["start"]}
    files = sorted({s[0] for s in data["spaces"]})
    ranks = sorted({int(s[1:]) for s in data["spaces"]})
    index = serpentine([[f + str(r) for f in files] for r in ranks])
    cells = []
    for space in data["spaces"]:
        fi, ri = files.index(space[0]), ranks.index(int(space[1:]))
        x = MARGIN + diameter / 2 + pitch * fi
        y = MARGIN + diameter / 2 + pitch * (len(ranks) - 1 - ri)
        kind = "start-" + start_color[space] if space in start_color else "space"
        cells.append(LayoutCell(index[space], space, x, y, "circle", diameter, kind))
    lines = [Line(*pair.split("-")) for pair in data["lines"]]
    size = 2 * MARGIN + diameter + pitch * (len(files) - 1)
    return Layout("ko", size, size, cells, lines)


def knockoff():
    board = get_knockoff_board("standard")
    levels = sorted(set(board.level[:board.num_platforms]))
    top = max(levels)
    columns = sorted({n[len(str(board.level[i])):] for i, n in
                      enumerate(board.names[:board.num_platforms])})
    diameter, ring_gap, inner = 22.0, 26.0, 44.0
    outer = inner + ring_gap * (top - 1)
    home_radius = outer + 34.0
    centre = MARGIN + home_radius + diameter / 2
    # The chain runs along the spokes (out-in, in-out, ...): a ring would make every hop
    # on level 1 a long one.
    spokes = [[f"{lv}{c}" for lv in levels] for c in columns]
    index = serpentine(spokes)
    cells = []

    def place(radius, angle):
        return (round(centre + radius * math.sin(angle), 2),
                round(centre - radius * math.cos(angle), 2))

    angle_of = {c: 2 * math.pi * k / len(columns) for k, c in enumerate(columns)}
    for lv in levels:
        radius = inner + ring_gap * (top - lv)     # level 1 outermost, the top in the middle
        for c in columns:
            x, y = place(radius, angle_of[c])
            cells.append(LayoutCell(index[f"{lv}{c}"], f"{lv}{c}", x, y, "circle", diameter,
                              f"level-{lv}", str(lv)))
    lines = []
    for i in range(board.num_nodes):
        for target in board.arrows[i]:
            lines.append(Line(board.names[i], board.names[target], True))
    for k, home in enumerate(board.home_names):
        entry = board.names[board.arrows[board.index[home]][0]]
        x, y = place(home_radius, angle_of[entry[len(str(levels[0])):]])
        cells.append(LayoutCell(len(index) + k, home, x, y, "circle", diameter * 1.3, "home", home))
    size = round(2 * centre, 1)
    return Layout("knockoff", size, size, cells, lines)
