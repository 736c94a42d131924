"""The supply rails of a routed board, measured from its copper: the voltage drop at every
LED and the current in every track of +5V and GND, at the jack's LED budget.

The board's copper of one net (tracks, vias, pads and the filled pours, as KiCad has them:
hardware/kicad/copper.py) is drawn on a square grid of PITCH mm per layer; every copper cell is a
node, two neighbouring cells of a layer are joined by one square of 1 oz copper (its sheet
resistance, whatever the cells' size), a via or a through-hole pad joins the two layers. Each LED
draws its share of the budget at its pad; the connector pads (J1, the second feed J4) are held at
the supply's voltage, a tile's join is a resistor to its partner. The sparse solve gives every
node's drop. A pour is cut to whole cells (its edges lose up to a cell: the grid errs high); a track
inside its own net's pour counts twice (the fill covers it too), a strip of its width beside the
pour's.

    python3 -m hardware.power.rails [GAME ...]   # measures, writes hardware/pcb/rails.json
"""

import json
import math
import os
import subprocess
import sys

import numpy as np
import pyamg
from PIL import Image, ImageDraw
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.sparse.linalg import spsolve

from .. import pcbs
from ..inputs import ipc2221, power_budget
from ..kicad import run
from ..parts.libraries import HARDWARE

PITCH = 0.1                     # mm a grid cell: at 0.2 a track end may miss its pad
GND_PITCH = 0.2                 # the ground pour's million cells at 0.1 take minutes to solve
PLATING_UM = 18                 # via barrel copper (JLCPCB: 18 um minimum in the hole)
BOARD_MM = 1.6
LAYERS = ("F.Cu", "B.Cu")
RISE_C = ipc2221.RISE_C         # the temperature rise a track may have at the worst current
# a tile join's +5V or GND pin to its partner: two IDC contacts (20 mOhm each, the usual
# rating of a 2.54 mm IDC contact) and 100 mm of 28 AWG ribbon wire (0.21 ohm/m)
JOIN_PIN_OHM = 2 * 0.020 + 0.1 * 0.21
# the supply's connectors (J1 from controller J2, the second feed J4 from J6). The ribbons'
# ground pins also reach the controller's ground, but through thin wire and the controller's
# own copper: counted as no feed at all, the conservative side.
FEEDS = ("J1", "J4")
# The LED cable from the controller's J2 (or J6) to the cell board's J1 (J4), a conductor:
# 0.3 m of 18 AWG (the BOM's wire, 20.95 mohm/m) and two mated JST VH contacts (10 mohm
# each, the VH datasheet's initial maximum). Counted for the +5V and the GND conductor, the
# whole current through one cable (a second feed shares it: the conservative side).
CABLE_M = 0.3
AWG18_OHM_M = 0.02095
VH_CONTACT_OHM = 0.010
CABLE_CONDUCTOR_OHM = CABLE_M * AWG18_OHM_M + 2 * VH_CONTACT_OHM
JACK = ("J1", "1"), ("J1", "2")         # the controller's jack: centre pin (+), sleeve (GND)


class RailError(ValueError):
    pass


def sheet_ohm():
    """Ohm per square of the board's copper."""
    return power_budget.COPPER_OHM_M / (power_budget.COPPER_UM * 1e-6)


def track_ohm(x1, y1, x2, y2, width):
    return sheet_ohm() * max(math.hypot(x2 - x1, y2 - y1), 1e-3) / width


def via_ohm(drill_mm):
    barrel = math.pi * drill_mm * 1e-3 * PLATING_UM * 1e-6
    return power_budget.COPPER_OHM_M * BOARD_MM * 1e-3 / barrel


def ipc_amps(width_mm, rise_c=RISE_C, copper_um=power_budget.COPPER_UM):
    """IPC-2221's current for an outer-layer track of this width at this temperature rise."""
    return ipc2221.amps(width_mm, rise_c, copper_um)


def solve(n, edges, loads, fixed):
    """Drops of n nodes joined by `edges` [(a, b, ohm)] (or three arrays), with `loads` {node: amps
    drawn} and the `fixed` nodes at the supply (drop 0). Nodes with no path to a fixed node are
    NaN."""
    a, b, ohm = (np.asarray(c) for c in edges) if isinstance(edges, tuple) else np.array(edges).T
    a, b, g = a.astype(np.int64), b.astype(np.int64), 1.0 / ohm.astype(float)
    adj = coo_matrix((np.ones(len(a)), (a, b)), shape=(n, n))
    _, label = connected_components(adj, directed=False)
    fed = np.isin(label, np.unique(label[list(fixed)]))
    lap = coo_matrix((np.concatenate([-g, -g, g, g]),
                      (np.concatenate([a, b, a, b]), np.concatenate([b, a, a, b]))),
                     shape=(n, n)).tocsr()
    free = fed.copy()
    free[list(fixed)] = False
    idx = np.flatnonzero(free)
    rhs = np.zeros(n)
    for node, amps in loads.items():
        rhs[node] += amps
    v = np.full(n, np.nan)
    v[list(fixed)] = 0.0
    if len(idx):
        v[idx] = _solve_spd(lap[idx][:, idx], rhs[idx])
    return v


def _solve_spd(m, rhs):
    """A direct solve for the tracks of a net (tens of thousands of cells: well under a
    second); algebraic multigrid for a ground pour (a million cells: a direct solve takes
    minutes), checked: a result whose residual is more than 1e-6 of the load is refused."""
    if m.shape[0] < 200_000:
        return spsolve(m.tocsc(), rhs)
    m = m.tocsr()
    ml = pyamg.smoothed_aggregation_solver(m)
    x = ml.solve(rhs, tol=1e-8, accel="cg", maxiter=1000)
    residual = np.linalg.norm(m @ x - rhs) / max(np.linalg.norm(rhs), 1e-30)
    if residual > 1e-6:
        raise RailError(f"the solve did not converge (residual {residual:.1e} of the load)")
    return x


class Grid:
    """One net's copper on both layers as grid cells; node numbers for the solver."""

    def __init__(self, cu, pitch=PITCH):
        pts = [p for t in cu["tracks"] for p in (t[1:3], t[3:5])] + [v[:2] for v in cu["vias"]]
        pts += [p for pad in cu["pads"] for p in pad[3]] + [p for rings in cu["zones"].values()
                                                             for r in rings for p in r]
        if not pts:
            raise RailError("the net has no copper")
        xy = np.array(pts)
        self.x0, self.y0 = xy.min(axis=0) - 2
        self.pitch = pitch
        w, h = ((xy.max(axis=0) + 2 - (self.x0, self.y0)) / pitch).astype(int) + 1
        self.shape = (h, w)
        self.cu = cu = dict(cu, tracks=split(cu))
        self.mask = {ly: self._draw(ly) for ly in LAYERS}
        self.node = {}
        count = 0
        for ly in LAYERS:
            ids = np.full(self.shape, -1, dtype=np.int64)
            k = int(self.mask[ly].sum())
            ids[self.mask[ly]] = np.arange(count, count + k)
            self.node[ly] = ids
            count += k
        self.n = count

    def _px(self, x, y):
        return ((x - self.x0) / self.pitch, (y - self.y0) / self.pitch)

    def cell(self, x, y):
        px, py = self._px(x, y)
        return int(round(py)), int(round(px))

    def _draw(self, layer):
        img = Image.new("1", self.shape[::-1], 0)
        d = ImageDraw.Draw(img)
        for ring in self.cu["zones"].get(layer, []):
            d.polygon([self._px(*p) for p in ring], fill=1)
        for ly, x1, y1, x2, y2, wd in self.cu["tracks"]:
            if ly != layer:
                continue
            r = max(wd / 2 / self.pitch, 0.5)
            for x, y in ((x1, y1), (x2, y2)):      # the ends; the track between is a resistor
                cx, cy = self._px(x, y)
                d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=1)
                img.putpixel(self._px_int(x, y), 1)     # the cell its resistor joins, however small
        for _, _, layers, ring in self.cu["pads"]:
            if layer in layers:
                d.polygon([self._px(*p) for p in ring], fill=1)
        for x, y, _ in self.cu["vias"]:
            img.putpixel(self._px_int(x, y), 1)
        return np.array(img, dtype=bool)

    def _px_int(self, x, y):
        r, c = self.cell(x, y)
        return (c, r)

    def pad_nodes(self, pad):
        """The nodes under a pad (its outline's box, where there is copper)."""
        _, _, layers, ring = pad
        xy = np.array(ring)
        (r0, c0), (r1, c1) = self.cell(*xy.min(axis=0)), self.cell(*xy.max(axis=0))
        out = []
        for ly in layers:
            ids = self.node[ly][r0:r1 + 1, c0:c1 + 1]
            out += ids[ids >= 0].tolist()
        return out

    def edges(self):
        """(from, to, ohm) arrays: neighbouring cells, vias, plated holes."""
        grid_a, grid_b = [], []
        for ly in LAYERS:
            ids = self.node[ly]
            for a, b in ((ids[:, :-1], ids[:, 1:]), (ids[:-1, :], ids[1:, :])):
                both = (a >= 0) & (b >= 0)
                grid_a.append(a[both])
                grid_b.append(b[both])
        out = []
        f, b = self.node["F.Cu"], self.node["B.Cu"]
        for x, y, drill in self.cu["vias"]:
            r, c = self.cell(x, y)
            if f[r, c] >= 0 and b[r, c] >= 0:
                out.append((int(f[r, c]), int(b[r, c]), via_ohm(drill)))
        for pad in self.cu["pads"]:
            if len(pad[2]) == 2:                  # a plated hole joins the layers all round
                nodes = self.pad_nodes(pad)
                half = len(nodes) // 2
                out += [(i, j, via_ohm(1.0)) for i, j in zip(nodes[:half], nodes[half:])]
        for ly, x1, y1, x2, y2, wd in self.cu["tracks"]:
            i, j = self.node[ly][self.cell(x1, y1)], self.node[ly][self.cell(x2, y2)]
            if i != j:
                out.append((int(i), int(j), track_ohm(x1, y1, x2, y2, wd)))
        grid_a, grid_b = np.concatenate(grid_a), np.concatenate(grid_b)
        extra = np.array(out, dtype=float).reshape(-1, 3)
        return (np.concatenate([grid_a, extra[:, 0]]), np.concatenate([grid_b, extra[:, 1]]),
                np.concatenate([np.full(len(grid_a), sheet_ohm()), extra[:, 2]]))


def split(cu):
    """The tracks cut wherever a via, a pad's centre or another track's end lies on one between
    its ends (the router runs a track through a via), so each piece is one resistor."""
    from ..routing.route import _inside
    points = {ly: {(x, y) for x, y, _ in cu["vias"]} for ly in LAYERS}
    for t in cu["tracks"]:
        points[t[0]] |= {tuple(t[1:3]), tuple(t[3:5])}
    for _, _, layers, ring in cu["pads"]:
        c = tuple(np.round(np.mean(ring, axis=0), 4))
        for ly in layers:
            points[ly].add(c)
    out = []
    for ly, x1, y1, x2, y2, wd in cu["tracks"]:
        t = (None, None, x1, y1, x2, y2, None)
        cuts = sorted((p for p in points[ly] if _inside(*p, t)),
                      key=lambda p: math.hypot(p[0] - x1, p[1] - y1))
        pts = [(x1, y1)] + cuts + [(x2, y2)]
        out += [[ly, *a, *b, wd] for a, b in zip(pts, pts[1:])]
    return out


def measure(cu, led_ma, pitch=PITCH, joins=()):
    """Drops of one net at every LED and the worst track: {"drop_v", "worst_led",
    "track_a", "track_width", "track_ipc_a", "feeds"}. `led_ma`: each LED's current. `cu`
    is one board's copper or a list of tiles' (the results then a list); `joins` [(tile,
    ref, tile, ref)] are the tiles' join connectors, pin to pin through JOIN_PIN_OHM; the
    pads of FEEDS are held at the supply."""
    tiles = cu if isinstance(cu, list) else [cu]
    grids = [Grid(c, pitch) for c in tiles]
    base = np.cumsum([0] + [g.n for g in grids])
    loads, fixed, feeds, pins = _pads(tiles, grids, base, joins, led_ma)
    if not fixed:
        raise RailError("no connector pad feeds the net")
    parts = [tuple(np.asarray(e) + (base[t], base[t], 0)[i] for i, e in enumerate(g.edges()))
             for t, g in enumerate(grids)]
    wires = [(pins[(a, ra, num)], pins[(b, rb, num)], JOIN_PIN_OHM)
             for a, ra, b, rb in joins for (t, ref, num) in pins if (t, ref) == (a, ra)
             and (b, rb, num) in pins]
    wires = np.array(wires, dtype=float).reshape(-1, 3)
    edges = tuple(np.concatenate([p[i] for p in parts] + [wires[:, i]]) for i in range(3))
    v = solve(int(base[-1]), edges, loads, fixed)
    out = [_result(c, g, v[base[t]:base[t + 1]], feeds[t])
           for t, (c, g) in enumerate(zip(tiles, grids))]
    return out if isinstance(cu, list) else out[0]


def _pads(tiles, grids, base, joins, led_ma):
    """What each pad of the net is: an LED's load {node: amps}, a feed's nodes, the feeds'
    names per tile, a join pin's node {(tile, ref, pin): node}."""
    joined = {(t, ref) for a, ra, b, rb in joins for t, ref in ((a, ra), (b, rb))}
    loads, fixed, feeds, pins = {}, [], [], {}
    for t, (c, grid) in enumerate(zip(tiles, grids)):
        feeds.append([])
        for pad in c["pads"]:
            nodes = [base[t] + k for k in grid.pad_nodes(pad)]
            if (t, pad[0]) in joined:
                pins[(t, pad[0], pad[1])] = nodes[0]
            elif pad[0] in FEEDS:
                fixed += nodes
                feeds[t].append(f"{pad[0]}.{pad[1]}")
            elif pad[0].startswith("LED"):
                for k in nodes:
                    loads[k] = loads.get(k, 0.0) + led_ma / 1000 / len(nodes)
    return loads, fixed, feeds, pins


def _result(cu, grid, v, feeds):
    drops = {pad[0]: max(v[k] for k in grid.pad_nodes(pad)) for pad in cu["pads"]
             if pad[0].startswith("LED")}
    lost = sorted(r for r, d in drops.items() if np.isnan(d))
    if lost:
        raise RailError(f"LEDs with no copper path to a feed: {', '.join(lost[:5])}")
    worst = max(drops, key=drops.get)
    best_a, best_w = 0.0, 0.0
    for ly, x1, y1, x2, y2, wd in grid.cu["tracks"]:
        a, b = grid.node[ly][grid.cell(x1, y1)], grid.node[ly][grid.cell(x2, y2)]
        amps = abs(v[a] - v[b]) / track_ohm(x1, y1, x2, y2, wd)
        if amps > best_a:
            best_a, best_w = amps, wd
    return {"drop_v": float(drops[worst]), "worst_led": worst, "track_a": best_a,
            "track_width": best_w,
            "track_ipc_a": ipc_amps(best_w) if best_w else 0.0, "feeds": sorted(feeds)}


def copper(board, nets):
    """{net: its copper} as KiCad has it (hardware/kicad/copper.py under Debian's Python; the
    board loaded once for all the nets)."""
    r = subprocess.run([run.KICAD_PYTHON, os.path.join(run.HERE, "copper.py"), board, *nets],
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise RailError(f"hardware/kicad/copper.py {board} {' '.join(nets)} failed: "
                        f"{r.stderr.strip().splitlines()[-1:]}")
    return json.loads(r.stdout)


def led_ma(game, pm=None):
    """Each LED's current at the jack's budget, all white: the budget's figure over its LEDs."""
    from ..inputs import game_layouts
    boards = game_layouts.registry().firmware_boards()
    row = power_budget.board_budget(game, boards[game]["cells"], pm)
    return row["led_worst_jack_ma"] / row["leds"]


def board_game(name):
    """cellboard-knockoff-tile1 -> knockoff."""
    return name.removeprefix("cellboard-").split("-tile")[0]


def measure_game(game, pcb_dir, pm=None):
    """{board name: its figures} for a game's cell board, its tiles solved as one network."""
    from ..placement import tiles
    n = len(tiles.regions(game))
    names = [f"cellboard-{game}"] if n == 1 else [f"cellboard-{game}-tile{t + 1}" for t in range(n)]
    paths = [os.path.join(pcb_dir, f"{name}.kicad_pcb") for name in names]
    joins = [(k, tiles.join_ref(k, 0), k + 1, tiles.join_ref(k, 1)) for k in range(n - 1)]
    per = led_ma(game, pm)
    out = {name: {"hash": pcbs.board_hash(p), "led_ma": round(per, 2)}
           for name, p in zip(names, paths)}
    nets = (("+5V", PITCH), ("GND", GND_PITCH))
    cus = [copper(p, [net for net, _ in nets]) for p in paths]
    for net, pitch in nets:
        rows = measure([cu[net] for cu in cus], per, pitch, joins)
        for name, r in zip(names, rows):
            out[name][net] = {k: (round(float(x), 4) if isinstance(x, float) else x)
                              for k, x in r.items()}
    for r in out.values():
        r["drop_v"] = round(r["+5V"]["drop_v"] + r["GND"]["drop_v"], 4)
    return out


def net_drop(cu, enter, leave, amps, pitch=PITCH):
    """The worst drop of one net's copper carrying `amps` from the pads `enter` [(ref, pin)]
    (held at the supply) to the pads `leave`, all of it leaving by one part's pads at a time
    (spread over them), the worst part's; and that part."""
    grid = Grid(cu, pitch)
    pads = {(p[0], p[1]): p for p in cu["pads"]}
    fixed = [k for r in enter for k in grid.pad_nodes(pads[r])]
    worst = (0.0, None)
    for ref in sorted({r for r, _ in leave}):
        nodes = [k for r in leave if r[0] == ref for k in grid.pad_nodes(pads[r])]
        v = solve(grid.n, grid.edges(), {k: amps / len(nodes) for k in nodes}, fixed)
        drop = float(np.nanmax(v[nodes]))
        if np.isnan(v[nodes]).any():
            raise RailError(f"{ref} has no copper path from {enter}")
        worst = max(worst, (drop, ref), key=lambda w: w[0])
    return worst


def measure_controller(board, nl, amps):
    """The drops of the controller's copper at `amps` from the jack to the LED connectors
    (J2, J6), net by net along the LEDs' current (led_current.chain: +5V_IN, Q2's source
    tie, +5V_JACK, +5V) and back on GND: {net: {"drop_v", "to"}} and "drop_v" their sum.
    The parts between (Q2, F1) are not copper and not counted here."""
    from ..schematic import led_current
    out = {}
    nets = [c for pin in JACK for c in led_current.chain(nl, pin)]
    cus = copper(board, [n for n, _, _ in nets])
    for net, enter, leave in nets:
        drop, to = net_drop(cus[net], enter, leave, amps, GND_PITCH if net == "GND" else PITCH)
        out[net] = {"drop_v": round(drop, 4), "to": to}
    out["drop_v"] = round(sum(r["drop_v"] for r in out.values()), 4)
    return out


def cable_drop_v(amps):
    """The LED cable's drop, +5V and GND conductors, at `amps`."""
    return 2 * amps * CABLE_CONDUCTOR_OHM


def load(path=None):
    """The committed measurement (hardware/pcb/rails.json), or {}."""
    path = path or os.path.join(HARDWARE, "pcb", "rails.json")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


def game_amps(game, pm=None):
    """A game's LED current at the jack's budget, all white (A)."""
    from ..inputs import game_layouts
    boards = game_layouts.registry().firmware_boards()
    return power_budget.board_budget(game, boards[game]["cells"], pm)["led_worst_jack_ma"] / 1000


CONTROLLER = "controller"


def measure_controller_board(pcb_dir, pm=None):
    """rails.json's controller entry: its copper's drops at the largest game's current."""
    from ..inputs import game_layouts
    from ..schematic import netlist
    board = os.path.join(pcb_dir, f"{CONTROLLER}.kicad_pcb")
    nl = netlist.read_file(os.path.join(HARDWARE, "out", f"{CONTROLLER}.net"))
    amps = max(game_amps(g, pm) for g in game_layouts.game_names())
    return {"hash": pcbs.board_hash(board), "amps": round(amps, 4),
            **measure_controller(board, nl, amps)}


def totals(measured, pm=None):
    """Per game, the drop from the jack to the last LED at the game's current: the
    controller's copper (measured at its own current, scaled: the network is linear), the
    cable's, the cell board's (its worst tile): [(game, amps, controller, cable, cell, total)]."""
    ctl = measured[CONTROLLER]
    games = sorted({board_game(n) for n in measured if n != CONTROLLER})
    out = []
    for g in games:
        amps = game_amps(g, pm)
        c = ctl["drop_v"] * amps / ctl["amps"]
        cell = max(r["drop_v"] for n, r in measured.items() if n != CONTROLLER
                   and board_game(n) == g)
        out.append((g, amps, c, cable_drop_v(amps), cell, c + cable_drop_v(amps) + cell))
    return out


def markdown(measured):
    """The tables of build.md's power section."""
    out = ["| board | feeds | +5V drop | GND drop | together | most current in a track | "
           f"IPC-2221 for its width at {RISE_C} C rise |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for name, r in sorted((n, r) for n, r in measured.items() if n != CONTROLLER):
        t = max((r[n] for n in ("+5V", "GND")),
                key=lambda m: m["track_a"] / max(m["track_ipc_a"], 1e-9))
        feeds = sorted({f.split(".")[0] for f in r["+5V"]["feeds"]})
        out.append(f"| {name} | {', '.join(feeds)} | {r['+5V']['drop_v']:.2f} V | "
                   f"{r['GND']['drop_v']:.3f} V | **{r['drop_v']:.2f} V** | {t['track_a']:.2f} A "
                   f"({t['track_width']:g} mm) | {t['track_ipc_a']:.2f} A |")
    if CONTROLLER in measured:
        ctl = measured[CONTROLLER]
        nets = [n for n in ctl if isinstance(ctl[n], dict)]
        out += ["",
                f"The controller's copper at {ctl['amps']:.2f} A (the largest game's), net by net "
                "from the jack J1 to the farther LED connector and back: "
                + ", ".join(f"{n} {ctl[n]['drop_v'] * 1000:.0f} mV (to {ctl[n]['to']})"
                            for n in nets)
                + f"; together **{ctl['drop_v']:.3f} V**. From the jack to the last LED, each game "
                f"at its own current (the LED cable: {CABLE_M:g} m of 18 AWG and two VH contacts a "
                f"conductor, +5V and GND, {2 * CABLE_CONDUCTOR_OHM * 1000:.0f} mohm; the parts Q2 "
                "and F1 not counted):",
                "", "| game | LED current | controller copper | cable | cell board | **jack to "
                    f"last LED** | within {power_budget.MAX_RAIL_DROP_V} V |",
                "| --- | ---: | ---: | ---: | ---: | ---: | --- |"]
        out += [f"| {g} | {a:.2f} A | {c:.3f} V | {w:.3f} V | {cell:.3f} V | **{t:.2f} V** | "
                f"{'yes' if t <= power_budget.MAX_RAIL_DROP_V else 'NO'} |"
                for g, a, c, w, cell, t in totals(measured)]
    return "\n".join(out) + "\n"


def update(games, controller=False):
    """Measure these games' cell boards (and the controller) again into
    hardware/pcb/rails.json; all it holds."""
    pcb_dir = os.path.join(HARDWARE, "pcb")
    measured = load()
    for g in games:
        measured.update(measure_game(g, pcb_dir))
    if controller:
        measured[CONTROLLER] = measure_controller_board(pcb_dir)
    with open(os.path.join(pcb_dir, "rails.json"), "w") as f:
        json.dump(measured, f, indent=1, sort_keys=True)
        f.write("\n")
    return measured


def main(argv):
    """Measure every game's cell board and the controller and write hardware/pcb/rails.json
    (the build's power section reads it; `python3 -m hardware.build` does this itself for the
    boards it routes again): `python3 -m hardware.power.rails [GAME ... | controller]`."""
    from ..inputs import game_layouts
    games = [a for a in argv if a != CONTROLLER] if argv else game_layouts.game_names()
    bad = [g for g in games if g not in game_layouts.game_names()]
    if bad:
        raise SystemExit(f"unknown game {bad[0]}; one of {', '.join(game_layouts.game_names())}, "
                         f"{CONTROLLER}")
    print(markdown(update(games, controller=not argv or CONTROLLER in argv)), end="")


if __name__ == "__main__":
    main(sys.argv[1:])
