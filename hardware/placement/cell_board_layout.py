"""The placement of a cell board: each cell's key, LED, capacitor and diode at the cell's
position in the game's layout (the overlay's coordinates, hardware/out/cells-GAME.csv) and
the offsets of hardware/placement/cell_geometry.py; the connectors and bulk capacitors on the back,
between cells; mounting holes and overlay registration marks where no cell is."""

import math

from ..inputs import game_layouts
from . import cell_geometry as geo
from .plan import Placed, Plan

CELL_CLEAR = geo.CAP_KEEPOUT_R + 1.0     # nothing else within this of a cell centre
EDGE = 4.0                               # courtyards this far inside the board edge
MOUNT_HOLE = 3.2                         # M3
MOUNT_CLEAR = 4.0                        # radius kept free around a mounting hole
ROTATIONS = (0, 90, 180, 270)
# footprints drawn upright (IDC headers): along a vertical cut
JOIN_ROTATIONS = (0, 180)
CELL_PARTS = (("SW", "key"), ("LED", "led"), ("C", "cap"), ("D", "diode"))


FAR_END = {"vh2"}          # catalogue keys of parts at the chain's far end: the second feed


def at_far_end(comp, n):
    """Whether a board-level part belongs at the LED chain's far end (its bulk capacitor, the
    second power feed) rather than by the controller's connectors at cell 0."""
    return comp.fields.get("Decouples") == f"LED{n - 1}" or comp.fields.get("Catalogue") in FAR_END


def _cell_parts(nl, index, x, y):
    out = []
    for prefix, part in CELL_PARTS:
        (dx, dy), rot, _, _ = geo.PARTS[part]
        c = nl.components[f"{prefix}{index}"]
        out.append(Placed(c.ref, c.footprint, round(x + dx, 4), round(y + dy, 4), rot,
                          value=c.value, nets=dict(c.pins)))
    return out


class Free:
    """Where something may still go on a board: outside every cell's cap, away from placed
    courtyards and holes, inside the edge."""

    def __init__(self, width, height, centres, x0=0.0, gap=0.5):
        self.x0, self.width, self.height = x0, x0 + width, height
        self.gap = gap                  # between two placed boxes, mm
        self.centres = centres
        self.boxes = []
        self.circles = []

    def box_ok(self, box):
        x0, y0, x1, y1 = box
        if x0 < self.x0 + EDGE or y0 < EDGE or x1 > self.width - EDGE or y1 > self.height - EDGE:
            return False
        for cx, cy, r in [(x, y, CELL_CLEAR) for x, y in self.centres] + self.circles:
            dx = max(x0 - cx, 0, cx - x1)
            dy = max(y0 - cy, 0, cy - y1)
            if dx * dx + dy * dy < r * r:
                return False
        g = self.gap
        return not any(x0 < b[2] + g and b[0] - g < x1 and y0 < b[3] + g and b[1] - g < y1
                       for b in self.boxes)

    def nearest(self, make, want, rotations=ROTATIONS):
        """The placement make(x, y, rot) nearest the point `want` whose box is free."""
        wx, wy = want
        for r in range(0, int(max(self.width, self.height)) * 2, 1):
            ring = [(wx + dx, wy + dy) for dx in range(-r, r + 1) for dy in (-r, r)]
            ring += [(wx + dx, wy + dy) for dx in (-r, r) for dy in range(-r + 1, r)]
            ring.sort(key=lambda p: math.hypot(p[0] - wx, p[1] - wy))
            for x, y in ring:
                for rot in rotations:
                    thing, box = make(x, y, rot)
                    if self.box_ok(box):
                        self.boxes.append(box)
                        return thing
        raise ValueError("no room on the board")


def place_cells(game, nl, boards=None, name=None, region=None, wants=None):
    """The plan of game's cell board, or of the tile of it that spans x in `region` with the
    parts of netlist `nl` (its join connectors placed near the x of `wants`)."""
    lay = game_layouts.get_layout(game)
    x0, x1 = region or (0.0, lay.width_mm)
    every = game_layouts.cells(game, boards)
    cells = [c for c in every if f"LED{c[0]}" in nl.components]
    fps = []
    for index, _, _, _, x, y in cells:
        fps += _cell_parts(nl, index, x, y)
    free = Free(x1 - x0, lay.height_mm, [(x, y) for *_, x, y in every], x0)
    fps += _place_other_parts(nl, free, every, (x0, x1), region, lay.height_mm, wants or {})
    w, h = x1 - x0, lay.height_mm
    holes = _place_mounting_holes(free, x0, w, h)
    marks = _place_marks(free, x0, x1, h)
    what = f"{name.split('-')[-1]} of " if region else ""
    texts = [(x0 + w / 2, h - 2.5, f"Knockboard {what}cell board {game} - {len(cells)} cells - "
              "hardware/placement/cell_board_layout.py", "F.SilkS")]
    p = Plan(name or f"cellboard-{game}", w, h, fps, holes, marks, texts)
    return p.shifted(-x0) if x0 else p


def _place_other_parts(nl, free, every, span, region, height, wants):
    """The parts that belong to no cell (the controller's connectors, the second feed, the
    join headers at the x of `wants`), each placed nearest where it wants to be."""
    x0, x1 = span
    # on a tile, the board's connectors keep clear of the cut, where the join header goes
    inset = 40.0 if region else 0.0
    first, last = ((min(max(x, x0 + inset), x1 - inset), y)
                   for x, y in (every[0][4:], every[-1][4:]))
    feed = _second_feed(every, span) or last
    cell_refs = {f"{p}{c[0]}" for c in every for p, _ in CELL_PARTS}
    todo = [(ref, (feed if c.fields.get("Catalogue") in FAR_END else last)
             if at_far_end(c, len(every)) else first)
            for ref, c in sorted(nl.components.items())
            if ref not in cell_refs and ref not in wants]
    todo += [(ref, (x, height / 2)) for ref, x in sorted(wants.items())]
    fps = []
    for ref, want in todo:
        c = nl.components[ref]

        def make(x, y, rot, c=c):
            p = Placed(c.ref, c.footprint, float(x), float(y), float(rot), True, c.value,
                       dict(c.pins))
            return p, p.outline()
        # a join header lies along its cut, its rows of pins parallel to the edge: its lines
        # leave it towards the tile's cells on both sides of it; turned across the cut
        # (Knock-Off tile 2's J11 was) it sits among the cells and its inner pins are boxed in
        fps.append(free.nearest(make, want, JOIN_ROTATIONS if ref in wants else ROTATIONS))
    return fps


def _second_feed(every, span):
    """Where the second feed goes on a board that also holds the first (the chain's first
    cell): at the cell of the board farthest from the first. The +5V tree spreads from the
    first feed over the whole board, so its far end is the farthest cell, not the chain's last:
    on a serpentine of an even number of rows (Dodgeball's 8 x 8) the last cell is back on the
    first's side, 280 mm above it, and a feed there left the far corner's LEDs 400 mm of
    copper from both feeds (0.198 V at full white). None on a tile without the first cell:
    there the second feed is the tile's own supply, at the chain's end as before."""
    x0, x1 = span
    fx, fy = every[0][4:]
    if not x0 <= fx < x1:
        return None
    mine = [c[4:] for c in every if x0 <= c[4] < x1]
    return max(mine, key=lambda p: (math.hypot(p[0] - fx, p[1] - fy), p == every[-1][4:]))


def _place_mounting_holes(free, x0, w, h):
    """Mounting holes near the board's ends and about every 130 mm between (_spread)."""
    holes = []
    spots = [(x0 + x, y) for x in _spread(w) for y in _spread(h)]
    for want in spots:
        def hole(x, y, rot):
            box = (x - MOUNT_CLEAR, y - MOUNT_CLEAR, x + MOUNT_CLEAR, y + MOUNT_CLEAR)
            return (float(x), float(y), MOUNT_HOLE), box
        holes.append(free.nearest(hole, want, (0,)))
    return holes


def _place_marks(free, x0, x1, h):
    """The three registration marks, near three corners."""
    marks = []
    for want in ((x0 + EDGE + 4, EDGE + 4), (x1 - EDGE - 4, EDGE + 4),
                 (x0 + EDGE + 4, h - EDGE - 4)):
        def mark(x, y, rot):
            return (float(x), float(y)), (x - 2.5, y - 2.5, x + 2.5, y + 2.5)
        marks.append(free.nearest(mark, want, (0,)))
    return marks


def _spread(length, step=130.0):
    """Mounting-hole positions along one side: near both ends and about every `step` mm."""
    n = max(1, math.ceil((length - 2 * EDGE - 10) / step))
    return [EDGE + 5 + k * (length - 2 * EDGE - 10) / n for k in range(n + 1)]
