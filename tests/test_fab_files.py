"""The files a fab assembles from, checked against what KiCad itself writes and reads:

- the CPL (placement) in the Gerbers' frame: each part's Mid X / Mid Y, with its pads'
  layout as pcbnew reads it from the board, lands on that part's pads in the paste Gerber
  (SMD) or on its holes in the drill files (through-hole), parsed by hardware/fab/gerber_reader.py;
  the rotation is KiCad's plus the documented per-package correction (hardware/fab/cpl.py);
- the controller's outline within 100 x 100 mm, the edge line included (pcbnew's bounding
  box of Edge.Cuts, and the outline Gerber's extent);
- on every board: silk lines at least 0.15 mm, every reference on the silkscreen clear of
  every pad and inside the board (KiCad's DRC, tests/test_pcb.py, checks silk over copper
  and silk overlaps on top);
- every BOM line has an LCSC number with the source it was confirmed in, or is listed in
  docs/build.md as unconfirmed.
"""

import csv
import io
import json
import os
import re
import subprocess

import pytest
from hardware import pcbs
from hardware.fab import cpl, gerber_reader
from hardware.kicad import run
from hardware.parts import lcsc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PCB = os.path.join(ROOT, "hardware", "pcb")
DOCS = os.path.join(ROOT, "docs", "build.md")
# the controller (SMD and through-hole parts, every rotation correction) and the Knock-Off
# tile 2, whose board stands at X = 219 mm on KiCad's page
GERBER_BOARDS = ["controller", "cellboard-knockoff-tile2"]
TOLERANCE = 0.005       # mm: the CPL's 3 decimals


def facts(name):
    r = subprocess.run([run.KICAD_PYTHON, os.path.join(run.HERE, "fab_facts.py"),
                        os.path.join(PCB, f"{name}.kicad_pcb")], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def board_names():
    return [b[0] for b in pcbs.boards(ROOT)]


@pytest.fixture(scope="module")
def all_facts(kicad, board_names):
    return {name: facts(name) for name in board_names}


@pytest.fixture(scope="module")
def gerbers(kicad, tmp_path_factory):
    """{board: {file suffix: text}} of the Gerbers and drill files KiCad writes for it."""
    out = {}
    for name in GERBER_BOARDS:
        top = tmp_path_factory.mktemp("gerbers")
        pcbs.gerbers(os.path.join(PCB, f"{name}.kicad_pcb"), str(top))    # into top/NAME/
        d = top / name
        out[name] = {f.split("-")[-1]: (d / f).read_text() for f in os.listdir(d)}
    return out


def cpl_rows(name):
    with open(os.path.join(PCB, f"{name}-cpl.csv")) as f:
        return list(csv.DictReader(f))


def mm(v):
    assert v.endswith("mm"), v
    return float(v[:-2])


def where_pads_must_be(fp, x, y):
    """[(pad, x, y)]: each pad of footprint `fp` (pcbnew's reading) in the Gerber frame, if
    the CPL's (x, y) is the centre of the pads' bounding box, as the CPL says it is."""
    boxes = [p["box"] for p in fp["pads"]]
    cx = (min(b[0] for b in boxes) + max(b[2] for b in boxes)) / 2
    cy = (min(b[1] for b in boxes) + max(b[3] for b in boxes)) / 2
    return [(p, x + p["x"] - cx, y - (p["y"] - cy)) for p in fp["pads"]]   # y up in the Gerbers


def near(points, x, y):
    return any(abs(px - x) <= TOLERANCE and abs(py - y) <= TOLERANCE for px, py in points)


@pytest.mark.parametrize("name", GERBER_BOARDS)
def test_the_cpl_puts_each_part_on_its_pads_in_the_gerbers(name, gerbers, all_facts):
    g = gerbers[name]
    paste = {"F": gerber_reader.Gerber(g["F_Paste.gtp"]).pad_centres(),
             "B": gerber_reader.Gerber(g["B_Paste.gbp"]).pad_centres()}
    holes = {"plated": gerber_reader.drill_hits(g["PTH.drl"]),
             "unplated": gerber_reader.drill_hits(g["NPTH.drl"])}
    fps = all_facts[name]["footprints"]
    rows = cpl_rows(name)
    assert rows
    missed = []
    for row in rows:
        fp = fps[row["Designator"]]
        assert row["Layer"] == ("Bottom" if fp["bottom"] else "Top"), row
        for pad, x, y in where_pads_must_be(fp, mm(row["Mid X"]), mm(row["Mid Y"])):
            if pad["paste"]:
                found = near(paste[pad["paste"][0]], x, y)
            elif pad["plated"] or pad["unplated"]:
                found = near(holes["plated" if pad["plated"] else "unplated"], x, y)
            else:
                continue            # an SMD pad without paste (none on these boards)
            if not found:
                missed.append((row["Designator"], pad["number"], round(x, 3), round(y, 3)))
    assert not missed, f"{len(missed)} pads not where the CPL puts them: {missed[:8]}"


@pytest.mark.parametrize("name", GERBER_BOARDS)
def test_the_gerbers_origin_is_the_boards_lower_left_corner(name, gerbers, all_facts):
    """The CPL's origin is that corner, so the outline must run from (0, 0) in the Gerbers."""
    x0, y0, x1, y1 = gerber_reader.Gerber(gerbers[name]["Edge_Cuts.gm1"]).stroke_extent()
    e = all_facts[name]["edge_box"]
    assert abs(x0) < 1e-6 and abs(y0) < 1e-6, (x0, y0)
    assert abs(x1 - (e[2] - e[0])) < 1e-6 and abs(y1 - (e[3] - e[1])) < 1e-6, ((x1, y1), e)


@pytest.mark.parametrize("name", GERBER_BOARDS)
def test_cpl_rotations_are_kicads_plus_the_fabs_package_correction(name, all_facts):
    fps = all_facts[name]["footprints"]
    corrected = set()
    for row in cpl_rows(name):
        fp = fps[row["Designator"]]
        c = cpl.correction(fp["footprint"])
        want = (fp["rot"] - c if fp["bottom"] else fp["rot"] + c) % 360
        assert float(row["Rotation"]) == pytest.approx(want), (row, fp["rot"])
        if c:
            corrected.add(fp["footprint"])
    if name == "controller":      # SOT-23, SOT-23-6, the TSOT-23-8 and the SOICs are corrected
        assert {"SOT-23", "SOT-23-6", "SOIC-14_3.9x8.7mm_P1.27mm"} <= corrected, corrected


def test_the_controller_fits_the_cheapest_size_class_edge_line_included(all_facts, gerbers):
    e = all_facts["controller"]["edge_box"]          # pcbnew: Edge.Cuts with the line's width
    assert e[2] - e[0] <= 100.0 + 1e-6 and e[3] - e[1] <= 100.0 + 1e-6, e
    x0, y0, x1, y1 = gerber_reader.Gerber(gerbers["controller"]["Edge_Cuts.gm1"]).stroke_extent()
    assert x1 - x0 <= 100.0 + 1e-6 and y1 - y0 <= 100.0 + 1e-6, (x0, y0, x1, y1)


def test_silk_lines_are_at_least_0_15_mm_on_every_board(all_facts):
    thin = [(name, s["owner"], s.get("text"), s["stroke"]) for name, f in all_facts.items()
            for s in f["silk"] if not s.get("filled") and s["stroke"] < 0.15 - 1e-6]
    assert not thin, thin[:10]


def _overlaps(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_references_on_the_silkscreen_clear_of_pads_and_on_the_board(all_facts):
    """Every reference printed on the silkscreen: legible (0.8 mm or more), inside the board,
    over no pad of its side. The controller has every reference on its silkscreen; a cell
    board at least nine in ten (the rest, with no room, on the fabrication layer)."""
    for name, f in all_facts.items():
        e = f["edge_box"]
        pads = {"F": [], "B": []}
        for fp in f["footprints"].values():
            for p in fp["pads"]:
                for side in set(p["copper"]) | ({"F", "B"} if p["unplated"] else set()):
                    pads[side].append(p["box"])
        refs = {s["owner"]: s for s in f["silk"] if s.get("text") is not None and s["owner"]
                and s["text"] == s["owner"]}
        for ref, s in refs.items():
            b = s["box"]
            assert s["height"] >= 0.8 - 1e-6, (name, ref, s["height"])
            inside = e[0] <= b[0] and e[1] <= b[1] and b[2] <= e[2] and b[3] <= e[3]
            assert inside, (name, ref, b, e)
            over = [p for p in pads[s["side"]] if _overlaps(b, p)]
            assert not over, (name, ref, b, over[:2])
        parts = [r for r in f["footprints"] if not r.startswith("FID")]
        share = len([r for r in parts if r in refs]) / len(parts)
        left = sorted(set(parts) - set(refs))
        assert share >= (1.0 if name == "controller" else 0.9), (name, share, left[:10])


def unconfirmed_in_docs():
    """The MPNs docs/build.md lists as having no confirmed LCSC number."""
    with open(DOCS) as f:
        text = f.read()
    m = re.search(r"<!-- lcsc-unconfirmed -->(.*?)<!-- /lcsc-unconfirmed -->", text, re.S)
    assert m, "docs/build.md has no list of unconfirmed LCSC numbers"
    return set(re.findall(r"^- `([^`]+)`", m.group(1), re.M))


def test_every_bom_line_has_a_confirmed_lcsc_number_or_is_listed_as_unconfirmed(board_names):
    listed = unconfirmed_in_docs()
    for name in board_names:
        with open(os.path.join(PCB, f"{name}-bom.csv")) as f:
            rows = list(csv.DictReader(io.StringIO(f.read())))
        for row in rows:
            number = row["LCSC Part #"]
            if number:
                entry = lcsc.LCSC[row["MPN"]]
                assert re.fullmatch(r"C\d+", number) and entry.number == number, (name, row)
                assert entry.source, (name, row)
            else:
                assert row["MPN"] in listed, (name, row["MPN"], "not in docs/build.md's list")
    for mpn in listed:          # the list names no part that has a number
        assert mpn not in lcsc.LCSC or not lcsc.LCSC[mpn].number, mpn


def test_every_board_matches_its_netlist_part_for_part_and_pad_for_pad(all_facts):
    """The project's own parity check (hardware/fab/parity.py; KiCad 6's DRC report never runs
    its footprint test, so its "0 footprint errors" said nothing): every part of each board's
    netlist on the board with its footprint, every pad on its pin's net, as pcbnew reads the
    committed board. Shown to catch a pad moved to another net, a footprint swapped and a part
    left out."""
    import copy

    from hardware.fab import parity
    from hardware.schematic import netlist
    texts = {name: text for name, text, _, _ in pcbs.boards(ROOT)}
    for name, f in all_facts.items():
        assert parity.problems(f, netlist.read(texts[name])) == [], name
    nl = netlist.read(texts["controller"])
    bad = copy.deepcopy(all_facts["controller"])
    bad["footprints"]["RN1"]["pads"][0]["net"] = "GND"
    bad["footprints"]["RN2"]["footprint"] = "R_Array_Convex_4x1206"     # the misfit before
    del bad["footprints"]["U5"]
    found = parity.problems(bad, nl)
    assert any(p.startswith("RN1.") and "GND on the board" in p for p in found), found
    assert any(p.startswith("RN2: footprint R_Array_Convex_4x1206") for p in found), found
    assert "U5: in the netlist, not on the board" in found
