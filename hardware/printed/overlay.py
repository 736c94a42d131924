"""Printable overlays at true size (SVG in millimetres) and assembly views, drawn from the
game layouts (knockboard.layouts): the same geometry the session and the simulator use.

Overlay: every cell in its shape with its space name and cell number, and the game's markings
(KNOCKabout hexes and gutter, the Dodgeball chessboard and centre line, K.O. lattice lines and start
corners, Knock-Off platforms with numbers, arrows and homes). The overlay also carries the cell
board's registration marks (hardware/printed/registration.py), each a cross-hair with a circle a
1.75 mm filament piece passes through. Assembly view: the LED chain through the cells in order and
each key's matrix row/column."""

import math
from xml.sax.saxutils import escape

from ..inputs.game_layouts import registry
from .registration import CROSS, PIN_HOLE
from .solids import circumradius


def _fills(lay):
    """Cell kind -> colour, as the game's registration gives them."""
    return registry().entry(lay.game).fills


def _title(lay):
    return registry().entry(lay.game).title


def _ink(fill):
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#ffffff" if 0.299 * r + 0.587 * g + 0.114 * b < 140 else "#212121"


def _f(v):
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _shape(c, fill, stroke="#424242", width=0.5):
    if c.shape == "hex":
        pts = " ".join(f"{_f(c.x + c.size * math.cos(math.radians(a)))},"
                       f"{_f(c.y + c.size * math.sin(math.radians(a)))}" for a in range(0, 360, 60))
        return f'<polygon points="{pts}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>'
    if c.shape == "square":
        h = c.size / 2
        return (f'<rect x="{_f(c.x - h)}" y="{_f(c.y - h)}" width="{_f(c.size)}" '
                f'height="{_f(c.size)}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>')
    return (f'<circle cx="{_f(c.x)}" cy="{_f(c.y)}" r="{_f(c.size / 2)}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{width}"/>')


def _inner(c):
    """Radius of the circle inside a cell (where an arrow must stop)."""
    if c.shape == "hex":
        return c.size * math.sqrt(3) / 2
    return c.size / 2


def _text(x, y, s, size, fill="#212121", weight="normal", anchor="middle"):
    return (f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(size)}" fill="{fill}" '
            f'font-weight="{weight}" text-anchor="{anchor}" font-family="DejaVu Sans, Arial, '
            f'sans-serif">{escape(s)}</text>')


def _frame(lay, title):
    w, h = lay.width_mm, lay.height_mm
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(w)}mm" height="{_f(h)}mm" '
           f'viewBox="0 0 {_f(w)} {_f(h)}">',
           f'<title>{escape(title)}</title>',
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="4.5" '
           'markerHeight="4.5" markerUnits="userSpaceOnUse" orient="auto">'
           '<path d="M0,0 L10,5 L0,10 z" fill="#37474f"/></marker>'
           '<marker id="chain" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" '
           'markerHeight="3" markerUnits="userSpaceOnUse" orient="auto">'
           '<path d="M0,0 L10,5 L0,10 z" fill="#d32f2f"/></marker></defs>',
           f'<rect x="0" y="0" width="{_f(w)}" height="{_f(h)}" fill="#ffffff"/>',
           f'<rect x="0.25" y="0.25" width="{_f(w - 0.5)}" height="{_f(h - 0.5)}" fill="none" '
           'stroke="#9e9e9e" stroke-width="0.3" stroke-dasharray="3 2"/>',
           _text(6, 9, title, 5, weight="bold", anchor="start")]
    # a 100 mm bar to check the print scale
    y = h - 6
    out.append(f'<path d="M6,{_f(y)} h100 M6,{_f(y - 2)} v4 M56,{_f(y - 1)} v2 M106,{_f(y - 2)} '
               'v4" stroke="#212121" stroke-width="0.4" fill="none"/>')
    out.append(_text(110, y + 1.2, "100 mm: check the print scale", 3.2, anchor="start"))
    return out


def _label_at(lay, x, y, text, size):
    """Where a mark's label goes: right, left, above or below the cross-hair, the first place
    whose box (a character some 0.6 of the font size wide) stays on the board and off every
    cell; (x, y, anchor)."""
    w, gap = 0.6 * size * len(text), CROSS + 0.8
    places = [(x + gap, y + size / 3, "start", (x + gap, y - size / 2, x + gap + w, y + size / 2)),
              (x - gap, y + size / 3, "end", (x - gap - w, y - size / 2, x - gap, y + size / 2)),
              (x, y - gap, "middle", (x - w / 2, y - gap - size, x + w / 2, y - gap)),
              (x, y + gap + size, "middle", (x - w / 2, y + gap, x + w / 2, y + gap + size))]
    for tx, ty, anchor, (x0, y0, x1, y1) in places:
        on_board = x0 > 1 and y0 > 1 and x1 < lay.width_mm - 1 and y1 < lay.height_mm - 1
        if on_board and all(math.hypot(max(x0 - c.x, 0, c.x - x1), max(y0 - c.y, 0, c.y - y1))
                            > circumradius(c) + 0.5 for c in lay.cells):
            return tx, ty, anchor
    return places[0][:3]


def _mark(lay, m, tiled):
    """A registration mark: a cross-hair through the centre of a PIN_HOLE circle (drawn as
    paths: the cells are the overlay's only circles and lines), and which board and mark it
    is."""
    x, y, r = m.x, m.y, PIN_HOLE / 2
    arms = (f"M{_f(x - CROSS)},{_f(y)} L{_f(x + CROSS)},{_f(y)} "
            f"M{_f(x)},{_f(y - CROSS)} L{_f(x)},{_f(y + CROSS)}")
    ring = (f"M{_f(x - r)},{_f(y)} A{_f(r)},{_f(r)} 0 1 0 {_f(x + r)},{_f(y)} "
            f"A{_f(r)},{_f(r)} 0 1 0 {_f(x - r)},{_f(y)} Z")
    label = (f"tile {m.board.rsplit('tile', 1)[1]} " if tiled else "") + f"mark {m.number}"
    tx, ty, anchor = _label_at(lay, x, y, label, 2.2)
    return [f'<g class="registration" data-board="{m.board}">',
            f'<path d="{arms}" stroke="#000000" stroke-width="0.15" fill="none"/>',
            f'<path d="{ring}" stroke="#000000" stroke-width="0.15" fill="none"/>',
            _text(tx, ty, label, 2.2, anchor=anchor), "</g>"]


def overlay_svg(lay, marks=()):
    """The overlay of layout `lay`, with the registration marks `marks` (registration.marks
    of its game; none for a game with no cell board)."""
    name = _title(lay)
    fills = _fills(lay)
    out = _frame(lay, f"{name}: Knockboard overlay ({lay.board_id}, {len(lay.cells)} cells), print "
                      "at 100 %")
    by_space = {c.space: c for c in lay.cells}
    for ln in lay.lines:                          # K.O. lattice lines under the spaces
        if not ln.directed:
            a, b = by_space[ln.a], by_space[ln.b]
            out.append(f'<line x1="{_f(a.x)}" y1="{_f(a.y)}" x2="{_f(b.x)}" y2="{_f(b.y)}" '
                       'stroke="#616161" stroke-width="1.2"/>')
    for c in lay.cells:
        out.append(_shape(c, fills[c.kind]))
    for m in lay.marks:
        if m.kind == "line":                      # Dodgeball's centre line, over the squares
            d = " L".join(f"{_f(x)},{_f(y)}" for x, y in m.points)
            out.append(f'<path d="M{d}" fill="none" stroke="#b71c1c" stroke-width="1.2"/>')
        elif m.kind == "circle":
            (x, y), = m.points[:1]
            out.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(m.size)}" fill="#ffffff" '
                       'stroke="#b71c1c" stroke-width="0.8"/>')
        elif m.kind == "text":
            x, y = m.points[0]
            out.append(_text(x, y, m.text, 4))
    for ln in lay.lines:                          # Knock-Off arrows over the platforms
        if ln.directed:
            a, b = by_space[ln.a], by_space[ln.b]
            dx, dy = b.x - a.x, b.y - a.y
            d = math.hypot(dx, dy)
            if d <= _inner(a) + _inner(b) + 1:
                continue
            ux, uy = dx / d, dy / d
            x1, y1 = a.x + ux * (_inner(a) + 0.8), a.y + uy * (_inner(a) + 0.8)
            x2, y2 = b.x - ux * (_inner(b) + 0.8), b.y - uy * (_inner(b) + 0.8)
            out.append(f'<line x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}" '
                       'stroke="#37474f" stroke-width="0.6" marker-end="url(#arrow)"/>')
    for c in lay.cells:
        ink = _ink(fills[c.kind])
        s = _inner(c)
        if c.label:
            out.append(_text(c.x, c.y + s * 0.25, c.label, s * 0.75, ink, "bold"))
            if c.label != c.space:
                out.append(_text(c.x, c.y - s * 0.5, c.space, s * 0.24, ink))
        else:
            out.append(_text(c.x, c.y + s * 0.12, c.space, s * 0.36, ink, "bold"))
        out.append(_text(c.x, c.y + s * 0.72, f"#{c.index}", s * 0.2, ink))
    tiled = len({m.board for m in marks}) > 1
    for m in marks:
        out += _mark(lay, m, tiled)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def assembly_svg(lay, rows, cols):
    """The cell board seen from the top: cell numbers, matrix row/column of each key, and
    the LED chain in order from DIN (cell 0)."""
    name = _title(lay)
    out = _frame(lay, f"{name}: cell board assembly view ({len(lay.cells)} cells, matrix "
                      f"{rows} rows x {cols} columns); red: LED chain from DIN")
    for c in lay.cells:
        out.append(_shape(c, "#fafafa", "#9e9e9e", 0.4))
    pts = [(c.x, c.y) for c in lay.cells]
    for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        out.append(f'<path d="M{_f(x1)},{_f(y1)} L{_f(mx)},{_f(my)} L{_f(x2)},{_f(y2)}" '
                   'fill="none" stroke="#d32f2f" stroke-width="0.5" marker-mid="url(#chain)"/>')
    first = lay.cells[0]
    out.append(_text(first.x, first.y - _inner(first) - 1.5, "DIN", 3.5, "#d32f2f", "bold"))
    for c in lay.cells:
        s = _inner(c)
        r, k = divmod(c.index, cols)
        out.append(_text(c.x, c.y - s * 0.3, str(c.index), s * 0.42, "#212121", "bold"))
        out.append(_text(c.x, c.y + s * 0.42, f"R{r} C{k}", s * 0.24, "#1565c0"))
    out.append("</svg>")
    return "\n".join(out) + "\n"
