"""A placed plan routed net by net (hardware/routing/router.py on a grid), in an order and
with windows tried in turn; ground joined through the pour; tracks split at their tees so
KiCad sees every junction at a track's end."""

import math

import numpy as np

from ..inputs import fab_rules
from ..placement.plan import GROUND
from ..schematic import led_current
from . import router

MARGINS = (4.0, 15.0, 60.0, 150.0)     # routing windows (mm around the two ends) tried in turn


def _order(net, wide, wide_last=False):
    """Routing order: ground vias, the short nets of each cell, the LEDs' supply (`wide`),
    the long rows and columns last (they have the most room to go around); or, `wide_last`,
    the supply after them (the controller: its supply crosses the board, and first it cuts
    the matrix lines' channels between the shift registers and their header)."""
    if net == GROUND:
        return (0, net)
    if net.startswith(("KEY", "CHAIN")):
        return (1, net)
    if net in wide:
        return (4 if wide_last else 2, net)
    return (3, net)


def route(plan, attempts=None):
    """Route every net of the plan's footprints; fills plan.tracks, vias and failed. If some
    connections fail, start again with their nets first (they get the room), the last pass's
    failures before the earlier ones, up to `attempts` (plan.attempts) times, and keep the
    attempt that failed least. The first pass starts from the order the board's last build
    ended with (plan.route_first, plan.route_last: net_order.py); plan.route_order and
    plan.passes say what this one ended with."""
    first, last = list(plan.route_first), list(plan.route_last)
    best = None
    for passes in range(1, (attempts or plan.attempts) + 1):
        tracks, vias, failed, islands = _route_once(plan, first, last)
        if best is None or len(failed) < len(best[2]):
            best = (tracks, vias, failed, islands, {"first": sorted(set(first)),
                                                    "last": sorted(set(last))})
        if not failed:
            break
        last = [n for n, _ in failed]
        first = list(dict.fromkeys(last + first))
    plan.tracks, plan.vias, plan.failed, plan.islands, plan.route_order = best
    plan.passes = passes
    return plan


def _route_once(plan, first, last_failed=()):
    nets = sorted({n for p in plan.footprints for n in p.nets.values() if n})
    grid = router.Grid(plan.width, plan.height, nets, plan.step_cost)
    for x, y, d in plan.holes:
        grid.add_hole(x, y, d)
    for x, y in plan.marks:
        grid.block_rect(x - 1.5, y - 1.5, x + 1.5, y + 1.5)
    terminals = {n: [] for n in nets}
    bodies = {}                     # pad -> its footprint's origin
    for p in plan.footprints:
        for pad in p.pads():
            net = p.nets.get(pad.number) if pad.kind != "np_thru_hole" else None
            layers = grid.add_pad(pad, net)
            if net:
                terminals[net].append((p.ref, pad, layers))
                bodies[pad] = (p.x, p.y)
    grid.escape_all([(pad, net, layers, bodies[pad])
                     for net, ts in terminals.items() for _, pad, layers in ts])
    wide = set(plan.wide_nets) - {GROUND}
    # the nets that failed in the last pass first, then those that failed before: ordered by
    # kind alone among all that ever failed, the same nets took the same room pass after pass
    # and the last failures stayed (the controller: ROW8 and ROW9 at U9, 20 passes)
    last = set(last_failed)

    def key(n):
        return (n != GROUND, 0 if n in last else 1 if n in first else 2,
                _order(n, wide, plan.wide_last))
    for net in sorted(nets, key=key):
        _route_net(grid, net, terminals[net],
                   led_current.TRACK_MM if net in wide else fab_rules.TRACK,
                   set(plan.branch_pads), links=not plan.ground_links_last)
    if plan.ground_links_last and GROUND in nets:
        _ground_links(grid, GROUND, _access(grid, GROUND, terminals[GROUND]))
    islands = _join_islands(grid, GROUND, terminals[GROUND]) if GROUND in nets else []
    return split_tees(grid.route.tracks), grid.route.vias, grid.route.failed, islands


def _access(grid, net, terms):
    out = []
    for ref, pad, layers in terms:
        cells, stub = grid.access(pad, net, layers)
        out.append((ref, pad, cells, stub))
    return out


def _route_net(grid, net, terms, width=fab_rules.TRACK, branches=frozenset(), links=True):
    acc = _access(grid, net, terms)
    if net == GROUND:
        for ref, pad, cells, stub in acc:
            if len(pad.layers) == 2:
                continue                      # through-hole pads: _ground_links
            if not _connect(grid, net, ref, pad, cells, stub, [], width, plane=True):
                grid.route.failed.append((net, f"{ref}.{pad.number}"))
        if links:
            _ground_links(grid, net, acc, width)
        return
    _route_signal(grid, net, acc, width, branches)


def _ground_links(grid, net, acc, width=fab_rules.TRACK):
    """A through-hole pad touches the pour, but the pour around a header can be cut off by
    bottom tracks: each also gets a track to the nearest ground via. (Drawn before the other
    nets, the Pico's ground pins' tracks ran along its row of pins and walled the pins between
    them off: Plan.ground_links_last draws them after.)"""
    for ref, pad, cells, stub in acc:
        if len(pad.layers) == 2:
            nid = grid.net_id[net]
            goals = _nearest_first(list(grid.copper[nid]), pad.x, pad.y)
            if goals and not _connect(grid, net, ref, pad, cells, stub, goals, width):
                grid.route.failed.append((net, f"{ref}.{pad.number}"))


def _route_signal(grid, net, acc, width, branches):
    if len(acc) < 2:
        return
    if width > fab_rules.TRACK:           # the LEDs' way first, so that it gets the room
        acc.sort(key=lambda a: f"{a[0]}.{a[1].number}" in branches)
    ref, pad, cells, stub = acc[0]
    if not cells:
        grid.route.failed.append((net, f"{ref}.{pad.number}"))
        return
    grid.copper[grid.net_id[net]].update(cells)
    grid.route.tracks.extend(stub)
    if width > fab_rules.TRACK and not _open(grid, net, cells):
        neck = grid.neck(net, pad, cells, _neck_steps(stub))     # the others' wide tracks end on it
        if neck is None:
            grid.route.failed.append((net, _no_room(ref, pad, width)))
            return
        grid.commit_neck(net, neck)
    rest = acc[1:]
    # each pad's distance to the nearest of those routed so far, brought up to date as each
    # is routed rather than taken again over all of them for every pad (by id: a pad's entry
    # holds lists, unhashable)
    gap = {id(a): math.hypot(a[1].x - pad.x, a[1].y - pad.y) for a in rest}
    branch = lambda a: f"{a[0]}.{a[1].number}" in branches     # noqa: E731
    while rest:
        rest.sort(key=lambda a: (branch(a), gap[id(a)]))
        ref, pad, cells, stub = rest.pop(0)
        nid = grid.net_id[net]
        goals = _nearest_first(list(grid.copper[nid]), pad.x, pad.y)
        # a branch (a chip's supply or sense pin, a capacitor) carries its own part's current,
        # not the LEDs': a normal track to the wide copper, never to a pad or a neck (the
        # LEDs' current stays off it); drawn wide, one round a fine-pitch chip walls its
        # other pins in (the LTC4365's VIN and ~SHDN at opposite corners)
        if not branch((ref, pad)):
            if not _connect(grid, net, ref, pad, cells, stub, goals, width):
                grid.route.failed.append((net, _no_room(ref, pad, width)
                                          if width > fab_rules.TRACK else f"{ref}.{pad.number}"))
        else:
            thin = grid.necks | {c for a in acc for c in a[2]}
            fenced = grid.fence(net, pad)
            for c in cells:                     # the branch's own pad stays open
                if c in fenced[1]:
                    fenced[1].discard(c)
                    grid.owner[c] = fenced[0]
            ok = _connect(grid, net, ref, pad, cells, stub, [c for c in goals if c not in thin],
                          fab_rules.TRACK)
            grid.unfence(fenced)
            if not ok:
                grid.route.failed.append((net, f"{ref}.{pad.number}"))
        for a in rest:
            gap[id(a)] = min(gap[id(a)], math.hypot(a[1].x - pad.x, a[1].y - pad.y))


def _nearest_first(cells, x, y):
    """The cells [(layer, iy, ix)] nearest (x, y) first, equals in their given order (a
    stable sort): the keys worked out in one comprehension, not by a call per cell, as a
    net's copper is sorted again for each of its pads."""
    g = fab_rules.G
    keys = [(c[2] * g - x) ** 2 + (c[1] * g - y) ** 2 for c in cells]
    return [cells[i] for i in sorted(range(len(cells)), key=keys.__getitem__)]


def _join_islands(grid, net, terms):
    """Connect every piece of the ground pour that holds a ground pad but that other nets'
    bottom tracks cut off from the largest (router.Grid.pieces), by a track from anywhere
    on it to the nearest copper of the largest. Returns the pads of the pieces it could not
    join. Those are not failures: the grid's pour is a little smaller than KiCad's (it leaves
    out the corners of a via's 3x3 and the strips between two grid lines, so a piece may
    really be joined through the gap between two vias 1.5 mm apart); KiCad's DRC decides."""
    acc = [(ref, pad, cells) for ref, pad, cells, _ in _access(grid, net, terms) if cells]
    links = {(round(y / fab_rules.G), round(x / fab_rules.G)) for n, x, y in grid.route.vias
             if n == net}
    links |= {c[1:] for _, pad, cells in acc if len(pad.layers) == 2 for c in cells}
    label = grid.pieces(net, links)
    where = {}                               # piece -> its pads
    for ref, pad, cells in acc:
        where.setdefault(int(label[cells[0]]), []).append(f"{ref}.{pad.number}")
    where.pop(0, None)
    if len(where) < 2:
        return []
    sizes = np.bincount(label.ravel())
    main = max(where, key=lambda k: sizes[k])
    left = []
    for piece, pads in sorted(where.items()):
        if piece == main:
            continue
        island = np.argwhere(label == piece)
        if not _join(grid, net, label, island, main):
            left += pads
            continue
        label[label == piece] = main
    return left


def _join(grid, net, label, island, main):
    """A track from the cells `island` to the nearest of those labelled `main`."""
    lo, hi = island[:, 1:].min(axis=0), island[:, 1:].max(axis=0)
    mid = (lo + hi) / 2
    for margin in MARGINS:
        m = int(margin / fab_rules.G)
        y0, x0 = np.maximum(lo - m, 0)
        y1, x1 = hi + m + 1
        goals = np.argwhere(label[:, y0:y1, x0:x1] == main) + (0, y0, x0)
        if not len(goals):
            continue
        near = goals[np.argmin(np.abs(goals[:, 1:] - mid).sum(axis=1))]
        path = grid.search(net, [tuple(c) for c in island.tolist()], [tuple(near.tolist())], margin,
                           all_goals=[tuple(c) for c in goals.tolist()])
        if path:
            grid.commit(net, path, fab_rules.TRACK)
            label[tuple(np.array(path).T)] = main
            return True
    return False


def _connect(grid, net, ref, pad, cells, stub, goals, width, plane=False, margins=MARGINS):
    if not cells:
        return False
    nid = grid.net_id[net]
    if any(c in grid.copper[nid] for c in cells):       # already touched by this net's copper
        grid.route.tracks.extend(stub)
        return True
    # a wide net is drawn at its width or not at all, never narrowed to get through (but for
    # a neck out of a crowded pad, router.Grid.neck); a connection that fails is reported
    wide = width > fab_rules.TRACK
    pad_cells = cells
    neck = []
    if wide and not _open(grid, net, cells):
        neck = grid.neck(net, pad, cells, _neck_steps(stub))
        if neck is None:
            return False
        cells = [neck[-1]]
        if cells[0] in grid.copper[nid]:              # the neck reached the net's wide copper
            grid.commit_neck(net, neck)
            grid.route.tracks.extend(stub)
            return True
    elif wide:
        cells = _open(grid, net, cells)
    for margin in margins:
        near = goals[:1]        # the window spans the pad and its net's nearest copper ...
        path = grid.search(net, cells, near, margin, wide=wide, plane=plane, all_goals=goals)
        if path:
            if wide and len(neck) > 1:
                grid.commit_neck(net, neck)
            grid.commit(net, path, width, wide=wide)
            grid.copper[nid].update(pad_cells)
            grid.route.tracks.extend(stub)
            return True
    return False


def _inside(px, py, t):
    """Whether (px, py) lies on track t strictly between its ends."""
    _, _, x1, y1, x2, y2, _ = t
    if (px, py) in ((x1, y1), (x2, y2)):
        return False
    cross = (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1)
    if abs(cross) > 1e-6:
        return False
    return (min(x1, x2) - 1e-6 <= px <= max(x1, x2) + 1e-6
            and min(y1, y2) - 1e-6 <= py <= max(y1, y2) + 1e-6)


def split_tees(tracks):
    """Split every track where another track of its net ends on its middle (a T), so KiCad
    sees the two meet at an end and flags no dangling end."""
    by = {}
    for t in tracks:
        by.setdefault((t[0], t[1]), []).append(t)
    out = []
    for group in by.values():
        ends = {(t[2], t[3]) for t in group} | {(t[4], t[5]) for t in group}
        for t in group:
            cuts = sorted((p for p in ends if _inside(*p, t)),
                          key=lambda p: (p[0] - t[2]) ** 2 + (p[1] - t[3]) ** 2)
            pts = [(t[2], t[3])] + cuts + [(t[4], t[5])]
            out += [(t[0], t[1], a[0], a[1], b[0], b[1], t[6]) for a, b in zip(pts, pts[1:])]
    return out


def _open(grid, net, cells):
    """The cells of a pad a wide track may leave from (nothing of another net in their 3x3)."""
    return [c for c in cells if not grid.crowded(c, net)]


def _no_room(ref, pad, width):
    return f"{ref}.{pad.number} at ({pad.x:.2f}, {pad.y:.2f}): no way {width:g} mm wide"


def _neck_steps(stub):
    """Grid steps a neck may take after the pad's stub: together within led_current.MAX_NECK_MM."""
    used = sum(math.hypot(t[4] - t[2], t[5] - t[3]) for t in stub)
    return max(0, int((led_current.MAX_NECK_MM - used) / fab_rules.G + 1e-9))
