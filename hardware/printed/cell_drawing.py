"""One cell drawn to scale: a section through the key and the LED, and the view from the top, for
the smallest cell of any game (Knock-Off's 22 mm platform). Every size comes from
hardware/placement/cell_geometry.py, hardware/printed/cell_stack.py and hardware/printed/solids.py,
so the drawing is the parts the code makes. Written to hardware/out/cell.svg by `python3 -m
hardware.build`."""

from ..inputs.game_layouts import get_layout
from ..placement import cell_geometry as G
from . import cell_stack as S
from . import solids as P

PX = 12.0                 # pixels per millimetre
GAME = "knockoff"         # the smallest cells: 22 mm

COLOURS = {"pcb": "#2e7d32", "key": "#616161", "actuator": "#9e9e9e", "led": "#fff59d",
           "diode": "#37474f", "cap100n": "#bcaaa4", "cap": "#e1f5fe", "frame": "#ffcc80",
           "overlay": "#7e57c2", "light": "#fbc02d", "piece": "#90a4ae"}


def _f(v):
    return f"{v:.2f}".rstrip("0").rstrip(".")


class Canvas:
    """Millimetre drawing with its origin at (ox, oy) pixels; y (or z) up."""

    def __init__(self, ox, oy):
        self.ox, self.oy, self.items = ox, oy, []

    def x(self, v):
        return self.ox + v * PX

    def y(self, v):
        return self.oy - v * PX

    def rect(self, x0, z0, x1, z1, fill, stroke="#212121", extra=""):
        self.items.append(f'<rect x="{_f(self.x(min(x0, x1)))}" y="{_f(self.y(max(z0, z1)))}" '
                          f'width="{_f(abs(x1 - x0) * PX)}" height="{_f(abs(z1 - z0) * PX)}" '
                          f'fill="{fill}" stroke="{stroke}" stroke-width="1" {extra}/>')

    def circle(self, cx, cy, r, fill="none", stroke="#212121", extra=""):
        self.items.append(f'<circle cx="{_f(self.x(cx))}" cy="{_f(self.y(cy))}" '
                          f'r="{_f(r * PX)}" fill="{fill}" stroke="{stroke}" {extra}/>')

    def line(self, x0, z0, x1, z1, stroke="#212121", extra=""):
        self.items.append(f'<line x1="{_f(self.x(x0))}" y1="{_f(self.y(z0))}" '
                          f'x2="{_f(self.x(x1))}" y2="{_f(self.y(z1))}" stroke="{stroke}" '
                          f'{extra}/>')

    def text(self, x, z, s, anchor="start", size=11):
        self.items.append(f'<text x="{_f(self.x(x))}" y="{_f(self.y(z))}" font-size="{size}" '
                          f'font-family="sans-serif" text-anchor="{anchor}">{s}</text>')


def _part_x(name):
    """(x0, x1, height) of a part's body along the section line (y = 0)."""
    (ox, _), rot, (w, h), height = G.PARTS[name]
    if rot % 180:
        w, h = h, w
    return ox - w / 2, ox + w / 2, height


def section(c, radius, cap_r):
    """The cell cut along y = 0 (through the key and the LED), the board's edge of view at
    +-half the neighbour pitch."""
    half = radius + 4.0
    c.rect(-half, -1.6, half, 0, COLOURS["pcb"])
    x0, x1, _ = _part_x("key")
    c.rect(x0, 0, x1, S.KEY_BODY_HEIGHT, COLOURS["key"])
    c.rect(-S.ACTUATOR_D / 2, S.KEY_BODY_HEIGHT, S.ACTUATOR_D / 2, G.KEY_HEIGHT,
           COLOURS["actuator"])
    x0, x1, h = _part_x("led")
    c.rect(x0, 0, x1, h, COLOURS["led"])
    x0, x1, h = _part_x("diode")
    c.rect(x0, 0, x1, h, COLOURS["diode"])
    lx = G.LED_OFFSET[0]
    for dx in (-4.0, -1.5, 1.5, 4.0):           # the LED's light, spreading under the cap
        c.line(lx, G.LED_HEIGHT, lx + dx, S.PLATE_BOTTOM, COLOURS["light"],
               'stroke-width="1.5" stroke-dasharray="4 3"')
    for s in (-1, 1):                           # the frame's walls
        c.rect(s * radius, 0, s * half, S.FRAME_TOP, COLOURS["frame"])
    plate = (-cap_r, S.PLATE_BOTTOM, cap_r, S.CAP_TOP)
    c.rect(*plate, COLOURS["cap"])
    for s in (-1, 1):
        c.rect(s * cap_r, S.SKIRT_BOTTOM, s * (cap_r - S.SKIRT), S.PLATE_BOTTOM, COLOURS["cap"])
    c.rect(-S.STEM_D / 2, S.STEM_BOTTOM, S.STEM_D / 2, S.PLATE_BOTTOM, COLOURS["cap"])
    top = S.CAP_TOP
    c.items.append(f'<polyline points="{_f(c.x(-half))},{_f(c.y(S.FRAME_TOP))} '
                   f'{_f(c.x(-radius))},{_f(c.y(S.FRAME_TOP))} {_f(c.x(-cap_r))},{_f(c.y(top))} '
                   f'{_f(c.x(cap_r))},{_f(c.y(top))} {_f(c.x(radius))},{_f(c.y(S.FRAME_TOP))} '
                   f'{_f(c.x(half))},{_f(c.y(S.FRAME_TOP))}" fill="none" '
                   f'stroke="{COLOURS["overlay"]}" stroke-width="3"/>')
    c.rect(-4, top + 0.2, 4, top + 8, COLOURS["piece"], extra='stroke-dasharray="5 3" '
           'fill-opacity="0.5"')
    c.text(0, top + 4, "piece", "middle")
    labels = [(S.CAP_TOP, f"cap top {S.CAP_TOP:.1f}"),
              (S.FRAME_TOP, f"frame, overlay {S.FRAME_TOP:.1f}"),
              (S.PLATE_BOTTOM, f"cap plate {S.PLATE_BOTTOM:.1f}"),
              (G.KEY_HEIGHT, f"actuator {G.KEY_HEIGHT:.1f}"),
              (S.SKIRT_BOTTOM, f"skirt {S.SKIRT_BOTTOM:.1f}"),
              (G.LED_HEIGHT, f"LED {G.LED_HEIGHT:.1f}"), (0, "board 0")]
    last = None
    for z, label in labels:
        ty = z if last is None else min(z, last - 1.1)
        c.line(half, z, half + 1.5, ty, "#757575")
        c.text(half + 1.7, ty - 0.3, label)
        last = ty
    c.text(-half, -3.2, f"Section through the key and the LED (z in mm above the board), "
                        f"{GAME} cell {2 * radius:g} mm")


def top_view(c, radius, cap_r):
    half = radius + 4.0
    c.rect(-half, -half, half, half, COLOURS["frame"])
    c.circle(0, 0, radius, "#ffffff")
    c.circle(0, 0, cap_r, COLOURS["cap"], extra='fill-opacity="0.6" stroke-dasharray="6 3"')
    c.circle(0, 0, S.PART_KEEPOUT_R, stroke="#9e9e9e", extra='stroke-dasharray="2 3"')
    for name, fill in (("key", COLOURS["key"]), ("led", COLOURS["led"]),
                       ("diode", COLOURS["diode"]), ("cap", COLOURS["cap100n"])):
        (x0, y0), (x1, y1) = _extent(name)
        c.rect(x0, -y0, x1, -y1, fill)          # KiCad's y points down, the drawing's up
    c.circle(0, 0, S.ACTUATOR_D / 2, COLOURS["actuator"])
    c.circle(0, 0, S.STEM_D / 2, extra='stroke-dasharray="3 2"')
    lx, ly = G.LED_OFFSET
    c.text(lx, -ly - 3.2, "LED", "middle")
    c.text(0, -4.6, "key", "middle")
    c.text(-6, 2.2, "diode", "middle")
    c.text(6, -6.5, "100 nF", "middle", 10)
    c.text(0, radius + 1.2, f"overlay cell / frame opening {2 * radius:g} mm", "middle", 10)
    c.text(0, -radius - 2.6, f"cap {2 * cap_r:.1f} mm (dashed), parts within "
                             f"{S.PART_KEEPOUT_R:g} mm (dotted)", "middle", 10)
    c.text(-half, -half - 2.2, "Top view (the overlay taken off)")


def _extent(name):
    xs = [x for x, _ in G.corners(name)]
    ys = [y for _, y in G.corners(name)]
    return (min(xs), min(ys)), (max(xs), max(ys))


def svg():
    layout = get_layout(GAME)
    cell = min(layout.cells, key=lambda c: c.size)
    inset = P.wall_inset(layout)
    radius = cell.size / 2 - inset
    cap_r = radius - S.CLEARANCE
    half = radius + 4.0
    w = (4 * half + 40) * PX
    h = (2 * half + 10) * PX
    sec = Canvas((half + 2) * PX, (half + 4) * PX)
    section(sec, radius, cap_r)
    top = Canvas((3 * half + 20) * PX, (half + 5) * PX)
    top_view(top, radius, cap_r)
    body = "\n".join(sec.items + top.items)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(w)}" height="{_f(h)}" '
            f'viewBox="0 0 {_f(w)} {_f(h)}">\n<rect width="100%" height="100%" fill="#ffffff"/>\n'
            f'{body}\n</svg>\n')
