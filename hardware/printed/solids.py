"""The printed parts of a cell board, as STL from code (manifold3d, the geometry kernel
OpenSCAD uses): for each game, one cap per cell shape, and the frame (spacer grid) that
guides the caps and carries the overlay, split into tiles that fit a 220 x 220 mm bed.

    python3 -m hardware.printed    # writes hardware/out/print/ (STL + manifest.json);
                                   # python3 -m hardware.build does it too

The numbers come from hardware/printed/cell_stack.py (heights, clearances) and
hardware/placement/cell_geometry.py (where the parts of a cell sit); the cells' shapes and places
from the game layouts, the same ones the overlay is drawn from, so a cap, its frame opening and its
overlay cell share one outline.

- Frame opening: the cell's outline, shrunk where neighbouring cells touch (KNOCKabout's
  hexes, Dodgeball's squares) so a wall of WALL_MIN stands between them, centred on the
  overlay's cell border.
- Cap: the opening less CLEARANCE all round; a top plate (the diffuser), a skirt down the
  side that keeps it upright in the opening, a stem at the centre onto the key's actuator.
  Its hollow underside is the recess over the LED and the cell's other parts.  Printed
  upside down (top plate on the bed), in translucent ("natural") PETG.
- Frame tiles: the frame cut where no cut runs along a wall or grazes an opening, each cut
  face drilled for 1.75 mm filament dowels that line the tiles up.
- Registration holes: a hole through the frame at each of the cell board's overlay
  registration marks (hardware/printed/registration.py, the PCB's fiducials): a filament piece
  through the overlay's mark and into the hole holds the sheet in line with the frame, and
  the fiducial seen at the bottom of the hole shows the frame sits right on the board."""

import hashlib
import json
import math
import os
import struct
from functools import lru_cache

import numpy as np
from manifold3d import CrossSection, JoinType, Manifold, OpType

from ..inputs.game_layouts import game_names, get_layout
from ..inputs.pinmap import ROOT
from . import cell_stack as S
from . import registration

OUT = os.path.join(ROOT, "hardware", "out", "print")
SEGMENTS = 72             # round outlines: 72 sides, 0.02 mm from a true 22 mm circle
BED = 220.0
BED_MARGIN = 5.0          # a tile leaves this much of the bed free on each side
DOWEL_D = 1.9             # a hole for a piece of 1.75 mm filament
DOWEL_DEPTH = 6.0         # into each tile
DOWEL_SPAN = 4.0          # solid frame needed along the cut around a dowel
CUT_SEARCH = 30.0         # how far from the even split a cut may move (mm)


# ---- outlines --------------------------------------------------------------------------------
def outline(cell):
    """The cell's shape on the overlay, centred on (0, 0) (layouts/base.py: hexes flat-topped
    with `size` the circumradius, squares `size` a side, circles `size` the diameter)."""
    if cell.shape == "hex":
        return CrossSection([[(cell.size * math.cos(math.radians(a)),
                               cell.size * math.sin(math.radians(a))) for a in range(0, 360, 60)]])
    if cell.shape == "square":
        return CrossSection.square((cell.size, cell.size), center=True)
    if cell.shape == "circle":
        return CrossSection.circle(cell.size / 2, SEGMENTS)
    raise ValueError(f"cell {cell.space}: unknown shape {cell.shape!r}")


def placed(cross, cell):
    return cross.translate((cell.x, cell.y))


def _shrunk(cross, by):
    return cross.offset(-by, JoinType.Miter) if by > 0 else cross


def touching_gap(layout):
    """The narrowest gap between two cells' outlines on the overlay (0 where they touch)."""
    cells = layout.cells
    shapes = [placed(outline(c), c) for c in cells]
    gap = math.inf
    for i, a in enumerate(cells):
        for j in range(i + 1, len(cells)):
            b = cells[j]
            reach = circumradius(a) + circumradius(b)
            d = math.dist((a.x, a.y), (b.x, b.y))
            if d > reach + gap:
                continue
            if (shapes[i] ^ shapes[j]).area() > 1e-6:
                raise ValueError(f"{layout.game}: cells {a.space} and {b.space} overlap")
            gap = min(gap, _outline_gap(shapes[i], shapes[j], a, b))
    return gap


def circumradius(cell):
    """Radius of the circle around a cell's outline."""
    return {"hex": cell.size, "square": cell.size / math.sqrt(2)}.get(cell.shape, cell.size / 2)


def _outline_gap(a, b, ca, cb):
    """Distance between two placed outlines: 0 for shapes that share an edge, else found by
    growing one until they meet (to 0.01 mm)."""
    if ca.shape == cb.shape == "circle":
        return math.dist((ca.x, ca.y), (cb.x, cb.y)) - ca.size / 2 - cb.size / 2
    if (a.offset(0.01, JoinType.Miter) ^ b).area() > 0:
        return 0.0
    lo, hi = 0.0, math.dist((ca.x, ca.y), (cb.x, cb.y))
    while hi - lo > 0.01:
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if (a.offset(mid, JoinType.Miter) ^ b).area() > 0 else (mid, hi)
    return hi


def wall_inset(layout):
    """How far each opening stands inside its overlay outline: half the wall the cells'
    own gap lacks."""
    return max(0.0, (S.WALL_MIN - touching_gap(layout)) / 2)


def opening(cell, inset):
    return _shrunk(outline(cell), inset)


def cap_outline(cell, inset):
    return _shrunk(outline(cell), inset + S.CLEARANCE)


# ---- parts -----------------------------------------------------------------------------------
def cap(cell, inset):
    """The cap of `cell` as it sits in the board: centred on (0, 0), z above the board."""
    o = cap_outline(cell, inset)
    plate = o.extrude(S.TOP_PLATE).translate((0, 0, S.PLATE_BOTTOM))
    # skirt and stem reach 0.5 mm into the plate: one solid, not three that touch
    into = 0.5
    skirt = (o - o.offset(-S.SKIRT, JoinType.Miter)).extrude(
        S.PLATE_BOTTOM - S.SKIRT_BOTTOM + into)
    stem = CrossSection.circle(S.STEM_D / 2, 36).extrude(S.PLATE_BOTTOM - S.STEM_BOTTOM + into)
    return plate + skirt.translate((0, 0, S.SKIRT_BOTTOM)) + stem.translate((0, 0, S.STEM_BOTTOM))


def frame_2d(layout, inset):
    board = CrossSection.square((layout.width_mm, layout.height_mm))
    holes = CrossSection.batch_boolean([placed(opening(c, inset), c) for c in layout.cells],
                                       OpType.Add)
    return board - holes


def cuts(layout, axis):
    """Where to cut the frame across `axis` (0: x, 1: y) so every tile fits the bed: near an
    even split, as far as can be from any cell's edge (no cut along a wall, none grazing an
    opening)."""
    length = layout.width_mm if axis == 0 else layout.height_mm
    span = BED - 2 * BED_MARGIN
    n = math.ceil(length / span)
    edges = sorted({round(v, 3) for c in layout.cells
                    for v in _extent(c, axis)})
    out, start = [], 0.0
    for k in range(1, n):
        ideal = length * k / n
        best = None
        for step in range(int(2 * CUT_SEARCH / 0.5) + 1):
            at = ideal - CUT_SEARCH + 0.5 * step
            if at - start > span or length - at > span * (n - k):
                continue
            score = min(abs(at - e) for e in edges)
            key = (round(score, 2), -abs(at - ideal))
            if best is None or key > best[0]:
                best = (key, at)
        if best is None:
            raise ValueError(f"{layout.game}: no cut fits a {BED:g} mm bed")
        out.append(best[1])
        start = best[1]
    return out


def _extent(cell, axis):
    centre = cell.x if axis == 0 else cell.y
    half = {"hex": cell.size if axis == 0 else cell.size * math.sqrt(3) / 2,
            "square": cell.size / 2}.get(cell.shape, cell.size / 2)
    return centre - half, centre + half


def dowels(layout, flat, xs, ys):
    """[(x, y, axis)] dowel holes: on every cut, between each pair of tiles, two holes (or
    one where the frame has room for only one) where the frame is solid across the cut."""
    out = []
    xb = [0.0] + xs + [layout.width_mm]
    yb = [0.0] + ys + [layout.height_mm]
    for axis, cut_list, spans in ((0, xs, yb), (1, ys, xb)):
        for at in cut_list:
            for lo, hi in zip(spans, spans[1:]):
                spots = [v for v in np.arange(lo + 5.0, hi - 5.0, 1.0)
                         if _solid(flat, axis, at, v)]
                if spots:
                    chosen = [spots[0]] if spots[-1] - spots[0] < 20 else [spots[0], spots[-1]]
                    out += [(at, float(v), axis) if axis == 0 else (float(v), at, axis)
                            for v in chosen]
    return out


def _solid(flat, axis, at, v):
    depth, half = DOWEL_DEPTH + 1.0, DOWEL_SPAN / 2
    if axis == 0:
        box = CrossSection.square((2 * depth, 2 * half)).translate((at - depth, v - half))
    else:
        box = CrossSection.square((2 * half, 2 * depth)).translate((v - half, at - depth))
    return (box - flat).area() < 1e-6


def _dowel_hole(x, y, axis):
    hole = Manifold.cylinder(2 * DOWEL_DEPTH, DOWEL_D / 2, -1, 24, True)
    hole = hole.rotate((0, 90, 0)) if axis == 0 else hole.rotate((90, 0, 0))
    return hole.translate((x, y, S.FRAME_TOP / 2))


def _pin_hole(mark):
    """A registration mark's hole, through the frame from the board to the overlay."""
    return Manifold.cylinder(S.FRAME_TOP + 2, registration.PIN_HOLE / 2, -1, 24).translate(
        (mark.x, mark.y, -1))


@lru_cache(maxsize=None)
def frame_tiles(layout, inset):
    """[(name, tile as placed on the board, (x0, y0) its corner)], the dowels and the cuts
    (kept: the tests read what the build made)."""
    flat = frame_2d(layout, inset)
    xs, ys = cuts(layout, 0), cuts(layout, 1)
    holes = dowels(layout, flat, xs, ys)
    solid = flat.extrude(S.FRAME_TOP)
    drills = [_dowel_hole(*h) for h in holes] + [_pin_hole(m)
                                                 for m in registration.marks(layout.game)]
    if drills:
        solid = solid - Manifold.batch_boolean(drills, OpType.Add)
    xb = [0.0] + xs + [layout.width_mm]
    yb = [0.0] + ys + [layout.height_mm]
    tiles = []
    for j, (y0, y1) in enumerate(zip(yb, yb[1:])):
        for i, (x0, x1) in enumerate(zip(xb, xb[1:])):
            box = Manifold.cube((x1 - x0, y1 - y0, S.FRAME_TOP + 2)).translate((x0, y0, -1))
            tiles.append((f"frame-{layout.game}-r{j + 1}c{i + 1}", solid ^ box, (x0, y0)))
    return tiles, holes, (xs, ys)


def cap_kinds(layout):
    """{kind name: [cells]}: one cap design per cell shape and size."""
    kinds = {}
    for c in layout.cells:
        kinds.setdefault(f"cap-{layout.game}-{c.shape}{c.size:g}", []).append(c)
    return kinds


# ---- files -----------------------------------------------------------------------------------
def stl_bytes(solid, name):
    """Binary STL of a manifold (what every slicer reads)."""
    mesh = solid.to_mesh()
    v = np.asarray(mesh.vert_properties, dtype=np.float64)[:, :3]
    t = np.asarray(mesh.tri_verts, dtype=np.int64)
    tri = v[t]
    n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)
    rec = np.zeros(len(t), dtype=[("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")])
    rec["n"], rec["v"] = n, tri
    header = f"knockboard {name}".encode()[:80].ljust(80, b" ")
    return header + struct.pack("<I", len(t)) + rec.tobytes()


def for_printing(solid):
    """Moved onto the bed: lowest point at z = 0, the bounding box's corner at (0, 0); the
    zero-area slivers a boolean leaves along its seams taken out (a slicer would drop them
    and find holes where they were)."""
    (x0, y0, z0, _, _, _) = solid.bounding_box()
    return solid.translate((-x0, -y0, -z0)).simplify(1e-4)


def upside_down(solid):
    """A cap turned over for printing: its top plate on the bed, no support needed."""
    return solid.mirror((0, 0, 1))


def parts(game):
    """[(file name, solid to print, how many, what)] for one game's board."""
    layout = get_layout(game)
    inset = wall_inset(layout)
    out = []
    for name, cells in cap_kinds(layout).items():
        out.append((name + ".stl", for_printing(upside_down(cap(cells[0], inset))), len(cells),
                    f"cap, {len(cells)} cells ({cells[0].shape} {cells[0].size:g} mm)"))
    tiles, holes, _ = frame_tiles(layout, inset)
    for name, tile, (x0, y0) in tiles:
        out.append((name + ".stl", for_printing(tile), 1,
                    f"frame tile at x {x0:.1f}, y {y0:.1f} mm of the board"))
    return out


@lru_cache(maxsize=None)
def made(games=None):
    """{file name: STL bytes} and the manifest (what each file is, how many to print, its
    size, volume, triangles and SHA-256), for `games` (default all)."""
    stls, manifest = {}, {}
    for game in games or tuple(game_names()):
        for fname, solid, count, what in parts(game):
            data = stl_bytes(solid, fname)
            stls[fname] = data
            x0, y0, z0, x1, y1, z1 = solid.bounding_box()
            manifest[fname] = {"print": count, "what": what,
                               "size_mm": [round(x1 - x0, 2), round(y1 - y0, 2),
                                           round(z1 - z0, 2)],
                               "volume_cm3": round(solid.volume() / 1000, 2),
                               "triangles": solid.num_tri(), "bytes": len(data),
                               "sha256": hashlib.sha256(data).hexdigest()}
    return stls, manifest


def manifest_text(manifest):
    return json.dumps(manifest, indent=1, sort_keys=True) + "\n"


def build(out_dir=OUT):
    """Writes every STL and manifest.json to `out_dir`; the manifest."""
    stls, manifest = made()
    os.makedirs(out_dir, exist_ok=True)
    for fname, data in stls.items():
        with open(os.path.join(out_dir, fname), "wb") as f:
            f.write(data)
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        f.write(manifest_text(manifest))
    return manifest


if __name__ == "__main__":
    for fname, m in build().items():
        print(f"{fname}: print {m['print']}, {m['size_mm']} mm, {m['volume_cm3']} cm3, "
              f"{m['bytes'] // 1024} KiB")
