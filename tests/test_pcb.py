"""The PCBs (hardware/pcb/): one per game's cell board (or its tiles; the controller's is
placed but not routed yet, hardware/build.py's PCB_NOT_ROUTED says why), made by `python3 -m hardware.build` from the netlists and the layouts. Each is checked with
KiCad's own DRC through pcbnew (Debian's /usr/bin/python3): 0 violations, 0 unconnected
pads, 0 footprint errors, with the fab's rules stored in the board; each key sits within
0.1 mm of its overlay cell's centre; each board is up to date with its inputs. DRC is
shown to catch a track moved or deleted."""

import csv
import json
import os
import subprocess

import pytest

from hardware import build, cell_geometry, fab, pcb

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PCB = os.path.join(ROOT, "hardware", "pcb")
OUT = os.path.join(ROOT, "hardware", "out")


@pytest.fixture(scope="module")
def kicad():
    ok = os.path.exists(pcb.KICAD_PYTHON) and subprocess.run(
        [pcb.KICAD_PYTHON, "-c", "import pcbnew"], capture_output=True).returncode == 0
    if not ok:
        msg = "KiCad's pcbnew missing: apt-get install kicad kicad-footprints"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)


@pytest.fixture(scope="module")
def expected():
    return {name: (text, extra) for name, text, extra, _ in pcb.boards(ROOT)
            if name not in build.PCB_NOT_ROUTED}


@pytest.fixture(scope="module")
def reports(kicad, expected):
    """KiCad's DRC of every committed board, once per session."""
    return {name: json.loads(pcb.kicad("drc", os.path.join(PCB, f"{name}.kicad_pcb")))
            for name in sorted(expected)}


def test_every_board_is_there_and_up_to_date(expected):
    assert "cellboard-ko" in expected and "cellboard-knockoff-tile2" in expected
    assert set(build.PCB_NOT_ROUTED) <= {"controller"}     # every cell board is there
    stale = [name for name, (text, extra) in expected.items()
             if name not in build.PCB_KEPT and pcb.board_hash(os.path.join(PCB, f"{name}.kicad_pcb")) != pcb.inputs_hash(name, text, extra)]
    assert not stale, f"run `python3 -m hardware.build`: boards out of date: {stale}"


def test_kicad_drc_is_clean_on_every_board(reports):
    for name, r in reports.items():
        if name in build.PCB_KEPT:      # an earlier router's board: complete, the findings stated
            assert r["kinds"] == build.PCB_KEPT[name][0], (name, r["samples"])
            assert (r["unconnected"], r["footprint_errors"]) == (0, 0), (name, r["samples"])
            continue
        assert (r["violations"], r["unconnected"], r["footprint_errors"]) == (0, 0, 0), (name, r["samples"])
        assert r["copper_layers"] == 2
        assert fab.fits(*r["size"]), (name, r["size"])
        assert r["tracks"] > 0, name


def test_the_fabs_rules_are_in_every_board(reports):
    for name, r in reports.items():
        assert r["rules"] == {"min_track": fab.MIN_TRACK, "min_clearance": fab.MIN_CLEARANCE,
                              "min_via": fab.MIN_VIA_DIAMETER, "min_drill": fab.MIN_THROUGH_HOLE,
                              "clearance": fab.CLEARANCE}, name


def test_every_key_and_led_sits_at_its_overlay_cell(reports):
    games = {}
    for name, r in reports.items():
        if name.startswith("cellboard-"):
            game = name.split("-")[1]
            games.setdefault(game, {}).update(r["footprints"])
    assert games
    kx, ky = cell_geometry.KEY_OFFSET
    lx, ly = cell_geometry.LED_OFFSET
    for game, fps in games.items():
        with open(os.path.join(OUT, f"cells-{game}.csv")) as f:
            cells = list(csv.DictReader(f))
        for c in cells:
            x, y = float(c["x_mm"]), float(c["y_mm"])
            sx, sy, bottom = fps[f"SW{c['cell']}"]
            assert abs(sx - x - kx) <= 0.1 and abs(sy - y - ky) <= 0.1 and not bottom, (game, c)
            ex, ey, _ = fps[f"LED{c['cell']}"]
            assert abs(ex - x - lx) <= 0.1 and abs(ey - y - ly) <= 0.1, (game, c)


@pytest.mark.parametrize("damage", ["delete", "nudge"])
def test_drc_catches_a_deleted_or_moved_track(kicad, damage):
    r = json.loads(pcb.kicad("drc", os.path.join(PCB, "cellboard-ko.kicad_pcb"), damage))
    if damage == "delete":
        assert r["unconnected"] >= 1
    else:       # a clearance error, or the nudged track's end left dangling
        assert r["violations"] >= 1 and {"[clearance]", "[track_dangling]"} & set(r["kinds"])


BOARD = "cellboard-knockoff-tile1"        # the smallest board: its Gerbers take a few seconds


def test_gerbers_and_drill_files_of_a_board(kicad, reports, tmp_path):
    """The upload zip: every copper, mask, paste and silkscreen layer, the outline, and the
    drill files with one hit per plated and unplated hole of the board."""
    import re
    import zipfile
    z = pcb.gerbers(os.path.join(PCB, f"{BOARD}.kicad_pcb"), str(tmp_path))
    names = set(zipfile.ZipFile(z).namelist())
    for layer in ("F_Cu.gtl", "B_Cu.gbl", "F_Mask.gts", "B_Mask.gbs", "F_Silkscreen.gto",
                  "B_Silkscreen.gbo", "F_Paste.gtp", "Edge_Cuts.gm1", "PTH.drl", "NPTH.drl"):
        assert f"{BOARD}-{layer}" in names, layer
    hits = {}
    for kind in ("PTH", "NPTH"):
        with open(tmp_path / BOARD / f"{BOARD}-{kind}.drl") as f:
            hits[kind] = len(re.findall(r"^X-?[\d.]+Y-?[\d.]+$", f.read(), re.M))
    r = reports[BOARD]
    assert hits == {"PTH": r["plated_holes"] + r["vias"], "NPTH": r["unplated_holes"]}


def test_escape_stubs_reach_fine_pitch_pads_with_clearance():
    """The LTC4365's TSOT-23-8 (0.65 mm pitch): its inner pads lie between the router's grid
    points; each gets a stub to a grid point, clear of every other net's pad by the fab's
    clearance (measured here by sampling the track's centre line), leaving away from the part."""
    import math

    from hardware import fp_geometry, router
    pads = fp_geometry.pads("Package_TO_SOT_SMD:TSOT-23-8", 10.0, 10.0, 90.0)
    nets = {p.number: f"N{p.number}" for p in pads}
    grid = router.Grid(20.0, 20.0, list(nets.values()))
    terms = [(p, nets[p.number], grid.add_pad(p, nets[p.number]), (10.0, 10.0)) for p in pads]
    assert grid.escape_all(terms) == []
    stubbed = {p.number for p in grid.escapes}
    assert stubbed and stubbed <= {"2", "3", "6", "7"}
    for pad in pads:
        cells, tracks = grid.access(pad, nets[pad.number], [0])
        assert cells, pad.number
        for _, _, x1, y1, x2, y2, width in tracks:
            for k in range(101):
                x, y = x1 + (x2 - x1) * k / 100, y1 + (y2 - y1) * k / 100
                for other in pads:
                    if other.number == pad.number:
                        continue
                    dx = max(abs(x - other.x) - other.w / 2, 0.0)
                    dy = max(abs(y - other.y) - other.h / 2, 0.0)
                    assert math.hypot(dx, dy) - width / 2 >= fab.CLEARANCE, (pad.number, other.number)
        if tracks:                  # the stub ends farther from the part than the pad
            end = (tracks[-1][4], tracks[-1][5])
            assert math.hypot(end[0] - 10, end[1] - 10) > math.hypot(pad.x - 10, pad.y - 10)
