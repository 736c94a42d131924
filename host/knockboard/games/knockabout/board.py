"""KNOCKabout board geometry: 127 flat-topped hexes in 13 columns, the outer ring a gutter.

Everything here is computed once at import into flat tables indexed by cell number, so the
rules code walks lists of ints instead of doing coordinate arithmetic.  Cells are numbered
column by column (A1..A7 are 0..6, B1 is 7, ..., M7 is 126); that order is also the order in
which the position format lists dice ("sorted by column then row").

Axial coordinates (RULES.md 1): q = column index - 6, r grows towards the bottom (White's
side); column q holds r from max(-6, -6-q) to min(6, 6-q) and row k = r_max - r + 1.
"""

from typing import Dict, List, Tuple

RADIUS = 6
COLUMNS = "ABCDEFGHIJKLM"

# Direction order is fixed: it is part of the action encoding (action = cell * 6 + dir).
DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")
DELTAS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
DIRECTION_INDEX = {name: i for i, name in enumerate(DIRECTIONS)}


def _column_range(q: int) -> Tuple[int, int]:
    return max(-RADIUS, -RADIUS - q), min(RADIUS, RADIUS - q)


# names, axial coordinates, is-gutter, neighbour per direction, the ring's cells, each
# cell's place on the ring, each gutter cell's direction -> way round
Tables = Tuple[List[str], List[Tuple[int, int]], List[bool], List[List[int]], List[int],
               List[int], List[Dict[int, int]]]


def _build() -> Tables:
    names: List[str] = []
    coords: List[Tuple[int, int]] = []
    for col, q in zip(COLUMNS, range(-RADIUS, RADIUS + 1)):
        r_min, r_max = _column_range(q)
        for r in range(r_max, r_min - 1, -1):           # row 1 at the bottom
            names.append(f"{col}{r_max - r + 1}")
            coords.append((q, r))
    index_of = {qr: i for i, qr in enumerate(coords)}
    gutter = [max(abs(q), abs(r), abs(q + r)) == RADIUS for q, r in coords]
    step = [[index_of.get((q + dq, r + dr), -1) for dq, dr in DELTAS] for q, r in coords]

    # Walk the ring once to give every gutter cell a position on it.
    start = next(i for i, g in enumerate(gutter) if g)
    ring = [start]
    while True:
        came_from = ring[-2] if len(ring) > 1 else -1
        nxt = next(n for n in step[ring[-1]] if n >= 0 and gutter[n] and n != came_from)
        if nxt == start:
            break
        ring.append(nxt)
    ring_pos = [-1] * len(names)
    for pos, cell in enumerate(ring):
        ring_pos[cell] = pos
    # For a gutter cell, the first-step direction names which way round the ring it goes.
    ring_orientation: List[Dict[int, int]] = [{} for _ in names]
    for cell in ring:
        pos = ring_pos[cell]
        for orient in (1, -1):
            neighbour = ring[(pos + orient) % len(ring)]
            ring_orientation[cell][step[cell].index(neighbour)] = orient
    return names, coords, gutter, step, ring, ring_pos, ring_orientation


(CELL_NAMES, COORDS, IS_GUTTER, STEP, RING, RING_POS, RING_ORIENTATION) = _build()
NUM_CELLS = len(CELL_NAMES)
RING_SIZE = len(RING)
CELL_INDEX = {name: i for i, name in enumerate(CELL_NAMES)}
# cell -> the next cell one way: AHEAD[direction] in a straight line (-1 off the board),
# RING_AHEAD[+1 or -1] round the gutter (-1 for main-board cells)
AHEAD = tuple(tuple(STEP[c][d] for c in range(NUM_CELLS)) for d in range(6))
RING_AHEAD = {o: tuple(RING[(RING_POS[c] + o) % RING_SIZE] if RING_POS[c] >= 0 else -1
                       for c in range(NUM_CELLS)) for o in (1, -1)}
COLUMN_HEIGHT = {col: sum(1 for n in CELL_NAMES if n[0] == col) for col in COLUMNS}


def mirror(name: str) -> str:
    """The cell reflected top to bottom within its column (White's set-up -> Black's)."""
    col, row = name[0], int(name[1:])
    return f"{col}{COLUMN_HEIGHT[col] - row + 1}"


assert NUM_CELLS == 127 and RING_SIZE == 36 and sum(IS_GUTTER) == 36
