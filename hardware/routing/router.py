"""A two-layer grid maze router (A* over a 0.5 mm grid, orthogonal tracks, vias between
layers), the project's own, for the cell boards and the controller (hardware/placement/plan.py).

Why a grid keeps DRC clean by construction, with the rules of hardware/inputs/fab_rules.py:
- tracks run between grid points 0.5 mm apart; two tracks of different nets on neighbouring
  grid lines leave 0.5 - 0.25 = 0.25 mm >= 0.2 mm clearance;
- every pad blocks, for other nets, the grid points within PAD_HALO (0.36 mm) of its copper,
  so a track centre on a free point is >= 0.36 mm from foreign copper (>= 0.235 mm gap);
- a via (0.6 mm) or a wide track (the LEDs' current, 0.8 mm: hardware/schematic/led_current.py)
  needs the 3x3 points around it free of other nets and claims them: copper closer than the
  clearance to it lies within 0.4 + 0.2 = 0.6 mm of its centre line, so within 0.354 mm of one
  of those nine points (the farthest a point of that disc gets from them: the middle of one of
  their squares), which PAD_HALO forbids; another net's track keeps to the grid lines
  outside them, 1 mm from the centre line (0.475 mm of gap). A wide track leaves a pad whose
  grid points are that crowded (a fine-pitch chip's) by a neck (Grid.neck).

Nets are routed one connection at a time (each pad to the nearest copper of its net, Prim's
order), in a window around the two ends that widens on failure. A plane net (ground) is
routed from each pad to the nearest place a via may go, the via reaching the pour on B.Cu."""

import heapq
import math
from dataclasses import dataclass, field

import numpy as np
from scipy import ndimage
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from ..inputs import fab_rules, mechanics
from ..inputs.fab_rules import STEP_COST, G
from . import escape

PAD_HALO = 0.36               # see above
EDGE_HALO = fab_rules.EDGE_CLEARANCE + fab_rules.TRACK / 2
LAYERS = ("F.Cu", "B.Cu")
TURN_COST = 1
VIA_COST = 16
FREE, BLOCKED = 0, -1
KEEPOUT_MARGIN = 0.03           # mm: see Grid.add_hole
NO_COST = 1 << 30               # a search's cost of a state not reached


class RoutingError(RuntimeError):
    pass


@dataclass
class Route:
    tracks: list = field(default_factory=list)     # (net, layer, x1, y1, x2, y2, width)
    vias: list = field(default_factory=list)       # (net, x, y)
    failed: list = field(default_factory=list)     # (net, pad description)


class Grid:
    def __init__(self, width, height, nets, step_cost=STEP_COST):
        if not all(isinstance(c, int) and c > 0 for c in step_cost):
            # a search sums a move's step and turn first, and packs its heap entries as
            # ints (_packing): exact for whole costs of at least one
            raise RoutingError(f"step costs {step_cost}: positive whole numbers only")
        self.step_cost = step_cost
        self.nx, self.ny = int(width / G) + 1, int(height / G) + 1
        self.width, self.height = width, height
        self.owner = np.zeros((2, self.ny, self.nx), dtype=np.int32)
        # no via within one grid step of another, of any net: drills 0.5 mm apart at least
        self.near_via = np.zeros((self.ny, self.nx), dtype=bool)
        self.net_id = {n: i + 1 for i, n in enumerate(sorted(nets))}
        self.copper = {i: set() for i in self.net_id.values()}   # (layer, iy, ix) per net
        self.route = Route()
        self.pads = []                  # (pad, net id or BLOCKED, layer indices): for escape stubs
        self.holes = []                 # (x, y, radius kept free of copper)
        self.escapes = {}               # pad -> (its access cell, its stub's tracks)
        self.bodies = {}                # pad -> its part's centre (escape_all)
        self.necks = set()              # cells of necks (commit_neck)
        e = math.ceil(EDGE_HALO / G - 1e-9)
        self.owner[:, :e, :] = BLOCKED
        self.owner[:, -e:, :] = BLOCKED
        self.owner[:, :, :e] = BLOCKED
        self.owner[:, :, -e:] = BLOCKED

    # --- obstacles ---
    def _claim(self, layer, sl, mask, net):
        cur = self.owner[layer][sl]
        upd = np.where(cur == FREE, net, np.where(cur == net, net, BLOCKED))
        cur[mask] = upd[mask]

    def _rect_window(self, x0, y0, x1, y1, halo):
        ix0, iy0 = max(0, math.floor((x0 - halo) / G)), max(0, math.floor((y0 - halo) / G))
        ix1, iy1 = (min(self.nx - 1, math.ceil((x1 + halo) / G)),
                    min(self.ny - 1, math.ceil((y1 + halo) / G)))
        xs = np.arange(ix0, ix1 + 1) * G
        ys = np.arange(iy0, iy1 + 1) * G
        dx = np.maximum(0, np.maximum(x0 - xs, xs - x1))
        dy = np.maximum(0, np.maximum(y0 - ys, ys - y1))
        dist = np.hypot(dx[None, :], dy[:, None])
        return (slice(iy0, iy1 + 1), slice(ix0, ix1 + 1)), dist, (ix0, iy0)

    def add_pad(self, pad, net):
        """Block the pad's surroundings for other nets; return its access cells
        [(layer, iy, ix)] and, if it has none (a small pad off the grid), the stub it needs."""
        nid = self.net_id[net] if net else BLOCKED
        x0, y0, x1, y1 = pad.x - pad.w / 2, pad.y - pad.h / 2, pad.x + pad.w / 2, pad.y + pad.h / 2
        sl, dist, _ = self._rect_window(x0, y0, x1, y1, PAD_HALO)
        layers = [LAYERS.index(ly) for ly in pad.layers] or [0, 1]
        if pad.drill and len(layers) < 2:
            layers = [0, 1]
        for ly in layers:
            self._claim(ly, sl, dist <= PAD_HALO, nid)
        self.pads.append((pad, nid, layers))
        return layers

    def add_hole(self, x, y, d):
        """A mounting hole: blocked on both layers out to the screw head's and the standoff's
        keep-out (hardware/inputs/mechanics.py), so a track centre on a free point keeps its copper
        outside KEEPOUT_R; a step between two free points cuts the disc by at most
        r - sqrt(r^2 - (G/2)^2) = 0.01 mm, which KEEPOUT_MARGIN covers."""
        r = max(d / 2 + PAD_HALO + fab_rules.HOLE_CLEARANCE,
                mechanics.KEEPOUT_R + fab_rules.TRACK / 2 + KEEPOUT_MARGIN)
        sl, dist, _ = self._rect_window(x, y, x, y, r)
        self.holes.append((x, y, max(d / 2 + fab_rules.HOLE_CLEARANCE,
                                     mechanics.KEEPOUT_R + KEEPOUT_MARGIN)))
        for ly in (0, 1):
            self.owner[ly][sl][dist <= r] = BLOCKED

    def block_rect(self, x0, y0, x1, y1, layers=(0, 1)):
        sl, dist, _ = self._rect_window(x0, y0, x1, y1, PAD_HALO)
        for ly in layers:
            self.owner[ly][sl][dist <= PAD_HALO] = BLOCKED

    def access(self, pad, net, layers):
        """Grid cells whose centre lies on the pad's copper (track ends there touch the pad),
        free for its net; or the nearest free cell and a stub track to the pad's centre."""
        nid = self.net_id[net]
        x0, y0, x1, y1 = pad.x - pad.w / 2, pad.y - pad.h / 2, pad.x + pad.w / 2, pad.y + pad.h / 2
        ix0, ix1 = math.ceil(x0 / G - 1e-9), math.floor(x1 / G + 1e-9)
        iy0, iy1 = math.ceil(y0 / G - 1e-9), math.floor(y1 / G + 1e-9)
        cells = [(ly, iy, ix) for ly in layers for iy in range(iy0, iy1 + 1)
                 for ix in range(ix0, ix1 + 1)
                 if 0 <= iy < self.ny and 0 <= ix < self.nx and self.owner[ly, iy, ix] == nid
                 and pad.covers(ix * G, iy * G)]
        if cells:
            return cells, []
        ix, iy = round(pad.x / G), round(pad.y / G)
        for ly in layers:
            if self.owner[ly, iy, ix] == nid:
                return [(ly, iy, ix)], [(net, LAYERS[ly], ix * G, iy * G, pad.x, pad.y,
                                         fab_rules.TRACK)]
        if pad in self.escapes:
            cell, line = self.escapes[pad]
            return [cell], [(net, LAYERS[cell[0]], *a, *b, fab_rules.TRACK)
                            for a, b in escape.segments(line)]
        return [], []

    def escape_all(self, terminals):
        """Give every pad of `terminals` [(pad, net, layers, its part's centre)] that no grid point
        reaches an escape stub (hardware/routing/escape.py) to the nearest grid point its net may
        use, and keep other nets off the grid points near the stub. Run after every pad is added and
        before any routing. Returns the pads left without access."""
        taken = {}                       # every pad's access cells: (layer, iy, ix) -> net id
        lost = []
        for pad, net, layers, body in terminals:
            self.bodies[pad] = body
            cells, _ = self.access(pad, net, layers)
            taken.update({c: self.net_id[net] for c in cells})
            if not cells:
                lost.append((pad, net, layers, body))
        stubs = []                       # (net id, layer, polyline)
        left = []
        for pad, net, layers, body in lost:
            nid = self.net_id[net]
            for ly in layers:
                line = self._stub(pad, body, nid, ly, taken, stubs)
                if line:
                    end = (ly, round(line[-1][1] / G), round(line[-1][0] / G))
                    stubs.append((nid, ly, line))
                    self.escapes[pad] = (end, line)
                    taken[end] = nid
                    break
            else:
                left.append(pad)
        return left

    def _near(self, line, ly, halo):
        """The window, mask and distances of the grid points within `halo` of a polyline."""
        xs, ys = [p[0] for p in line], [p[1] for p in line]
        sl, _, (ix0, iy0) = self._rect_window(min(xs), min(ys), max(xs), max(ys), halo)
        gy, gx = np.mgrid[sl[0], sl[1]]
        d = np.full(gx.shape, np.inf)
        for (ax, ay), (bx, by) in escape.segments(line):
            vx, vy = bx - ax, by - ay
            n = vx * vx + vy * vy or 1.0
            t = np.clip(((gx * G - ax) * vx + (gy * G - ay) * vy) / n, 0, 1)
            d = np.minimum(d, np.hypot(gx * G - ax - t * vx, gy * G - ay - t * vy))
        return sl, d <= halo, gy, gx

    def _stub(self, pad, body, nid, ly, taken, stubs):
        """The shortest clear stub of `pad` on layer ly, claimed for its net; or None."""
        reach = escape.REACH
        sl, _, (ix0, iy0) = self._rect_window(pad.x, pad.y, pad.x, pad.y, reach)
        own = self.owner[ly][sl]
        iys, ixs = np.nonzero((own == FREE) | (own == nid))
        points = [((ix0 + i) * G, (iy0 + j) * G) for j, i in zip(iys.tolist(), ixs.tolist())]
        rects = [escape.pad_rect(p) for p, n, lys in self.pads
                 if n != nid and ly in lys and abs(p.x - pad.x) < reach + 3
                 and abs(p.y - pad.y) < reach + 3]
        others = [line for n, sly, line in stubs if n != nid and sly == ly]
        claim = PAD_HALO + fab_rules.TRACK / 2

        def ok(line):
            if not escape.clear(line, rects, self.holes, others):
                return False
            sl2, near, gy, gx = self._near(line, ly, claim)
            return not any(taken.get((ly, y, x), nid) != nid
                           for y, x in zip(gy[near].tolist(), gx[near].tolist()))
        line = escape.shortest(pad, escape.outward(pad, body, points), ok)
        if line:
            sl2, near, _, _ = self._near(line, ly, claim)
            self._claim(ly, sl2, near, nid)
        return line

    # --- search ---
    def _window(self, cells, margin):
        iys = [c[1] for c in cells]
        ixs = [c[2] for c in cells]
        m = int(margin / G)
        return (max(0, min(iys) - m), min(self.ny, max(iys) + m + 1),
                max(0, min(ixs) - m), min(self.nx, max(ixs) + m + 1))

    def _masks(self, nid, win, wide):
        y0, y1, x0, x1 = win
        own = self.owner[:, y0:y1, x0:x1]
        bad = (own != FREE) & (own != nid)
        pad = np.pad(bad, ((0, 0), (1, 1), (1, 1)), constant_values=True)
        grown = np.zeros_like(bad)
        for dy in (0, 1, 2):
            for dx in (0, 1, 2):
                grown |= pad[:, dy:dy + y1 - y0, dx:dx + x1 - x0]
        via_ok = ~(grown[0] | grown[1] | self.near_via[y0:y1, x0:x1])
        passable = ~grown if wide else ~bad
        return passable, via_ok

    def search(self, net, sources, goals, margin, wide=False, plane=False, all_goals=()):
        """Cheapest path [(layer, iy, ix)] from any source cell to any goal cell (to any
        place a via may go if plane); None if there is none in the window, which spans the
        sources and `goals` plus `margin`; every cell of `all_goals` inside it ends the path
        too (a path never runs through its own net's copper)."""
        nid = self.net_id[net]
        pts = list(sources) + list(goals)
        win = self._window(pts, margin)
        goals = list(goals) + list(all_goals)
        passable, via_ok = self._masks(nid, win, wide)
        search = _PathSearch(win, passable, via_ok, self.step_cost, plane)
        return search.run(sources, goals)

    # --- the ground pour's pieces ---
    def pieces(self, net, links):
        """The pieces of `net`'s copper as KiCad will fill its pour on B.Cu, on the grid: an
        array giving each grid cell (layer, iy, ix) the number of its piece (0: none). On
        B.Cu a piece spans the points no other net claims, joined to its four neighbours
        (between two other nets' tracks two grid lines apart the pour still fills a strip
        wider than its minimum; it never passes between two diagonal points); on F.Cu only
        the net's own tracks and pads; the layers join at `links` [(iy, ix)]: its vias and
        through-hole pads. A piece of the pour that bottom tracks of other nets enclose is
        connected to nothing else: a ground pad whose via lands there is left unconnected."""
        nid = self.net_id[net]
        ok = np.zeros(self.owner.shape, dtype=bool)
        ok[1] = (self.owner[1] == FREE) | (self.owner[1] == nid)
        for ly, iy, ix in self.copper[nid]:
            ok[ly, iy, ix] = True
        # each layer's pieces (scipy: a flood fill in Python took over a second a pass), one
        # number for all of them, then joined where a link's cell is on a piece of each layer
        part = np.zeros(self.owner.shape, dtype=np.int64)
        count = 0
        for ly in (0, 1):
            lab, k = ndimage.label(ok[ly])          # four neighbours
            part[ly] = np.where(lab > 0, lab + count, 0)
            count += k
        at = np.array(sorted(links), dtype=np.int64).reshape(-1, 2)
        top, bottom = part[0][at[:, 0], at[:, 1]], part[1][at[:, 0], at[:, 1]]
        both = (top > 0) & (bottom > 0)
        _, joined = connected_components(
            coo_matrix((np.ones(int(both.sum())), (top[both], bottom[both])),
                       shape=(count + 1, count + 1)), directed=False)
        # numbered in the order of each piece's first cell in (layer, iy, ix), as a flood fill
        # from each cell not yet reached, in that order, numbers them
        cells = np.flatnonzero(ok)
        piece = joined[part.ravel()[cells]]
        found, first = np.unique(piece, return_index=True)
        number = np.zeros(len(joined), dtype=np.int32)
        number[found[np.argsort(first)]] = np.arange(1, len(found) + 1, dtype=np.int32)
        label = np.zeros(self.owner.shape, dtype=np.int32)
        label.ravel()[cells] = number[piece]
        return label

    # --- necks: a wide net's narrow way out of a crowded pad ---
    def neck(self, net, pad, cells, max_steps):
        """The shortest narrow path [(layer, iy, ix)] from the pad's access `cells` to a grid
        point a wide track may start from (no other net's claim in its 3x3: Grid.crowded),
        on the pad's layer, clear of the net's other pads (a neck serves one pad); at most
        `max_steps` grid steps, of the points that near, the one farthest from the pad's part
        (outward). None if there is none. (A pad with such a point on it needs no neck.)"""
        nid = self.net_id[net]
        body = self.bodies.get(pad, (pad.x, pad.y))
        others = [escape.pad_rect(p) for p, n, _ in self.pads
                  if n == nid and p is not pad and abs(p.x - pad.x) < 6 and abs(p.y - pad.y) < 6]

        def free(c):
            ly, iy, ix = c
            if not (0 <= iy < self.ny and 0 <= ix < self.nx) or self.owner[c] not in (FREE, nid):
                return False
            x, y = ix * G, iy * G
            return all(math.hypot(max(x0 - x, 0, x - x1), max(y0 - y, 0, y - y1))
                       > fab_rules.TRACK / 2 + 0.01
                       for x0, y0, x1, y1 in others)

        def outward(c):
            return -math.hypot(c[2] * G - body[0], c[1] * G - body[1])
        level = list(cells)
        before = {c: None for c in cells}
        for _ in range(max_steps + 1):
            ends = [c for c in level if not self.crowded(c, net)]
            if ends:
                path = [min(ends, key=outward)]
                while before[path[-1]] is not None:
                    path.append(before[path[-1]])
                return path[::-1]
            nxt = []
            for ly, iy, ix in level:
                for c in ((ly, iy, ix + 1), (ly, iy, ix - 1), (ly, iy + 1, ix), (ly, iy - 1, ix)):
                    if c not in before and free(c):
                        before[c] = (ly, iy, ix)
                        nxt.append(c)
            level = nxt
        return None

    def fence(self, net, keep):
        """Close to `net` its own grid points on or near its pads other than `keep` (their
        PAD_HALO) and on its necks, for a branch's search: a branch that ran over a pad of the
        LEDs' way would join it beside its wide copper. Returns what to pass to unfence."""
        nid = self.net_id[net]
        shut = {c for c in self.necks if self.owner[c] == nid}
        for pad, n, layers in self.pads:
            if n != nid or pad is keep:
                continue
            sl, dist, (ix0, iy0) = self._rect_window(pad.x - pad.w / 2, pad.y - pad.h / 2,
                                                     pad.x + pad.w / 2, pad.y + pad.h / 2, PAD_HALO)
            for ly in layers:
                for iy, ix in np.argwhere((dist <= PAD_HALO)
                                          & (self.owner[ly][sl] == nid)).tolist():
                    shut.add((ly, iy0 + iy, ix0 + ix))
        shut -= {c for c in self.escapes.get(keep, ((),))[:1]}
        for c in shut:
            self.owner[c] = BLOCKED
        return nid, shut

    def unfence(self, fenced):
        nid, shut = fenced
        for c in shut:
            self.owner[c] = nid

    def commit_neck(self, net, path):
        """Draw a neck (Grid.neck) as a normal track; its end's 3x3 is claimed as a wide
        track's would be, for the wide track that leaves from it."""
        nid = self.net_id[net]
        for c in path:
            self.owner[c] = nid
            self.copper[nid].add(c)
        self.necks.update(path[:-1])
        ly, iy, ix = path[-1]
        sl = self.owner[ly, max(0, iy - 1):iy + 2, max(0, ix - 1):ix + 2]
        sl[(sl == FREE) | (sl == nid)] = nid
        self._emit(net, path, fab_rules.TRACK)

    # --- committing a path ---
    def crowded(self, cell, net):
        """Whether another net's copper claims a grid point around `cell` (its 3x3): a wide
        track centred there would come closer to it than the clearance."""
        ly, iy, ix = cell
        around = self.owner[ly, max(0, iy - 1):iy + 2, max(0, ix - 1):ix + 2]
        return bool(((around != FREE) & (around != self.net_id[net])).any())

    def commit(self, net, path, width, wide=False):
        nid = self.net_id[net]
        if wide and len(path) > 1 and path[0][0] == path[1][0] and self.crowded(path[0], net):
            # A wide path checks every cell it moves to, not the one it starts from: a pad
            # between close neighbours (the LTC4365's 0.65 mm pitch). Its first step narrows
            # to a normal track (a neck-down, as boards do at fine-pitch pads); the next cell
            # is clear for the wide track.
            self.owner[path[0]] = nid
            self.copper[nid].add(path[0])
            self._emit(net, path[:2], fab_rules.TRACK)
            path = path[1:]
        for ly, iy, ix in path:
            if wide:
                sl = self.owner[ly, max(0, iy - 1):iy + 2, max(0, ix - 1):ix + 2]
                sl[(sl == FREE) | (sl == nid)] = nid
            self.owner[ly, iy, ix] = nid
            self.copper[nid].add((ly, iy, ix))
        run = [path[0]]
        for a, b in zip(path, path[1:]):
            if a[0] != b[0]:                           # a via
                self._emit(net, run, width)
                self.route.vias.append((net, a[2] * G, a[1] * G))
                self.near_via[max(0, a[1] - 1):a[1] + 2, max(0, a[2] - 1):a[2] + 2] = True
                for ly in (0, 1):
                    sl = self.owner[ly, max(0, a[1] - 1):a[1] + 2, max(0, a[2] - 1):a[2] + 2]
                    sl[(sl == FREE) | (sl == nid)] = nid
                run = [b]
            else:
                run.append(b)
        self._emit(net, run, width)

    def _emit(self, net, run, width):
        if len(run) < 2:
            return
        pts = [run[0]]
        for a, b, c in zip(run, run[1:], run[2:]):
            if (b[1] - a[1], b[2] - a[2]) != (c[1] - b[1], c[2] - b[2]):
                pts.append(b)
        pts.append(run[-1])
        ly = LAYERS[run[0][0]]
        for a, b in zip(pts, pts[1:]):
            self.route.tracks.append((net, ly, a[2] * G, a[1] * G, b[2] * G, b[1] * G, width))

    def plane_via(self, net, cell):
        """A via at `cell` (layer 0) reaching the plane."""
        nid = self.net_id[net]
        ly, iy, ix = cell
        self.route.vias.append((net, ix * G, iy * G))
        for l2 in (0, 1):
            sl = self.owner[l2, max(0, iy - 1):iy + 2, max(0, ix - 1):ix + 2]
            sl[(sl == FREE) | (sl == nid)] = nid
            self.copper[nid].add((l2, iy, ix))


class _PathSearch:
    """One A* search of Grid.search over a window of the grid. A search state is a cell and
    the direction it was entered by (4: none, or a via), kept as one int, cell * 5 +
    direction: int keys hash and compare faster than tuples, and order the heap as
    (cell, direction) pairs did, so routes are unchanged.

    The window is held with a border of one blocked cell round each layer, so a move needs
    no test of the window's edge. A cell's index, layer * w * h + iy * w + ix in the bordered
    window, grows with (layer, iy, ix) as the unbordered index did, so the heap's ties, broken
    on the state, fall as before. Its entries (priority, cost, state) are never equal (a
    state is pushed again only at a lower cost), so the states come off it in one order,
    whatever the work done between: the searches are the same, move for move."""

    def __init__(self, win, passable, via_ok, step_cost, plane):
        self.y0, self.y1, self.x0, self.x1 = win
        self.w, self.h = self.x1 - self.x0 + 2, self.y1 - self.y0 + 2
        self.size = self.w * self.h
        # indexed by a cell of either layer: lists, as indexing a numpy array from Python
        # costs several times a list's
        self.passable = np.pad(passable, ((0, 0), (1, 1), (1, 1))).ravel().tolist()
        self.vok = np.pad(via_ok, 1).ravel().tolist() * 2
        self.step_cost, self.plane = step_cost, plane
        # best cost and the state it was reached from, per state: lists beat a dict's
        # lookups, and even a window of a whole board (KNOCKabout's: 6.3 million states)
        # allocates in tens of ms
        self.best = [NO_COST] * (2 * self.size * 5)
        self.prev = [-1] * (2 * self.size * 5)
        self.heap = []

    def _index(self, ly, iy, ix):
        """The bordered window's index of grid cell (ly, iy, ix), or None outside the window."""
        if self.y0 <= iy < self.y1 and self.x0 <= ix < self.x1:
            return (ly * self.h + iy - self.y0 + 1) * self.w + ix - self.x0 + 1
        return None

    def _targets(self, goals):
        """Per cell, whether the search ends there (a goal cell; any cell of layer 1 for a
        plane search), and the estimate of each cell's cost to go (Grid.search's heuristic)."""
        ends = bytearray(2 * self.size)
        if self.plane:
            ends[self.size:] = b"\1" * self.size
        y0, y1, x0, x1 = self.y0, self.y1, self.x0, self.x1
        goal = {(ly, iy - y0, ix - x0) for ly, iy, ix in goals    # a net's copper: thousands
                if y0 <= iy < y1 and x0 <= ix < x1}
        for ly, iy, ix in goal:
            if not self.plane:
                ends[(ly * self.h + iy + 1) * self.w + ix + 1] = 1
        # aimed at the goals' centre, in the unbordered window's coordinates: the same floats
        # as an estimate worked out per move (numpy's doubles are Python's floats)
        tx = sum(g[2] for g in goal) / len(goal) if goal else 0
        ty = sum(g[1] for g in goal) / len(goal) if goal else 0
        hw = 0 if self.plane else 2
        xs = np.abs(np.arange(-1, self.w - 1) - tx)
        ys = np.abs(np.arange(-1, self.h - 1) - ty)
        return ends, (hw * (xs[None, :] + ys[:, None])).ravel().tolist() * 2

    def _start(self, sources):
        for s in (self._index(*c) for c in sources):
            if s is not None:
                self.best[s * 5 + 4] = 0
                heapq.heappush(self.heap, s * 5 + 4)     # estimate 0, cost 0

    def _path(self, key):
        """The cells [(layer, iy, ix)] from a start to the state `key`."""
        path = []
        while key >= 0:
            l2, r2 = divmod(key // 5, self.size)
            path.append((l2, r2 // self.w - 1 + self.y0, r2 % self.w - 1 + self.x0))
            key = self.prev[key]
        return path[::-1]

    def run(self, sources, goals):
        """The cheapest path from any of `sources` to any of `goals` (see Grid.search)."""
        ends, estimate = self._targets(goals)
        self._start(sources)
        w, size = self.w, self.size
        best, prev, heap = self.best, self.prev, self.heap
        passable, vok = self.passable, self.vok
        # per layer and direction a state was entered by (ly * 5 + d), its moves: (cell
        # index step, state step, cost: the layer's step and the turn's)
        moves = [tuple((off, off * 5 + nd - d, step + (TURN_COST if d != 4 and d != nd else 0))
                       for nd, off in enumerate((1, -1, w, -w)))
                 for step in self.step_cost for d in range(5)]
        # the bordered window's index steps to the cells around a cell (_via_just_before)
        around = frozenset(dy * w + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1))
        push, pop = heapq.heappush, heapq.heappop
        kb, kmask, cmask, fshift, scale = _packing(size)     # entries as one int each
        while heap:
            e = pop(heap)
            key, cost = e & kmask, e >> kb & cmask
            if best[key] < cost:
                continue
            s, d = divmod(key, 5)
            if ends[s]:
                return self._path(key)
            ly = 1 if s >= size else 0
            for off, dk, add in moves[ly * 5 + d]:
                n = s + off
                if passable[n]:
                    c = cost + add
                    k = key + dk
                    if c < best[k]:
                        best[k] = c
                        prev[k] = key
                        push(heap, int((c + estimate[n]) * scale) << fshift | c << kb | k)
            n = s - size if ly else s + size          # the same cell on the other layer
            if vok[s] and passable[n]:
                c = cost + VIA_COST
                k = n * 5 + 4
                if c < best[k] and not _via_just_before(prev, key, s, size, around):
                    best[k] = c
                    prev[k] = key
                    push(heap, int((c + estimate[n]) * scale) << fshift | c << kb | k)
        return None


def _packing(size):
    """How run() packs a heap entry (priority, cost, state), the priority being the cost plus
    the estimate, into one int: priority * 2**52 << (30 + kb) | cost << kb | state, kb the
    bits of the window's largest state. The heap orders the ints as it ordered the tuples
    and compares them faster (an eighth off a search). Exact: a cost is a whole number below
    NO_COST, every state but a start (priority 0) costs at least one step (>= 1), and a
    double >= 1 times 2**52 is a whole number. Returns (kb, the state's mask, the cost's
    mask, the priority's shift, 2.0 ** 52)."""
    kb = (2 * size * 5).bit_length()
    return kb, (1 << kb) - 1, NO_COST - 1, kb + 30, float(1 << 52)


def _via_just_before(prev, key, s, size, around):
    """Whether the path to state `key` (at cell s of a bordered window, size cells a layer)
    changed layers within one grid step of it in its last three moves: no second via that
    near (near_via guards only the vias of paths already committed). `around`: the index
    steps to a cell's 3x3; the path's cells lie inside the border, so no step wraps a row."""
    here = s % size
    at, layer = key, s // size
    for _ in range(3):
        before = prev[at]
        if before < 0:
            return False
        bs = before // 5
        if bs // size != layer and bs % size - here in around:
            return True
        at, layer = before, bs // size
    return False
