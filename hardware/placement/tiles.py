"""Cell boards larger than the fab's panel (hardware/inputs/fab_rules.py: JLCPCB's 400 x 500 mm)
are cut into tiles: vertical strips, cut where no cell's cap is (CELL_CLEAR of
hardware/placement/cell_board_layout.py), joined by box headers and a short ribbon. Each tile
has its own netlist (hardware/out/cellboard-GAME-tileK.net): the parts of its cells, the
controller's connectors on the tile that holds cell 0, and one join connector per neighbour
carrying every net that has pads on both sides of the cut (+5V and GND on four pins each, for
current, at both ends of the header mirrored so that a cable crimped the wrong way round still
meets +5V with +5V: join_pins), pin for pin the same on both tiles."""

import math

from ..inputs import fab_rules, game_layouts
from ..parts.catalogue import CATALOGUE
from . import cell_geometry

POWER_PINS = 4                       # +5V and GND each on this many pins of a join
JOIN_SIZES = sorted(int(k[3:]) for k in CATALOGUE if k.startswith("idc") and k != "idc16")
CUT_CLEAR = cell_geometry.CAP_KEEPOUT_R + 6.0     # a cut stays this far from cell centres


def cuts(game, boards=None):
    """The x positions where the board is cut ([] if it fits the fab's panel)."""
    lay = game_layouts.get_layout(game)
    w, h = lay.width_mm, lay.height_mm
    if fab_rules.fits(w, h):
        return []
    if h > max(fab_rules.MAX_SIZE):
        raise ValueError(f"{game}: {h} mm tall, more than the fab's {max(fab_rules.MAX_SIZE)} mm")
    n = math.ceil(w / min(fab_rules.MAX_SIZE))
    xs = [c[4] for c in game_layouts.cells(game, boards)]
    out = []
    for k in range(1, n):
        ideal = w * k / n
        best = max((ideal + d / 2 for d in range(-120, 121)),
                   key=lambda x: (min(abs(x - cx) for cx in xs) >= CUT_CLEAR, -abs(x - ideal)))
        if min(abs(best - cx) for cx in xs) < CUT_CLEAR:
            raise ValueError(f"{game}: no place to cut near x = {ideal:.0f} mm")
        out.append(best)
    return out


def regions(game, boards=None):
    lay = game_layouts.get_layout(game)
    edges = [0.0] + cuts(game, boards) + [lay.width_mm]
    return list(zip(edges, edges[1:]))


def _tile_of(x, regs):
    return next(k for k, (a, b) in enumerate(regs) if a <= x < b)


def assign(game, nl, boards=None):
    """{ref: tile index} for every component of the full board's netlist."""
    regs = regions(game, boards)
    cells = game_layouts.cells(game, boards)
    where = {}
    for index, *_, x, _ in cells:
        t = _tile_of(x, regs)
        for p in ("LED", "C", "SW", "D"):
            where[f"{p}{index}"] = t
    from .cell_board_layout import at_far_end
    first = where["LED0"]
    last = where[f"LED{len(cells) - 1}"]
    for ref, c in nl.components.items():
        where.setdefault(ref, last if at_far_end(c, len(cells)) else first)
    return where


def joins(game, nl, boards=None):
    """[(k, [net names on the join between tile k and tile k + 1, pin order])]."""
    where = assign(game, nl, boards)
    n = len(regions(game, boards))
    out = []
    for k in range(n - 1):
        left = {net for net, nodes in nl.nets.items() if any(where[r] <= k for r, _ in nodes)}
        right = {net for net, nodes in nl.nets.items() if any(where[r] > k for r, _ in nodes)}
        both = sorted(left & right - {"+5V", "GND"}, key=_net_order)
        size = next((s for s in JOIN_SIZES if s >= 2 * POWER_PINS + len(both)), None)
        if size is None:
            raise ValueError(f"{game}: {2 * POWER_PINS + len(both)} nets cross cut {k + 1}, "
                             "no header that large")
        out.append((k, join_pins(both, size)))
    return out


def join_pins(signals, size):
    """A join header's nets by pin (1..size), "" for no connection: half the +5V and GND pins
    at each end, mirrored, the signals between. A 2-row IDC connector crimped onto the ribbon
    the wrong way round puts the cable's pin i on pin size + 1 - i (reversed), one flipped over
    swaps the two rows (i and its row neighbour); under either, +5V meets only +5V and GND only
    GND, and a signal only a signal or nothing: no 5 V on a matrix line (crimp_safe checks it)."""
    half = POWER_PINS // 2
    head = ["+5V"] * half + ["GND"] * half
    middle = list(signals) + [""] * (size - 2 * len(head) - len(signals))
    return head + middle + head[::-1]


def miswirings(size):
    """The ways a 2 x size/2 IDC ribbon can be crimped wrong, as pin maps {pin: pin it meets}:
    one end reversed, one end's rows swapped, both."""
    rev = {i: size + 1 - i for i in range(1, size + 1)}
    swap = {i: i + 1 if i % 2 else i - 1 for i in range(1, size + 1)}
    return {"reversed": rev, "rows swapped": swap, "both": {i: swap[rev[i]] for i in rev}}


def crimp_safe(pins):
    """What a miswired join cable would connect that must never meet: [(how, pin, net, net)]
    where a supply pin meets another net (or a signal meets a supply). [] when safe."""
    out = []
    supplies = {"+5V", "GND"}
    for how, to in miswirings(len(pins)).items():
        for i, j in to.items():
            a, b = pins[i - 1], pins[j - 1]
            if a != b and (a in supplies or b in supplies):
                out.append((how, i, a, b))
    return out


def _net_order(name):
    head = name.rstrip("0123456789")
    return (head, int(name[len(head):] or 0))


def join_ref(k, side):
    """Reference of the join connector of cut k on the left (0) or right (1) tile."""
    return f"J{10 + 2 * k + side}"


def tile_netlists(game, nl, boards=None):
    """{tile index: netlist text} of a board cut into tiles ({} if it is not)."""
    from ..schematic import skidl_parts
    from ..schematic.skidl_parts import Net, new_circuit, part, supply

    n = len(regions(game, boards))
    if n == 1:
        return {}
    where = assign(game, nl, boards)
    js = joins(game, nl, boards)
    out = {}
    for t in range(n):
        circ = new_circuit()
        with circ:
            nets = {}

            def net(name):
                if name not in nets:
                    nets[name] = supply(name) if name in ("+5V", "GND") else Net(name)
                return nets[name]

            for ref, c in sorted(nl.components.items()):
                if where[ref] != t:
                    continue
                extra = {k: v for k, v in c.fields.items()
                         if k not in ("Manufacturer", "MPN", "Block", "Catalogue")}
                p = part(c.fields["Catalogue"], ref, c.fields["Block"], value=c.value, **extra)
                for pin, name in c.pins.items():
                    p[pin] += net(name)
            for k, pins in js:
                for side, tile in ((0, k), (1, k + 1)):
                    if tile != t:
                        continue
                    j = part(f"idc{len(pins)}", join_ref(k, side), "Tiles",
                             value=f"TILE{k + 1}-{k + 2}")
                    for i, name in enumerate(pins, 1):
                        j[str(i)] += net(name) if name else circ.NC
        out[t] = skidl_parts.netlist_text(circ, "hardware/placement/tiles.py")
    return out


def tile_plan(game, t, tnl, full, bds):
    """The plan maker of tile t (0-based) from its netlist `tnl`: its join connectors sit
    by the cuts, the rest as on a whole board."""
    from . import cell_board_layout
    regs = regions(game, bds)
    x0, x1 = regs[t]
    wants = {}
    for k, _ in joins(game, full, bds):
        if k == t:
            wants[join_ref(k, 0)] = x1 - 14
        if k + 1 == t:
            wants[join_ref(k, 1)] = x0 + 14
    return lambda: cell_board_layout.place_cells(game, tnl, bds, f"cellboard-{game}-tile{t + 1}",
                                                 (x0, x1), wants)


def problems(game, full, parts):
    """What is wrong with tile netlists `parts` (one netlist per tile) against the whole
    board's netlist `full`: a part missing, doubled or wired differently, a join's two
    headers that differ, a net with pads on both sides of a cut that does not cross it."""
    n = len(parts)
    joins_ = {join_ref(k, s) for k in range(n - 1) for s in (0, 1)}
    out, seen = [], {}
    for t, nl in enumerate(parts):
        for ref, c in nl.components.items():
            if ref in joins_:
                continue
            if ref in seen:
                out.append(f"{ref} on tiles {seen[ref] + 1} and {t + 1}")
            seen[ref] = t
            if ref in full.components and c.pins != full.components[ref].pins:
                out.append(f"{ref} is wired differently on tile {t + 1}")
    out += [f"{ref} is on no tile" for ref in sorted(set(full.components) - set(seen))]
    for k in range(n - 1):
        left = parts[k].components.get(join_ref(k, 0))
        right = parts[k + 1].components.get(join_ref(k, 1))
        if left is None or right is None:
            out.append(f"cut {k + 1}: a join header is missing")
            continue
        if left.pins != right.pins:
            out.append(f"cut {k + 1}: {left.ref} and {right.ref} differ")
        carried = set(left.pins.values())
        for name, nodes in full.nets.items():
            sides = {seen.get(r, -1) <= k for r, _ in nodes}
            if sides == {True, False} and name not in carried:
                out.append(f"cut {k + 1}: {name} has pads on both sides but does not cross")
    return out
