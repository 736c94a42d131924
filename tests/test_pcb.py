"""The PCBs (hardware/pcb/): the controller's and one per game's cell board (or its tiles),
made by `python3 -m hardware.build` from the netlists and the layouts. Each is checked with
KiCad's own DRC through pcbnew (Debian's /usr/bin/python3): 0 violations, 0 unconnected
pads (its footprint count stays 0 as KiCad 6 never fills it: the board against its netlist is
tests/test_fab_files.py's parity check), with the fab's rules stored in the board; each key sits
within 0.1 mm of its overlay cell's centre; each board is up to date with its inputs and is made
again byte for byte (tests/boards/). DRC is shown to catch a track moved or
deleted."""

import csv
import json
import math
import os
import subprocess

import pytest
from hardware import pcbs
from hardware.inputs import fab_rules
from hardware.kicad import run
from hardware.placement import cell_geometry

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PCB = os.path.join(ROOT, "hardware", "pcb")
OUT = os.path.join(ROOT, "hardware", "out")


@pytest.fixture(scope="module")
def expected():
    return {name: (text, extra) for name, text, extra, _ in pcbs.boards(ROOT)}


@pytest.fixture(scope="module")
def reports(kicad, expected):
    """KiCad's DRC of every committed board, once per session."""
    return {name: json.loads(run.kicad("drc", os.path.join(PCB, f"{name}.kicad_pcb")))
            for name in sorted(expected)}


def test_every_board_is_there_and_up_to_date(expected):
    assert {"controller", "cellboard-ko", "cellboard-knockoff-tile2"} <= set(expected)
    stale = [name for name, (text, extra) in expected.items()
             if pcbs.board_hash(os.path.join(PCB, f"{name}.kicad_pcb"))
             != pcbs.inputs_hash(name, text, extra)]
    assert not stale, f"run `python3 -m hardware.build`: boards out of date: {stale}"


def test_kicad_drc_is_clean_on_every_board(reports):
    for name, r in reports.items():
        assert (r["violations"], r["unconnected"], r["footprint_errors"]) == (0, 0, 0), \
            (name, r["samples"])
        assert r["copper_layers"] == 2
        assert fab_rules.fits(*r["size"]), (name, r["size"])
        assert r["tracks"] > 0, name


def test_the_fabs_rules_are_in_every_board(reports):
    for name, r in reports.items():
        assert r["rules"] == {"min_track": fab_rules.MIN_TRACK,
                              "min_clearance": fab_rules.MIN_CLEARANCE,
                              "min_via": fab_rules.MIN_VIA_DIAMETER,
                              "min_drill": fab_rules.MIN_THROUGH_HOLE,
                              "clearance": fab_rules.CLEARANCE}, name


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
    r = json.loads(run.kicad("drc", os.path.join(PCB, "cellboard-ko.kicad_pcb"), damage))
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
    z = pcbs.gerbers(os.path.join(PCB, f"{BOARD}.kicad_pcb"), str(tmp_path))
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

    from hardware.inputs import fab_rules
    from hardware.parts import footprint_geometry
    from hardware.routing import router
    pads = footprint_geometry.pads("Package_TO_SOT_SMD:TSOT-23-8", 10.0, 10.0, 90.0)
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
                    assert math.hypot(dx, dy) - width / 2 >= fab_rules.CLEARANCE, \
                        (pad.number, other.number)
        if tracks:                  # the stub ends farther from the part than the pad
            end = (tracks[-1][4], tracks[-1][5])
            assert math.hypot(end[0] - 10, end[1] - 10) > math.hypot(pad.x - 10, pad.y - 10)


def _gap(x, y, width, pad):
    """Copper to copper: a track of `width` centred at (x, y) to a pad (rounded rectangle)."""
    import math
    r = pad.corner
    dx = max(abs(x - pad.x) - (pad.w / 2 - r), 0.0)
    dy = max(abs(y - pad.y) - (pad.h / 2 - r), 0.0)
    return math.hypot(dx, dy) - r - width / 2


def test_a_wide_track_necks_down_at_a_fine_pitch_pad():
    """The controller's U5: a wide +5V_IN track leaving pads 1 and 5 (0.65 mm pitch) came
    0.175 mm from pads 2 and 6. Routed alone here, every track keeps the clearance from every
    other net's pad, and the supply runs led_current.TRACK_MM wide past its necks."""
    from hardware.placement.plan import Placed, Plan
    from hardware.routing import route
    u5 = Placed("U5", "Knockboard:TSOT-23-8_LTC4365", 10.0, 10.0, nets={
        "1": "+5V_IN", "2": "UV", "3": "OV", "4": "GND",
        "5": "+5V_IN", "6": "FAULT", "7": "OUT", "8": "GATE"})
    c1 = Placed("C1", "Capacitor_SMD:C_0805_2012Metric", 10.0, 4.0,
                nets={"1": "+5V_IN", "2": "GND"})
    from hardware.schematic import led_current
    # C1 first: tracks leave U5's pads
    plan = route.route(Plan("neck", 20.0, 20.0, [c1, u5], wide_nets=["+5V_IN"]))
    assert not plan.failed
    pads = [(f.nets[p.number], p) for f in (u5, c1) for p in f.pads()]
    supply = [t for t in plan.tracks if t[0] == "+5V_IN"]
    assert {t[6] for t in supply} == {fab_rules.TRACK, led_current.TRACK_MM}     # necks, then wide
    for net, _, x1, y1, x2, y2, width in plan.tracks:
        for k in range(21):
            x, y = x1 + (x2 - x1) * k / 20, y1 + (y2 - y1) * k / 20
            for other, pad in pads:
                if other != net:
                    assert _gap(x, y, width, pad) >= fab_rules.CLEARANCE - 1e-9, \
                        (net, other, pad.number, x, y)


def test_the_led_current_nets_come_from_the_netlist():
    """The controller's nets from the jack and from VBUS to J2/J6 (through Q2, F1, JP1, U6,
    D2) and the cell boards' +5V, found by walking the netlist; and the width IPC-2221 gives
    the fuse's hold current, checked against the standard's formula by hand: 0.8 mm of 1 oz
    is 31.5 x 1.378 mil = 43.4 mil^2, 0.048 x 10^0.44 x 43.4^0.725 = 2.03 A; 0.75 mm is 1.94 A."""
    from hardware.inputs import ipc2221, power_budget
    from hardware.schematic import led_current, netlist
    ctl = netlist.read_file(os.path.join(OUT, "controller.net"))
    assert led_current.nets(ctl) >= {"+5V", "+5V_JACK", "JACK_SRC", "+5V_IN", "USB_SW", "USB_LED",
                                     "VBUS", "GND"}
    assert not led_current.nets(ctl) & {"VSYS", "+3V3", "JACK_GATE", "USB_EN", "JACK_SENSE"}
    cell = netlist.read_file(os.path.join(OUT, "cellboard-ko.net"))
    assert led_current.nets(cell) == {"+5V", "GND"}
    # every LED's supply pins are on the current's way, whatever its catalogue key: a stale key
    # ("ws2812b" after the SK6812MINI came) made them branches, fed by 0.25 mm tracks
    leds = [c for ref, c in cell.components.items() if ref.startswith("LED")]
    assert len(leds) == 81
    path = led_current.path_pins(cell)
    assert all((c.ref, c.pin_num("VDD")) in path and (c.ref, c.pin_num("VSS")) in path
               for c in leds)
    assert led_current.TRACK_MM == 0.8
    assert ipc2221.amps(0.8) == pytest.approx(2.03, abs=0.01) \
        and ipc2221.amps(0.75) < power_budget.POLYFUSE_HOLD_MA / 1000
    assert ipc2221.amps(0.25) == pytest.approx(0.88, abs=0.01)  # the review's figure for the necks
    assert led_current.neck_rise_c(led_current.MAX_NECK_MM) < 3


def test_every_led_current_track_carries_the_fuses_hold_current(kicad, expected):
    """Every track of every LED-current net but the ground (a pour), as KiCad reads the
    committed boards, is led_current.TRACK_MM wide, or a neck into one pad within
    led_current.MAX_NECK_MM, or a branch to pads the LEDs' current does not pass
    (hardware/power/track_widths.py). The check is shown to find what the review found: the
    controller's source tie JACK_SRC drawn 0.25 mm, as it was, fails it."""
    from hardware.power import rails, track_widths
    from hardware.schematic import led_current, netlist
    bad = []
    for name in sorted(expected):
        nl = netlist.read(expected[name][0])
        nets = sorted(led_current.nets(nl) - {"GND"})
        path = {f"{r}.{p}" for r, p in led_current.path_pins(nl)}
        cus = rails.copper(os.path.join(PCB, f"{name}.kicad_pcb"), nets)
        for net in nets:
            assert cus[net]["tracks"], (name, net)
            bad += [(name, net, what) for what, _ in track_widths.faults(cus[net], path)]
            if (name, net) == ("controller", "JACK_SRC"):
                thin = dict(cus[net], tracks=[t[:5] + [0.25] for t in cus[net]["tracks"]])
                assert any("0.25 mm" in what for what, _ in track_widths.faults(thin, path)), \
                    "a 0.25 mm source tie passed"
    assert not bad, bad[:10]


def _walled_plan(wide):
    """Two pads of +5V 14 mm apart, a wall between them (the registration marks' blocks)
    with one gap a single grid line wide: room for a 0.25 mm track, none for a wide one."""
    from hardware.placement.plan import Placed, Plan
    a = Placed("C1", "Capacitor_SMD:C_0805_2012Metric", 3.0, 10.0, nets={"1": "+5V"})
    b = Placed("C2", "Capacitor_SMD:C_0805_2012Metric", 17.0, 10.0, nets={"1": "+5V"})
    wall = [(10.0, y) for y in (1.0, 4.5, 8.0, 12.0, 15.5, 19.0)]
    return Plan("wall", 20.0, 20.0, [a, b], marks=wall, wide_nets=["+5V"] if wide else [],
                attempts=2)


def test_a_wide_net_with_no_room_fails_loudly_and_is_never_narrowed():
    """Where an LED-current connection finds no way led_current.TRACK_MM wide, the router
    draws nothing narrower: the connection fails, named by net, pad and place, and pcbs.make
    (pcbs.routed) turns a failed connection into a PcbError (the build stops). The same pads as
    a signal net route through the gap: the width alone stopped it."""
    from hardware.routing import route
    plan = route.route(_walled_plan(wide=True))
    assert not [t for t in plan.tracks if t[0] == "+5V" and t[6] < 0.8], plan.tracks
    assert plan.failed and plan.failed[0][0] == "+5V"
    assert "no way 0.8 mm wide" in plan.failed[0][1] and " at (" in plan.failed[0][1], plan.failed
    thin = route.route(_walled_plan(wide=False))
    assert not thin.failed and {t[6] for t in thin.tracks} == {fab_rules.TRACK}
    with pytest.raises(run.PcbError, match=r"wall: 1 connections not routed.*no way 0.8 mm wide"):
        pcbs.routed("wall", _walled_plan(wide=True))


def test_a_ground_pour_island_is_joined_to_the_pour():
    """A ground pad whose via lands where another net's bottom tracks ring the pour in (Q3 on
    the controller, once) is an island: KiCad would find it unconnected. The router sees the
    piece on its grid and joins it to the largest with a track."""
    from hardware.inputs import fab_rules
    from hardware.parts.footprint_geometry import Pad
    from hardware.routing import route, router
    grid = router.Grid(20.0, 20.0, ["GND", "RING"])
    inner = Pad("1", "smd", 10.0, 10.0, 1.0, 1.0, 0.0, ("F.Cu",))
    outer = Pad("1", "smd", 3.0, 3.0, 1.0, 1.0, 0.0, ("F.Cu",))
    terms = [("C1", inner, grid.add_pad(inner, "GND")), ("C2", outer, grid.add_pad(outer, "GND"))]
    ring = ([(1, 14, x) for x in range(14, 27)] + [(1, y, 26) for y in range(15, 27)]
            + [(1, 26, x) for x in range(25, 13, -1)] + [(1, y, 14) for y in range(25, 14, -1)])
    grid.commit("RING", ring, fab_rules.TRACK)             # a closed square of bottom track, 6 mm
    route._route_net(grid, "GND", terms)

    def pieces():
        links = {(round(y / fab_rules.G), round(x / fab_rules.G)) for _, x, y in grid.route.vias}
        label = grid.pieces("GND", links)
        return {int(label[0, round(p.y / fab_rules.G), round(p.x / fab_rules.G)])
                for _, p, _ in terms}
    assert len(pieces()) == 2 and not grid.route.failed
    assert route._join_islands(grid, "GND", terms) == []
    assert len(pieces()) == 1 and not grid.route.failed


def test_a_fractional_or_zero_step_cost_is_refused_with_a_clear_error():
    """The router's search sums whole costs in its own order and packs them into ints
    (router._packing), exact only for whole costs of at least one: the grid refuses a step
    cost of 2.5 or 0 before anything is routed, naming the costs."""
    from hardware.routing import router
    for costs in ((2.5, 6), (2, 0)):
        with pytest.raises(router.RoutingError, match=r"^step costs .*: positive whole numbers"):
            router.Grid(10.0, 10.0, ["A"], costs)
    assert router.Grid(10.0, 10.0, ["A"], (2, 3)).step_cost == (2, 3)


def test_the_rail_solver_on_a_hand_computed_ladder():
    """1 ohm steps, 1 A drawn at each node: fed at one end the currents are 3, 2, 1 A (drops
    3, 5, 6 V); fed at both ends of four steps the middle sees 1.5 + 0.5 = 2 V; a node with no
    path to a feed has no drop (NaN), not a made-up one."""
    from hardware.power import rails
    v = rails.solve(4, [(0, 1, 1.0), (1, 2, 1.0), (2, 3, 1.0)], {1: 1.0, 2: 1.0, 3: 1.0}, [0])
    assert v.tolist() == pytest.approx([0, 3, 5, 6])
    v = rails.solve(6, [(0, 1, 1.0), (1, 2, 1.0), (2, 3, 1.0), (3, 4, 1.0)],
                    {1: 1.0, 2: 1.0, 3: 1.0}, [0, 4])
    assert v[:5].tolist() == pytest.approx([0, 1.5, 2, 1.5, 0])
    assert math.isnan(v[5])
    # IPC-2221 chart: 23.6 x 1.38 mil at 10 C
    assert rails.ipc_amps(0.6) == pytest.approx(1.65, abs=0.01)


def test_the_rails_measured_on_a_routed_board(kicad):
    """The +5V copper of Knock-Off's two tiles as KiCad has it, solved as one network through
    the join: every LED reached from a feed, the figures hardware/pcb/rails.json (and so
    build.md) holds; and the same copper with its tracks half as wide drops more (the solver
    reads the widths)."""
    from hardware.placement import tiles
    from hardware.power import rails
    cus = [rails.copper(os.path.join(PCB, f"cellboard-knockoff-tile{k}.kicad_pcb"), ["+5V"])["+5V"]
           for k in (1, 2)]
    per = rails.led_ma("knockoff")
    joins = [(0, tiles.join_ref(0, 0), 1, tiles.join_ref(0, 1))]
    r = rails.measure(cus, per, joins=joins)
    saved = rails.load()
    for k, got in enumerate(r, 1):
        assert got["feeds"] == saved[f"cellboard-knockoff-tile{k}"]["+5V"]["feeds"]
        assert got["drop_v"] == pytest.approx(
            saved[f"cellboard-knockoff-tile{k}"]["+5V"]["drop_v"], abs=1e-3)
        assert got["worst_led"].startswith("LED")
    thin = [dict(c, tracks=[t[:5] + [t[5] / 2] for t in c["tracks"]]) for c in cus]
    assert rails.measure(thin, per, joins=joins)[1]["drop_v"] > 1.5 * r[1]["drop_v"]


def test_every_cell_board_keeps_its_rails_within_the_limit(expected):
    """hardware/pcb/rails.json measures the committed boards (their inputs hashes), and on
    every one +5V and GND together drop at most budget.MAX_RAIL_DROP_V and no track carries
    more than IPC-2221 allows its width at rails.RISE_C."""
    from hardware.inputs import power_budget
    from hardware.power import rails
    saved = rails.load()
    cells = sorted(n for n in expected if n.startswith("cellboard"))
    assert sorted(n for n in saved if n != rails.CONTROLLER) == cells, \
        "run `python3 -m hardware.power.rails`"
    for name in cells:
        r = saved[name]
        assert r["hash"] == pcbs.board_hash(os.path.join(PCB, f"{name}.kicad_pcb")), \
            f"{name} changed since it was measured: run `python3 -m hardware.power.rails`"
        assert 0 < r["drop_v"] <= power_budget.MAX_RAIL_DROP_V, (name, r["drop_v"])
        for net in ("+5V", "GND"):
            assert r[net]["track_a"] <= r[net]["track_ipc_a"], (name, net, r[net])


def test_a_tracks_drop_by_the_solver_is_ohms_law():
    """One 0.8 mm track 20 mm long between two pads, 2 A: the grid solver's drop is the
    sheet resistance times its squares times the current (rho / t * L / W * I = 24.6 mV), to
    within the pads' share (each pad is 1 x 1 mm of copper in the path)."""
    from hardware.power import rails

    def pad(ref, x):
        return [ref, "1", ["F.Cu"], [[x - 0.5, -0.5], [x + 0.5, -0.5], [x + 0.5, 0.5],
                                     [x - 0.5, 0.5]]]

    cu = {"tracks": [["F.Cu", 0.0, 0.0, 20.0, 0.0, 0.8]], "vias": [], "zones": {},
          "pads": [pad("A", 0.0), pad("B", 20.0)]}
    drop, to = rails.net_drop(cu, [("A", "1")], [("B", "1")], 2.0)
    ohm = 1.72e-8 / 35e-6 * 20 / 0.8
    assert to == "B" and drop == pytest.approx(2.0 * ohm, rel=0.1)


def test_the_controllers_copper_is_measured(kicad, expected):
    """hardware/pcb/rails.json holds the committed controller's drops (its inputs hash), net
    by net from the jack to J2/J6; measured again here (the +5V side; the ground pour takes a
    minute), the same figures."""
    from hardware.power import rails
    from hardware.schematic import led_current, netlist
    saved = rails.load()[rails.CONTROLLER]
    assert saved["hash"] == pcbs.board_hash(os.path.join(PCB, "controller.kicad_pcb")), \
        "run `python3 -m hardware.power.rails`"
    nl = netlist.read(expected["controller"][0])
    chain = led_current.chain(nl, rails.JACK[0])
    assert [n for n, _, _ in chain] == ["+5V_IN", "JACK_SRC", "+5V_JACK", "+5V"]
    cus = rails.copper(os.path.join(PCB, "controller.kicad_pcb"), [n for n, _, _ in chain])
    for net, enter, leave in chain:
        drop, to = rails.net_drop(cus[net], enter, leave, saved["amps"])
        assert (round(drop, 4), to) == (saved[net]["drop_v"], saved[net]["to"]), net
    assert saved["drop_v"] == pytest.approx(
        sum(saved[n]["drop_v"] for n, _, _ in chain) + saved["GND"]["drop_v"], abs=1e-3)


@pytest.fixture(scope="module")
def board_facts(kicad, expected):
    """What pcbnew reads from each committed board (hardware/kicad/fab_facts.py): footprints
    with their courtyards, tracks, vias."""
    out = {}
    for name in sorted(expected):
        r = subprocess.run([run.KICAD_PYTHON, os.path.join(run.HERE, "fab_facts.py"),
                            os.path.join(PCB, f"{name}.kicad_pcb")],
                           capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr[-2000:]
        out[name] = json.loads(r.stdout)
    return out


def _holes(f):
    return [(fp["x"], fp["y"]) for fp in f["footprints"].values()
            if fp["footprint"].startswith("MountingHole")]


def test_no_track_or_via_under_a_screw_head(board_facts):
    """On every board, as pcbnew reads it, no track's or via's copper comes within
    mechanics.KEEPOUT_R (an M3 button head's radius, a hex standoff's corners) of a mounting
    hole's centre; the check finds a track laid 2.5 mm from a hole's centre."""
    from hardware.inputs import mechanics
    assert mechanics.KEEPOUT_R == pytest.approx(6.35 / 2, abs=0.01)     # 5.5 mm hex across corners
    for name, f in board_facts.items():
        holes = _holes(f)
        assert len(holes) >= 4, name
        vias = [v for v in f["vias"]]
        assert mechanics.keepout_faults(holes, f["tracks"], vias) == [], name
    f = board_facts["controller"]
    (hx, hy), t = _holes(f)[0], f["tracks"][0]
    moved = [t[:2] + [hx + 2.5, hy - 1, hx + 2.5, hy + 1, t[6]]]
    assert [k for _, k, _ in mechanics.keepout_faults(_holes(f), moved, [])] == [0]


def test_kicads_drc_finds_a_track_under_a_screw_head(kicad):
    """Each board carries a KiCad rule area (no tracks, no vias) around each mounting hole:
    a track laid under a screw head is a DRC violation of its own kind."""
    r = json.loads(run.kicad("drc", os.path.join(PCB, "cellboard-ko.kicad_pcb"), "screw"))
    assert r["violations"] >= 1 and any("keepout" in k or "not_allowed" in k
                                        for k in r["kinds"]), r["kinds"]


def test_the_pico_usb_plug_meets_no_part(board_facts):
    """The micro-USB plug's envelope (mechanics.usb_plug_box: the Micro-B overmold's 10.6 mm
    and a margin, from the Pico's USB edge to the board's edge) on the controller as pcbnew
    reads it overlaps no other part's courtyard on the top, and neither place the OLED module
    on J5 can lie (mechanics.oled_boxes). Where J5 stood before (44-55 mm, 4-8 mm) it would."""
    from hardware.inputs import mechanics
    f = board_facts["controller"]
    x0, y0, x1, y1 = f["edge_box"]
    fps = f["footprints"]
    pico = next(fp for fp in fps.values() if fp["footprint"] == "RaspberryPi_Pico_THT")
    box = mechanics.usb_plug_box(pico["x"] - x0, pico["y"] - y0, pico["rot"], x1 - x0, y1 - y0)
    box = (box[0] + x0, box[1] + y0, box[2] + x0, box[3] + y0)
    assert box[3] - box[1] > 10
    assert box[2] - box[0] == pytest.approx(mechanics.PLUG_W + 2 * mechanics.PLUG_MARGIN)
    hits = [ref for ref, fp in fps.items()
            if fp is not pico and not fp["bottom"] and fp["courtyard"]
            and mechanics.overlap(box, fp["courtyard"])]
    assert hits == [], hits
    j5 = fps["J5"]
    modules = mechanics.oled_boxes([(p["x"], p["y"]) for p in j5["pads"]])
    assert not any(mechanics.overlap(box, m) for m in modules), (modules, box)
    assert mechanics.overlap(box, (44.175, 4.225, 55.425, 7.825))      # J5's courtyard before


def test_jack_to_last_led_within_the_budget_for_every_game(expected):
    """From the controller's jack to each game's last LED, at the game's LED current: the
    controller's copper (measured, rails.json), the LED cable, the cell board's rails together
    drop at most budget.MAX_RAIL_DROP_V (0.3 V): the LEDs' 5 V stays within their supply
    range at full white. The measurement is of the committed boards (their hashes)."""
    from hardware.inputs import power_budget
    from hardware.power import rails
    saved = rails.load()
    for name in expected:
        assert saved[name]["hash"] == pcbs.board_hash(os.path.join(PCB, f"{name}.kicad_pcb")), \
            f"{name} changed since it was measured: run `python3 -m hardware.power.rails`"
    totals = rails.totals(saved)
    assert sorted(g for g, *_ in totals) == sorted(cellboard_games())
    over = [(g, round(t, 3)) for g, _, _, _, _, t in totals if t > power_budget.MAX_RAIL_DROP_V]
    assert not over, over


def cellboard_games():
    from hardware.inputs import game_layouts
    return game_layouts.game_names()
