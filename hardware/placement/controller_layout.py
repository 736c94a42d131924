"""The controller board's placement: the connectors on the edges, the Pico in the middle,
the buttons along the bottom, the parts every matrix line passes through (ESD arrays,
pull-ups, shift registers) in columns beside the ribbon header they serve, then every other
part (whatever the netlist holds) as near as there is room to the pads it connects to,
most-connected first. Routed by
hardware/routing/router.py like the cell boards, so a part added to the schematic is placed and
routed without a change here."""

import math

from ..inputs import fab_rules, mechanics
from ..parts import refdes
from .cell_board_layout import Free
from .plan import GROUND, Placed, Plan

WIDTH, HEIGHT = 100.0, 100.0        # JLCPCB's cheapest size class: up to 100 x 100 mm
# catalogue key -> where its parts go: [(x, y) as fractions of the board, rotation]
# The Pico's left header row carries GP0-GP15 (the matrix columns): the columns' header and
# pull-ups go on its left; the rows' drivers and header, the LED data, buttons, buzzer and
# OLED (all on its right row) on its right.
ANCHORS = {
    # the Pico a little right of centre, so that the column pull-ups (rn10k, BESIDE) fit
    # between the columns' ESD arrays and its left row of pins
    "pico": [((0.465, 0.46), 0)],
    # J3 the rows (ROW0 at the bottom, like the 595s), J4 the columns; J3 and the row drivers
    # beside it (BESIDE) low enough to leave room between the 595s and the jack's
    # controller U5 above them (at 0.52, ROW8 and ROW9 found no way to U9)
    "idc20": [((0.90, 0.58), 180), ((0.10, 0.52), 0)],
    # the jack beside the LED connectors J2 and J6 (vh3, vh2), opening to the top edge: the LEDs'
    # current crossed the board from the jack in the bottom left corner, 0.18 V of the
    # 0.3 V budget in its +5V copper alone (hardware/power/rails.py)
    "jack": [((0.60, 0.11), 180)],
    "vh3": [((0.88, 0.07), 0)],
    "vh2": [((0.745, 0.07), 0)],
    "ahct125": [((0.80, 0.215), 0)],
    # the OLED's socket clear of the Pico's USB plug (mechanics.usb_plug_box, kept free below)
    # with the module lying either way (mechanics.oled_boxes): it stood in the plug's way
    "oled_hdr": [((0.20, 0.06), 90)],
    "button": [((0.55 + 0.1 * k, 0.93), 0) for k in range(4)],
    "buzzer": [((0.36, 0.88), 0)],
    # the USB switch low on the right, its parts around it, clear of the row drivers' lines:
    # left to the greedy placement (once D4 joined the jack sense), U6's parts landed under
    # U4/U9 and ROW8/ROW9 could not be routed (found by trying, with
    # hardware/routing/router.py as it is)
    "tps2553": [((0.69, 0.77), 0)],
}
# Placed like ANCHORS but after the parts beside the ribbon headers (BESIDE), which keep their
# places: the jack's way to J2/J6, the reverse-voltage switch (Q2, and its controller U5 beside
# the fuse, clear of the Pico's right row and of the row drivers: there its fine-pitch pins,
# or the rows' lines beside it, could not get out) and the fuse. (Left to the greedy placement,
# Q2 and U5 followed the USB switch's parts to the bottom right, across the board from the
# jack.)
POWER = {
    "dualnfet": [((0.64, 0.245), 0)],
    "polyfuse": [((0.72, 0.225), 90)],
    "ltc4365": [((0.70, 0.33), 0)],
}
RIBBONS = {"idc20"}                  # headers whose outer row's lines run round them, outside
# catalogue key -> (mm from the inner side of the ribbon header a part serves to the part's
# centre, rotation): the parts every matrix line passes through, lined up beside the header
# at the height of the pins they serve, so that the lines run straight across, none crossing
# another (the ESD arrays next to the header, then the pull-ups or the shift registers,
# whose outputs, pins 1-7, face the header; J3 is turned so its ROW0 end is at the bottom,
# the end where the 595s' outputs start).
# The third number moves the part that far down off the routing grid once everything is
# placed: on the grid, U3's SER input (pin 14, 1.27 mm pitch) was boxed in by the vias its
# neighbours' lines put beside their pads; a quarter step lower every line routes (found by
# trying, with the router of hardware/routing/router.py as it is).
# The pull-ups (the 3.2 x 1.6 mm concave 4x0603 array, whose 0.8 mm pitch pins keep
# FINE_MARGIN round them) turned so that their +3V3 pins face the ESD arrays' +3V3 pin and
# their column pins the Pico: the other way, +3V3 ran round each array and boxed its column
# pins in.
BESIDE = {"srv05": (5.6, 0, 0.0), "rn10k": (14.55, 180, 0.0), "ahc595": (14.8, 180, 0.25)}
ATTEMPTS = 16                        # routing passes, the failed nets first in each next one
FINE_PITCH = 1.0                     # mm between pad centres: a fine-pitch part ...
FINE_MARGIN = 1.5                    # ... keeps this much more room around it
GAP = 2.0                            # mm between parts' outlines: room for tracks between them
BIG_NET = 8                          # nets with more pads (supplies) do not pull parts


def _make(c, rot_options):
    def make(x, y, rot):
        p = Placed(c.ref, c.footprint, 0.0, 0.0, float(rot), False, c.value, dict(c.pins))
        x0, y0, x1, y1 = p.outline()
        # the footprint's origin on the router's grid: its pads then sit as the library drew them
        p.x, p.y = _on_grid(x - (x0 + x1) / 2), _on_grid(y - (y0 + y1) / 2)
        x0, y0, x1, y1 = p.outline()
        m = FINE_MARGIN if _fine(p) else 0.0
        return p, (x0 - m, y0 - m, x1 + m, y1 + m)
    return make


def _channel(p):
    """Move a two-row header sideways by less than a grid step, so that the grid line midway
    between its rows of pins is free: a track on each layer runs between the rows, and a line
    from the outer row can leave along it instead of running round the header."""
    xs = sorted({round(pad.x, 3) for pad in p.pads()})
    mid = (xs[0] + xs[-1]) / 2
    p.x = round(p.x + _on_grid(mid) - mid, 4)


def _fine(p):
    """Whether a part has pads closer than FINE_PITCH: each of its pads can leave only
    straight out between its neighbours, so it needs room around it."""
    pads = p.pads()
    return len(pads) > 3 and min(math.hypot(a.x - b.x, a.y - b.y) for a in pads for b in pads
                                 if a is not b) < FINE_PITCH


def _outside(box, width, margin=3.0):
    """The strip between a header's outline and the nearer side edge, a little longer than the
    header: kept free of parts, for the lines of its outer row of pins."""
    x0, y0, x1, y1 = box
    return ((0.0, y0 - margin, x0, y1 + margin) if x0 + x1 < width
            else (x1, y0 - margin, width, y1 + margin))


def _on_grid(v):
    return round(v / fab_rules.G) * fab_rules.G


def place_controller(nl, width=WIDTH, height=HEIGHT):
    free = Free(width, height, [], gap=GAP)
    placed = {}
    by_key = {}
    for ref, c in sorted(nl.components.items()):
        by_key.setdefault(c.fields["Catalogue"], []).append(ref)
    for key, spots in ANCHORS.items():
        for ref, ((fx, fy), rot) in zip(sorted(by_key.get(key, [])), spots):
            c = nl.components[ref]
            placed[ref] = free.nearest(_make(c, (rot,)), (fx * width, fy * height), (rot,))
            if key == "pico":           # nothing stands in the USB plug's way
                p = placed[ref]
                free.boxes.append(mechanics.usb_plug_box(p.x, p.y, p.rot, width, height))
            if key in RIBBONS:
                _channel(placed[ref])
                free.boxes[-1] = placed[ref].outline()
                free.boxes.append(_outside(placed[ref].outline(), width))
    for key, (dist, rot, _) in BESIDE.items():
        for ref in sorted(by_key.get(key, []), key=refdes.natural_order):
            want = _beside(nl, ref, placed, dist, width)
            if want:
                placed[ref] = free.nearest(_make(nl.components[ref], (rot,)), want, (rot,))
    for key, spots in POWER.items():
        for ref, ((fx, fy), rot) in zip(sorted(by_key.get(key, [])), spots):
            placed[ref] = free.nearest(_make(nl.components[ref], (rot,)),
                                       (fx * width, fy * height), (rot,))
    holes = []
    for fx, fy in ((0, 0), (1, 0), (0, 1), (1, 1)):
        want = (4.5 + fx * (width - 9), 4.5 + fy * (height - 9))

        def hole(x, y, rot):
            return (float(x), float(y), 3.2), (x - 4, y - 4, x + 4, y + 4)
        holes.append(free.nearest(hole, want, (0,)))
    rest = [r for r in nl.components if r not in placed]
    while rest:
        rest.sort(key=lambda r: (-_links(nl, r, placed), r))
        ref = rest.pop(0)
        c = nl.components[ref]
        placed[ref] = free.nearest(_make(c, (0, 90)), _pull(nl, ref, placed, width, height),
                                   (0, 90))
    for key, (_, _, dy) in BESIDE.items():
        for ref in by_key.get(key, []):
            placed[ref].y = round(placed[ref].y + dy, 4)
    texts = [(width / 2, height - 2,
              "Knockboard controller - hardware/placement/controller_layout.py", "F.SilkS")]
    return Plan("controller", width, height, [placed[r] for r in sorted(placed)], holes, [], texts,
                step_cost=(2, 3),       # a dense board: the bottom carries signals too
                attempts=ATTEMPTS, wide_last=True, ground_links_last=True)


def _beside(nl, ref, placed, dist, width):
    """Where `ref` goes beside the ribbon header it shares most nets with: `dist` mm in from
    the header's inner side, level with the header's pins on those nets; None if it serves
    no header."""
    nets = _nets(nl, ref)
    best = None
    for hdr, p in placed.items():
        if nl.components[hdr].fields["Catalogue"] not in RIBBONS:
            continue
        ys = [pad.y for pad in p.pads() if p.nets.get(pad.number) in nets]
        if ys and (best is None or len(ys) > len(best[1])):
            best = (p, ys)
    if best is None:
        return None
    p, ys = best
    x0, _, x1, _ = p.outline()
    x = x1 + dist if x0 + x1 < width else x0 - dist
    return (x, sum(ys) / len(ys))


def _nets(nl, ref):
    return {n for n in nl.components[ref].pins.values()
            if n and n != GROUND and len(nl.nets.get(n, ())) <= BIG_NET}


def _links(nl, ref, placed):
    dec = nl.components[ref].fields.get("Decouples")
    return sum(1 for n in _nets(nl, ref) for r, _ in nl.nets[n] if r in placed) + (dec in placed)


def _pull(nl, ref, placed, width, height):
    """The centroid of the placed pads that share a (small) net with `ref`."""
    pts = _placed_pads(placed, (m for n in _nets(nl, ref) for m in nl.nets[n]))
    dec = nl.components[ref].fields.get("Decouples")
    if not pts and dec in placed:          # a decoupling capacitor: beside its chip's supply pin
        pts = _supply_pads(nl, dec, placed)
    if not pts:                            # a bulk capacitor: among the pads of its supply
        pts = _placed_pads(placed, (m for n in nl.components[ref].pins.values()
                                    for m in (nl.nets.get(n, ()) if n != GROUND else ())))
    if not pts:
        return (width / 2, height / 2)
    return (round(sum(p[0] for p in pts) / len(pts)), round(sum(p[1] for p in pts) / len(pts)))


def _placed_pads(placed, members):
    """The centres of the pads of `members` [(ref, pin)] whose parts are placed already."""
    pts = []
    for r, pin in members:
        if r in placed:
            pts += [(p.x, p.y) for p in placed[r].pads() if p.number == pin]
    return pts


def _supply_pads(nl, dec, placed):
    """The centres of placed chip `dec`'s supply pads, or its centre if it has none."""
    c = nl.components[dec]
    pins = {c.pin_num(n) for n in c.part.power_pins} if dec in nl.components else set()
    return ([(p.x, p.y) for p in placed[dec].pads() if p.number in pins]
            or [(placed[dec].x, placed[dec].y)])
