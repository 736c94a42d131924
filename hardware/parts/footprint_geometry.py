"""The copper and courtyard of a footprint placed on a board, read from its .kicad_mod file
(hardware/parts/libraries.py finds it), for the placer and the router: pad rectangles in
board coordinates, drill holes, and the courtyard's bounding box. KiCad's conventions:
millimetres, y down, rotation counter-clockwise as seen from the top; a footprint on the
bottom side is mirrored left-right before it is rotated."""

import math
from dataclasses import dataclass
from functools import lru_cache

from . import libraries
from .sexp import parse_sexp


@dataclass(frozen=True)
class Pad:
    number: str
    kind: str            # "smd", "thru_hole", "np_thru_hole"
    x: float             # centre, board coordinates
    y: float
    w: float             # axis-aligned size on the board (rotations are multiples of 90)
    h: float
    drill: float         # 0 for SMD
    layers: tuple        # copper layers: ("F.Cu",), ("B.Cu",) or both
    # corner radius: 0 for a rectangle, half the short side for a circle or oval
    corner: float = 0.0

    def covers(self, x, y, inset=0.02):
        """Whether the point (x, y) lies on the pad's copper, `inset` mm inside its edge."""
        r = self.corner
        dx = max(abs(x - self.x) - (self.w / 2 - r), 0.0)
        dy = max(abs(y - self.y) - (self.h / 2 - r), 0.0)
        if r <= 0:
            return dx == 0 and dy == 0 and abs(x - self.x) <= self.w / 2 - inset \
                and abs(y - self.y) <= self.h / 2 - inset
        return math.hypot(dx, dy) <= r - inset


def _find(node, key):
    return [x for x in node[1:] if isinstance(x, list) and x and x[0] == key]


@lru_cache(maxsize=None)
def _read(footprint):
    with open(libraries.path(footprint)) as f:
        root = parse_sexp(f.read())
    pads = []
    for p in _find(root, "pad"):
        at = _find(p, "at")[0]
        size = _find(p, "size")[0]
        drill = _find(p, "drill")
        layers = _find(p, "layers")[0][1:]
        rot = float(at[3]) if len(at) > 3 else 0.0
        w, h = float(size[1]), float(size[2])
        ratio = _find(p, "roundrect_rratio")
        corner = {"circle": min(w, h) / 2, "oval": min(w, h) / 2,
                  "roundrect": min(w, h) * float(ratio[0][1]) if ratio else 0.0}.get(p[3], 0.0)
        pads.append((p[1], p[2], corner, float(at[1]), float(at[2]), rot, w, h,
                     float(drill[0][1]) if drill and len(drill[0]) > 1 and drill[0][1] != "oval"
                     else (float(drill[0][2]) if drill else 0.0),
                     tuple(ly for ly in layers)))
    return tuple(pads), _box(root, ("F.CrtYd",)), _box(root, ("F.CrtYd", "F.SilkS"))


def _box(root, layers):
    """The bounding box of the graphic lines, rectangles, arcs and circles on `layers`
    (silkscreen grown by half its line width), or None."""
    xs, ys = [], []
    for kind in ("fp_line", "fp_rect", "fp_arc"):
        for g in _find(root, kind):
            layer = _find(g, "layer")[0][1]
            if layer in layers:
                w = _half_width(g, layer)
                for k in ("start", "mid", "end"):
                    for pt in _find(g, k):
                        xs += [float(pt[1]) - w, float(pt[1]) + w]
                        ys += [float(pt[2]) - w, float(pt[2]) + w]
    for g in _find(root, "fp_circle"):
        layer = _find(g, "layer")[0][1]
        if layer in layers:
            c, e = _find(g, "center")[0], _find(g, "end")[0]
            r = (math.hypot(float(e[1]) - float(c[1]), float(e[2]) - float(c[2]))
                 + _half_width(g, layer))
            xs += [float(c[1]) - r, float(c[1]) + r]
            ys += [float(c[2]) - r, float(c[2]) + r]
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


def _half_width(g, layer):
    w = _find(g, "width")
    return float(w[0][1]) / 2 if w and layer == "F.SilkS" else 0.0


def _place(x, y, ox, oy, rot, flip):
    """A footprint-local point (x, y) on a board: mirrored if on the bottom, rotated, moved."""
    if flip:
        y = -y
    a = math.radians(rot)
    c, s = round(math.cos(a), 9), round(math.sin(a), 9)
    return ox + x * c + y * s, oy - x * s + y * c


def _copper(layers, flip):
    cu = set()
    for ly in layers:
        if ly in ("*.Cu", "F&B.Cu"):
            cu |= {"F.Cu", "B.Cu"}
        elif ly in ("F.Cu", "B.Cu"):
            cu.add({"F.Cu": "B.Cu", "B.Cu": "F.Cu"}[ly] if flip else ly)
    return tuple(sorted(cu, reverse=True))


def pads(footprint, ox, oy, rot=0.0, flip=False):
    """[Pad] of `footprint` placed at (ox, oy), rotated `rot` degrees, on the bottom if flip."""
    out = []
    for num, kind, corner, x, y, prot, w, h, drill, layers in _read(footprint)[0]:
        px, py = _place(x, y, ox, oy, rot, flip)
        if round((rot + prot) / 90) % 2:
            w, h = h, w
        out.append(Pad(num, kind, round(px, 4), round(py, 4), w, h, drill, _copper(layers, flip),
                       corner))
    return out


def courtyard(footprint, ox, oy, rot=0.0, flip=False, silk=False):
    """The courtyard's bounding box (x0, y0, x1, y1) on the board, or None; with silk, the
    box of the courtyard and the silkscreen together (a pin-1 mark may stand outside the
    courtyard, and two parts' silkscreen must not touch)."""
    c = _read(footprint)[2 if silk else 1]
    if c is None:
        return None
    pts = [_place(x, y, ox, oy, rot, flip) for x in (c[0], c[2]) for y in (c[1], c[3])]
    return (min(p[0] for p in pts), min(p[1] for p in pts),
            max(p[0] for p in pts), max(p[1] for p in pts))
