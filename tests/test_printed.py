"""The printed parts of every game's board (hardware/printed/solids.py): each STL a closed solid,
each cap inside its cell with the stated clearance to the frame and its neighbours, clear of
the LED and the cell's parts even pressed, its stem on the key; each frame tile on a
220 x 220 mm bed and joined to its neighbours by dowels, and drilled through at each overlay
registration mark; the committed manifest (the
figures docs/build.md quotes) what the code makes."""

import io
import json
import math
import os

import pytest
import trimesh
from hardware.inputs.game_layouts import game_names, get_layout
from hardware.placement import cell_geometry as G
from hardware.printed import cell_stack as S
from hardware.printed import registration
from hardware.printed import solids as P
from manifold3d import CrossSection, Manifold

GAMES = game_names()
EPS = 1e-3


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    out = tmp_path_factory.mktemp("print")
    return out, P.build(str(out))


def test_every_stl_is_a_closed_solid_and_the_manifest_is_the_committed_one(made):
    out, manifest = made
    for name in manifest:
        mesh = trimesh.load(io.BytesIO((out / name).read_bytes()), file_type="stl")
        assert mesh.is_watertight and mesh.is_winding_consistent and mesh.is_volume, name
        assert len(mesh.split(only_watertight=False)) == 1, f"{name}: more than one piece"
    with open(os.path.join(P.OUT, "manifest.json")) as f:
        assert json.load(f) == manifest, "run python3 -m hardware.printed and commit"


def box(center, size, z0, z1):
    (x, y), (w, h) = center, size
    return Manifold.cube((w, h, z1 - z0)).translate((x - w / 2, y - h / 2, z0))


def part_box(name, above=0.0):
    """A cell part's body (cell_geometry.py) as a box, `above` added over its top."""
    offset, rotation, (w, h), height = G.PARTS[name]
    if rotation % 180:
        w, h = h, w
    return box(offset, (w, h), 0.0, height + above)


@pytest.mark.parametrize("game", GAMES)
def test_each_cap_clears_the_led_and_the_parts_and_sits_on_the_key(game):
    layout = get_layout(game)
    inset = P.wall_inset(layout)
    for cells in P.cap_kinds(layout).values():
        cap = P.cap(cells[0], inset)
        pressed = cap.translate((0, 0, -S.KEY_TRAVEL))
        led_air = part_box("led", S.LED_AIR_MIN)
        assert (pressed ^ led_air).volume() < EPS, f"{game}: a pressed cap comes near the LED"
        for part in ("cap", "diode"):
            assert (pressed ^ part_box(part)).volume() < EPS, f"{game}: cap hits the {part}"
        key = box(G.KEY_OFFSET, G.KEY_BODY, 0.0, S.KEY_BODY_HEIGHT)
        assert (pressed ^ key).volume() < EPS, f"{game}: a pressed cap hits the key's body"
        # resting on the actuator: nothing of the cap lower than its top there, and the stem
        # touching it within its round top
        actuator = CrossSection.circle(S.ACTUATOR_D / 2, 48).extrude(G.KEY_HEIGHT)
        assert (cap ^ actuator).volume() < EPS
        stem_foot = (cap ^ box((0, 0), (6, 6), 0.0, G.KEY_HEIGHT + 0.05)).volume()
        on_actuator = (cap ^ actuator.translate((0, 0, 0.05))).volume()
        assert stem_foot > 0 and abs(stem_foot - on_actuator) < EPS
        lowest = cap.bounding_box()[2]
        assert lowest >= S.SKIRT_BOTTOM - EPS and S.SKIRT_BOTTOM - S.KEY_TRAVEL > 0


def gap_2d(a, b, limit=20.0):
    """The distance between two outlines, to 0.005 mm (grown until they meet)."""
    lo, hi = 0.0, limit
    while hi - lo > 0.005:
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if (a.offset(mid / 2) ^ b.offset(mid / 2)).area() > 0 else (mid, hi)
    return lo


@pytest.mark.parametrize("game", GAMES)
def test_each_cap_fits_its_cell_and_clears_the_frame_and_its_neighbours(game):
    layout = get_layout(game)
    inset = P.wall_inset(layout)
    flat_frame = P.frame_2d(layout, inset)
    caps = {c.index: P.placed(P.cap_outline(c, inset), c) for c in layout.cells}
    worst_neighbour = math.inf
    for c in layout.cells:
        cap = caps[c.index]
        assert (cap - P.placed(P.outline(c), c)).area() < EPS, \
            f"{game} {c.space}: the cap leaves its cell"
        keepout = CrossSection.circle(S.PART_KEEPOUT_R, 72).translate((c.x, c.y))
        assert (keepout - P.placed(P.opening(c, inset), c)).area() < EPS, \
            f"{game} {c.space}: the frame stands on the cell's parts"
        assert (cap.offset(S.CLEARANCE - 0.01) ^ flat_frame).area() < EPS, \
            f"{game} {c.space}: less than {S.CLEARANCE} mm from the cap to the frame"
        for d in layout.cells:
            if d.index > c.index and math.dist((c.x, c.y), (d.x, d.y)) < c.size + d.size:
                worst_neighbour = min(worst_neighbour, gap_2d(cap, caps[d.index]))
    assert worst_neighbour >= S.WALL_MIN + 2 * S.CLEARANCE - 0.01
    # the solids themselves, one cell of each cap kind: the cap against the whole frame
    frame = flat_frame.extrude(S.FRAME_TOP)
    for cells in P.cap_kinds(layout).values():
        c = cells[0]
        cap = P.cap(c, inset).translate((c.x, c.y, 0))
        assert (cap ^ frame).volume() < EPS
        to_frame = cap.min_gap(frame, 3.0)
        assert to_frame >= S.CLEARANCE - 0.01
        print(f"{game} {c.shape} {c.size:g}: cap to frame {to_frame:.2f} mm, "
              f"to the next cap {worst_neighbour:.2f} mm")


@pytest.mark.parametrize("game", GAMES)
def test_frame_tiles_fit_the_bed_and_each_joint_has_dowels(game):
    layout = get_layout(game)
    tiles, holes, (xs, ys) = P.frame_tiles(layout, P.wall_inset(layout))
    for name, tile, _ in tiles:
        x0, y0, _, x1, y1, _ = tile.bounding_box()
        assert x1 - x0 <= P.BED - 2 * P.BED_MARGIN and y1 - y0 <= P.BED - 2 * P.BED_MARGIN, name
    xb, yb = [0.0] + xs + [layout.width_mm], [0.0] + ys + [layout.height_mm]
    for i, at in enumerate(xs):        # each vertical joint, between each row of tiles
        for lo, hi in zip(yb, yb[1:]):
            assert any(x == at and lo < y < hi for x, y, axis in holes if axis == 0), \
                f"{game}: no dowel on x={at} between y {lo} and {hi}"
    for at in ys:
        for lo, hi in zip(xb, xb[1:]):
            assert any(y == at and lo < x < hi for x, y, axis in holes if axis == 1), \
                f"{game}: no dowel on y={at} between x {lo} and {hi}"
    total = sum(t.volume() for _, t, _ in tiles)    # cut into tiles, nothing lost
    assert abs(total - P.frame_2d(layout, P.wall_inset(layout)).extrude(S.FRAME_TOP).volume()
               + len(holes) * math.pi * (P.DOWEL_D / 2) ** 2 * 2 * P.DOWEL_DEPTH) < 0.02 * total


@pytest.mark.parametrize("game", GAMES)
def test_each_registration_mark_has_a_pin_hole_through_solid_frame(game):
    """The frame's hole at every overlay registration mark of the PCBs (the same marks the
    overlay draws, tests/test_registration.py): open from the board to the overlay, a
    1.75 mm filament piece's width, with a wall of at least WALL_MIN all round, on one tile."""
    layout = get_layout(game)
    tiles, _, _ = P.frame_tiles(layout, P.wall_inset(layout))
    marks = registration.marks(game)
    assert marks
    r = registration.PIN_HOLE / 2

    def ring(inner, outer, m):
        disc = CrossSection.circle(outer, 48) - CrossSection.circle(inner, 48) if inner else \
            CrossSection.circle(outer, 48)
        return disc.extrude(S.FRAME_TOP).translate((m.x, m.y, 0))
    for m in marks:
        core, wall = ring(0, r - 0.05, m), ring(r + 0.05, r + S.WALL_MIN, m)
        assert all((t ^ core).volume() < EPS for _, t, _ in tiles), (game, m)
        holding = [name for name, t, _ in tiles if (t ^ wall).volume() > EPS]
        assert len(holding) == 1, (game, m, holding)
        tile = next(t for name, t, _ in tiles if name == holding[0])
        assert (tile ^ wall).volume() == pytest.approx(wall.volume(), rel=1e-3), (game, m)
