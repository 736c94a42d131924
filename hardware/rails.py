"""The supply rails of a routed board, measured from its copper: the voltage drop at every
LED and the current in every track of +5V and GND, at the jack's LED budget.

The board's copper of one net (tracks, vias, pads and the filled pours, as KiCad has them:
hardware/pcb_copper.py) is drawn on a square grid of PITCH mm per layer; every copper cell is
a node, two neighbouring cells of a layer are joined by one square of 1 oz copper (its sheet
resistance, whatever the cells' size), a via or a through-hole pad joins the two layers.
Each LED draws its share of the budget at its pad; the connector pads (J1, the second feed
J4, a tile's join) are held at the supply's voltage. The sparse solve gives every node's
drop. A pour is cut to whole cells (its edges lose up to a cell: the grid errs high); a
track inside its own net's pour counts twice (the fill covers it too), a strip of its width
beside the pour's.

    python3 -m hardware.rails [BOARD.kicad_pcb ...]    # the table, every board by default
"""

import json
import math
import os
import subprocess
import sys

import numpy as np
from PIL import Image, ImageDraw
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.sparse.linalg import spsolve

import pyamg

from . import budget, pcb

PITCH = 0.1                     # mm a grid cell: at 0.2 a track end may miss its pad
PLATING_UM = 18                 # via barrel copper (JLCPCB: 18 um minimum in the hole)
BOARD_MM = 1.6
LAYERS = ("F.Cu", "B.Cu")
IPC_K_EXTERNAL = 0.048          # IPC-2221: I = k dT^0.44 A^0.725, A in mil^2, outer layer
RISE_C = 10                     # the temperature rise a track may have at the worst current
MIL = 0.0254
# a tile join's +5V or GND pin to its partner: two IDC contacts (20 mOhm each, the usual
# rating of a 2.54 mm IDC contact) and 100 mm of 28 AWG ribbon wire (0.21 ohm/m)
JOIN_PIN_OHM = 2 * 0.020 + 0.1 * 0.21


class RailError(ValueError):
    pass


def sheet_ohm():
    """Ohm per square of the board's copper."""
    return budget.COPPER_OHM_M / (budget.COPPER_UM * 1e-6)


def track_ohm(x1, y1, x2, y2, width):
    return sheet_ohm() * max(math.hypot(x2 - x1, y2 - y1), 1e-3) / width


def via_ohm(drill_mm):
    barrel = math.pi * drill_mm * 1e-3 * PLATING_UM * 1e-6
    return budget.COPPER_OHM_M * BOARD_MM * 1e-3 / barrel


def ipc_amps(width_mm, rise_c=RISE_C, copper_um=budget.COPPER_UM):
    """IPC-2221's current for an outer-layer track of this width at this temperature rise."""
    area_mil2 = (width_mm / MIL) * (copper_um / 1000 / MIL)
    return IPC_K_EXTERNAL * rise_c ** 0.44 * area_mil2 ** 0.725


def solve(n, edges, loads, fixed):
    """Drops of n nodes joined by `edges` [(a, b, ohm)] (or three arrays), with `loads` {node: amps drawn} and
    the `fixed` nodes at the supply (drop 0). Nodes with no path to a fixed node are NaN."""
    a, b, ohm = (np.asarray(c) for c in edges) if isinstance(edges, tuple) else np.array(edges).T
    a, b, g = a.astype(np.int64), b.astype(np.int64), 1.0 / ohm.astype(float)
    adj = coo_matrix((np.ones(len(a)), (a, b)), shape=(n, n))
    _, label = connected_components(adj, directed=False)
    fed = np.isin(label, np.unique(label[list(fixed)]))
    lap = coo_matrix((np.concatenate([-g, -g, g, g]),
                      (np.concatenate([a, b, a, b]), np.concatenate([b, a, a, b]))), shape=(n, n)).tocsr()
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
    """A direct solve for a small network; algebraic multigrid for a board's pour (a million
    cells: a direct solve takes minutes, multigrid a few seconds), to 1e-10 of the load."""
    if m.shape[0] < 20000:
        return spsolve(m.tocsc(), rhs)
    ml = pyamg.smoothed_aggregation_solver(m.tocsr())
    return ml.solve(rhs, tol=1e-10, accel="cg", maxiter=500)


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
    from .pcb_plan import _inside
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
        cuts = sorted((p for p in points[ly] if _inside(*p, t)), key=lambda p: math.hypot(p[0] - x1, p[1] - y1))
        pts = [(x1, y1)] + cuts + [(x2, y2)]
        out += [[ly, *a, *b, wd] for a, b in zip(pts, pts[1:])]
    return out


def measure(cu, led_ma, pitch=PITCH, joins=()):
    """Drops of one net at every LED and the worst track: {"drop_v", "worst_led",
    "track_a", "track_width", "track_ipc_a", "feeds"}. `led_ma`: each LED's current. `cu`
    is one board's copper or a list of tiles' (the results then a list); `joins` [(tile,
    ref, tile, ref)] are the tiles' join connectors, pin to pin through JOIN_PIN_OHM; every
    other connector pad of the net is a feed."""
    tiles = cu if isinstance(cu, list) else [cu]
    grids = [Grid(c, pitch) for c in tiles]
    base = np.cumsum([0] + [g.n for g in grids])
    joined = {(t, ref) for a, ra, b, rb in joins for t, ref in ((a, ra), (b, rb))}
    loads, fixed, feeds, pins = {}, [], [], {}
    for t, (c, grid) in enumerate(zip(tiles, grids)):
        feeds.append([])
        for pad in c["pads"]:
            nodes = [base[t] + k for k in grid.pad_nodes(pad)]
            if (t, pad[0]) in joined:
                pins[(t, pad[0], pad[1])] = nodes[0]
            elif pad[0].startswith("J"):
                fixed += nodes
                feeds[t].append(f"{pad[0]}.{pad[1]}")
            elif pad[0].startswith("LED"):
                for k in nodes:
                    loads[k] = loads.get(k, 0.0) + led_ma / 1000 / len(nodes)
    if not fixed:
        raise RailError("no connector pad feeds the net")
    parts = [tuple(np.asarray(e) + (base[t], base[t], 0)[i] for i, e in enumerate(g.edges()))
             for t, g in enumerate(grids)]
    wires = [(pins[(a, ra, num)], pins[(b, rb, num)], JOIN_PIN_OHM)
             for a, ra, b, rb in joins for (t, ref, num) in pins if (t, ref) == (a, ra) and (b, rb, num) in pins]
    wires = np.array(wires, dtype=float).reshape(-1, 3)
    edges = tuple(np.concatenate([p[i] for p in parts] + [wires[:, i]]) for i in range(3))
    v = solve(int(base[-1]), edges, loads, fixed)
    out = [_result(c, g, v[base[t]:base[t + 1]], feeds[t]) for t, (c, g) in enumerate(zip(tiles, grids))]
    return out if isinstance(cu, list) else out[0]


def _result(cu, grid, v, feeds):
    drops = {pad[0]: max(v[k] for k in grid.pad_nodes(pad)) for pad in cu["pads"] if pad[0].startswith("LED")}
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
    return {"drop_v": float(drops[worst]), "worst_led": worst, "track_a": best_a, "track_width": best_w,
            "track_ipc_a": ipc_amps(best_w) if best_w else 0.0, "feeds": sorted(feeds)}


def copper(board, net):
    """The net's copper as KiCad has it (hardware/pcb_copper.py under Debian's Python)."""
    r = subprocess.run([pcb.KICAD_PYTHON, os.path.join(pcb.HERE, "pcb_copper.py"), board, net],
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise RailError(f"pcb_copper.py {board} {net} failed: {r.stderr.strip().splitlines()[-1:]}")
    return json.loads(r.stdout)


def led_ma(game, pm=None):
    """Each LED's current at the jack's budget, all white: the budget's figure over its LEDs."""
    from . import cellboard
    boards = cellboard.registry().firmware_boards()
    row = budget.board_budget(game, boards[game]["cells"], pm)
    return row["led_worst_jack_ma"] / row["leds"]


def board_game(name):
    """cellboard-knockoff-tile1 -> knockoff."""
    return name.removeprefix("cellboard-").split("-tile")[0]


def report(path):
    name = os.path.splitext(os.path.basename(path))[0]
    per = led_ma(board_game(name))
    out = {"board": name, "led_ma": round(per, 2)}
    for net in ("+5V", "GND"):
        out[net] = measure(copper(path, net), per)
    out["drop_v"] = out["+5V"]["drop_v"] + out["GND"]["drop_v"]
    return out


def main(argv):
    paths = argv or sorted(os.path.join(pcb.PCB_DIR, f) for f in os.listdir(pcb.PCB_DIR)
                           if f.startswith("cellboard") and f.endswith(".kicad_pcb"))
    print("| board | feeds | +5V drop | GND drop | together | most current in a track (width) | IPC-2221 at "
          f"{RISE_C} C rise |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for p in paths:
        r = report(p)
        t = max((r[n] for n in ("+5V", "GND")), key=lambda m: m["track_a"] / max(m["track_ipc_a"], 1e-9))
        print(f"| {r['board']} | {', '.join(r['+5V']['feeds'])} | {r['+5V']['drop_v']:.2f} V | "
              f"{r['GND']['drop_v']:.2f} V | {r['drop_v']:.2f} V | {t['track_a']:.2f} A ({t['track_width']} mm) | "
              f"{t['track_ipc_a']:.2f} A |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
