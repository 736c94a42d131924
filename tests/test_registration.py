"""The overlay registration marks (hardware/printed/registration.py): every fiducial on every cell
board PCB (hardware/pcb/*.kicad_pcb, tiles included) has its cross-hair and pin circle on
the game's printed overlay (hardware/out/overlays/GAME.svg) within 0.1 mm, and the overlay
has no mark the PCBs lack; each mark is clear of every cell, so the sheet's cells stay
whole. Read from the committed files, as a maker would get them."""

import glob
import math
import os
import re
import xml.etree.ElementTree as ET

import pytest
from hardware.inputs.game_layouts import game_names, get_layout
from hardware.printed import registration
from hardware.printed.solids import circumradius

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARK_TOLERANCE_MM = 0.001   # the registration marks as the PCBs place them, to a micrometre
SVG = "{http://www.w3.org/2000/svg}"
GAMES = game_names()
FIDUCIAL = re.compile(r'\(footprint "Fiducial:[^"]*".*?\(at ([-\d.]+) ([-\d.]+)\).*?'
                      r'\(fp_text reference "(FID\d+)"', re.S)
NUMBER = r"(-?[\d.]+)"


def pcb_marks(game):
    """{(board, FIDn): (x, y)} of the game's PCB files."""
    out = {}
    pattern = os.path.join(ROOT, "hardware", "pcb", f"cellboard-{game}*.kicad_pcb")
    for path in sorted(glob.glob(pattern)):
        board = os.path.basename(path)[:-len(".kicad_pcb")]
        if board != f"cellboard-{game}" and not board.startswith(f"cellboard-{game}-tile"):
            continue
        with open(path) as f:
            for x, y, ref in FIDUCIAL.findall(f.read()):
                out[(board, ref)] = (float(x), float(y))
    return out


def overlay_marks(game):
    """[(board, label, cross-hair centre, pin circle centre, circle diameter)] as drawn."""
    root = ET.parse(os.path.join(ROOT, "hardware", "out", "overlays", f"{game}.svg")).getroot()
    out = []
    for g in root.iter(SVG + "g"):
        if g.get("class") != "registration":
            continue
        arms, ring = [p.get("d") for p in g.iter(SVG + "path")]
        seg = rf"M{NUMBER},{NUMBER} L{NUMBER},{NUMBER}"
        h = [float(n) for n in re.match(seg + " ", arms).groups()]
        v = [float(n) for n in re.search(" " + seg + "$", arms).groups()]
        assert h[1] == h[3] and v[0] == v[2], arms           # one level arm, one upright
        cross = ((h[0] + h[2]) / 2, (v[1] + v[3]) / 2)
        x0, y0, r = (float(n) for n in re.match(rf"M{NUMBER},{NUMBER} A{NUMBER},", ring).groups())
        label = next(t.text for t in g.iter(SVG + "text"))
        out.append((g.get("data-board"), label, cross, (x0 + r, y0), 2 * r))
    return out


def unmatched(pcb, drawn, tol=0.1):
    """PCB marks with no overlay mark of the same board within tol mm, and overlay marks
    with no PCB mark."""
    left = list(drawn)
    missing = []
    for (board, ref), at in sorted(pcb.items()):
        hit = next((d for d in left if d[0] == board and math.dist(d[2], at) <= tol
                    and math.dist(d[3], at) <= tol), None)
        if hit is None:
            missing.append((board, ref, at))
        else:
            left.remove(hit)
    return missing, left


@pytest.mark.parametrize("game", GAMES)
def test_every_pcb_mark_is_on_the_overlay_within_a_tenth_of_a_millimetre(game):
    pcb, drawn = pcb_marks(game), overlay_marks(game)
    assert len(pcb) >= 3 * len({b for b, _ in pcb}) >= 3, pcb     # three a board (or tile)
    missing, extra = unmatched(pcb, drawn)
    assert not missing and not extra, f"run `python3 -m hardware.build`: {missing} {extra}"
    for board, label, _, _, d in drawn:
        assert d == pytest.approx(registration.PIN_HOLE)          # a 1.75 mm filament passes
        assert label.startswith("tile " if "-tile" in board else "mark ")
    # the one source: the marks the overlay and the frame are made from are the PCBs', each
    # coordinate within a micrometre (one approx per mark: pytest 9.2's approx refuses a
    # dictionary of tuples)
    made = {(m.board, f"FID{m.number}"): (m.x, m.y) for m in registration.marks(game)}
    assert made.keys() == pcb.keys()
    for key, at in made.items():
        assert at == pytest.approx(pcb[key], rel=0, abs=MARK_TOLERANCE_MM), key


def test_a_mark_moved_or_missing_on_the_overlay_is_caught():
    pcb, drawn = pcb_marks("knockoff"), overlay_marks("knockoff")
    board, label, (x, y), ring, d = drawn[0]
    moved = [(board, label, (x + 0.15, y), (ring[0] + 0.15, ring[1]), d)] + drawn[1:]
    assert len(unmatched(pcb, moved)[0]) == 1
    other = "cellboard-knockoff-tile2" if board.endswith("tile1") else "cellboard-knockoff-tile1"
    assert len(unmatched(pcb, [(other,) + drawn[0][1:]] + drawn[1:])[0]) == 1
    assert unmatched(pcb, drawn[1:])[0] and not unmatched({}, drawn)[0]


@pytest.mark.parametrize("game", GAMES)
def test_every_mark_and_its_cross_hair_stay_off_the_cells(game):
    lay = get_layout(game)
    for m in registration.marks(game):
        assert 0 < m.x < lay.width_mm and 0 < m.y < lay.height_mm
        for c in lay.cells:
            assert math.dist((m.x, m.y), (c.x, c.y)) > circumradius(c) + registration.CROSS, \
                (m, c.space)
