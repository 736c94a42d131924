"""The M3 screws and standoffs that hold every board (its mounting holes:
hardware/placement/cell_board_layout.py, hardware/placement/controller_layout.py), and the room
they take on the copper.

A screw head on the top and a hex standoff on the bottom press on the board around the hole;
a track under either is pinched through the solder mask (a 5 V track under a grounded metal
standoff, a matrix line under a screw turned against it). So no track and no via of any net
comes within KEEPOUT_R of a hole's centre, on either layer: the router closes that disc
(hardware/routing/router.py Grid.add_hole) and each board carries a KiCad rule area there
(hardware/kicad/board_file.py), so KiCad's DRC finds a track that enters it. The ground pour may
fill it (metal to ground is no fault).

Sizes, the largest of the common M3 parts (the builder's choice is not known):
- ISO 7380 button head: head diameter dk at most 5.7 mm; DIN 912 / ISO 4762 socket cap 5.5 mm;
  ISO 7045 pan head 5.6 mm.
- M3 hex standoff: 5.5 mm across flats, so 5.5 / cos 30 = 6.35 mm across corners."""

import math

HOLE_D = 3.2                 # M3 clearance hole (MountingHole_3.2mm_M3)
HEAD_D = 5.7                 # ISO 7380 M3 button head, the widest of the three
STANDOFF_AF = 5.5            # M3 hex standoff, across flats
STANDOFF_CORNERS = STANDOFF_AF / math.cos(math.radians(30))
KEEPOUT_R = round(max(HEAD_D, STANDOFF_CORNERS) / 2, 2)     # 3.18 mm: no track, no via inside


def keepout_faults(holes, tracks, vias, radius=KEEPOUT_R):
    """Tracks and vias whose copper comes within `radius` of a hole's centre:
    [(what, hole index, distance from its centre to the copper's edge)]. holes [(x, y)],
    tracks [(net, layer, x1, y1, x2, y2, width)], vias [(net, x, y, diameter)]."""
    out = []
    for k, (hx, hy) in enumerate(holes):
        for net, layer, x1, y1, x2, y2, w in tracks:
            dx, dy = x2 - x1, y2 - y1
            t = max(0.0, min(1.0, ((hx - x1) * dx + (hy - y1) * dy) / ((dx * dx + dy * dy) or 1.0)))
            d = math.hypot(hx - x1 - t * dx, hy - y1 - t * dy) - w / 2
            if d < radius - 1e-6:
                out.append((f"track {net} on {layer} ({x1:.2f}, {y1:.2f})-({x2:.2f}, {y2:.2f})",
                            k, round(d, 3)))
        for net, x, y, dia in vias:
            d = math.hypot(hx - x, hy - y) - dia / 2
            if d < radius - 1e-6:
                out.append((f"via {net} at ({x:.2f}, {y:.2f})", k, round(d, 3)))
    return out


# --- what plugs into the controller from above ---
# The Pico's micro-USB receptacle sits at the middle of its short edge (its footprint's
# local (0, -25.5), hardware/footprints: the F.Fab box marked USB). A micro-B plug's overmold
# is at most 10.6 mm wide and 8.5 mm thick (USB Micro-USB Cables and Connectors
# Specification 1.01, the Micro-B plug overmold boundary); its cable leaves straight out.
# The envelope: that width and PLUG_MARGIN each side, from the Pico's edge to the board's.
PICO_USB_EDGE = 25.5         # mm from the Pico's centre to its USB edge (local -y)
PLUG_W = 10.6
PLUG_MARGIN = 1.0            # fingers and a fatter overmold than the spec's
# The OLED module on J5 (a 0.96 in SSD1306 I2C module, 27.3 x 27.8 mm, its 4 pins centred on
# one 27.3 mm edge): it lies over the board on its socket, to either side of the socket's row.
OLED_W, OLED_H = 27.3, 27.8


def _turn(dx, dy, rot):
    """A footprint-local offset turned as KiCad turns a footprint by `rot` degrees (y down)."""
    a = math.radians(rot)
    return dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)


def usb_plug_box(x, y, rot, board_w, board_h):
    """The plug's envelope (x0, y0, x1, y1) for a Pico centred at (x, y) turned `rot` (a
    multiple of 90), from its USB edge out to the board's edge."""
    ex, ey = _turn(0.0, -PICO_USB_EDGE, rot)
    ux, uy = round(ex / PICO_USB_EDGE), round(ey / PICO_USB_EDGE)    # the way out, a unit step
    half = PLUG_W / 2 + PLUG_MARGIN
    sx, sy = x + ex, y + ey
    if ux:
        return (min(sx, board_w if ux > 0 else 0.0), sy - half,
                max(sx, board_w if ux > 0 else 0.0), sy + half)
    return (sx - half, min(sy, board_h if uy > 0 else 0.0),
            sx + half, max(sy, board_h if uy > 0 else 0.0))


def oled_boxes(pads):
    """The two places the OLED module can lie, (x0, y0, x1, y1) each, from its socket's pad
    centres [(x, y)] (a straight row): OLED_W along the row, centred on it, OLED_H across it
    to one side or the other."""
    xs, ys = [p[0] for p in pads], [p[1] for p in pads]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    if max(xs) - min(xs) >= max(ys) - min(ys):         # the row along x
        return [(cx - OLED_W / 2, cy - OLED_H, cx + OLED_W / 2, cy),
                (cx - OLED_W / 2, cy, cx + OLED_W / 2, cy + OLED_H)]
    return [(cx - OLED_H, cy - OLED_W / 2, cx, cy + OLED_W / 2),
            (cx, cy - OLED_W / 2, cx + OLED_H, cy + OLED_W / 2)]


def overlap(a, b):
    """Whether two boxes (x0, y0, x1, y1) overlap (touching is not overlapping)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
