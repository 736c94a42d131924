"""A footprint drawn from its pads (top view, as on the board) with each pad's number and the
catalogue's pin name, for the parts KiCad 6 has no symbol of: a reviewer holds the drawing
against the datasheet's pinout figure (docs/build.md, "Parts against their sources")."""

from xml.sax.saxutils import escape

from . import footprint_geometry

SCALE = 12          # px a mm
FONT = 11           # px
MARGIN = 20         # px


def svg(part):
    """The SVG text of `part`'s footprint, pads labelled "number name"."""
    pads = footprint_geometry.pads(part.footprint, 0.0, 0.0)
    names = {n: name for n, name, _ in part.pins}
    box = footprint_geometry.courtyard(part.footprint, 0.0, 0.0) or (
        min(p.x - p.w / 2 for p in pads), min(p.y - p.h / 2 for p in pads),
        max(p.x + p.w / 2 for p in pads), max(p.y + p.h / 2 for p in pads))
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    label_w = max(len(f"{p.number} {names.get(p.number, '')}") for p in pads) * FONT * 0.62
    ox = MARGIN + label_w - box[0] * SCALE
    oy = MARGIN + 2 * FONT - box[1] * SCALE
    title = f"{part.mpn}: {part.footprint}, top view"
    note = f"Pins: {part.pin_source}"
    width = max((box[2] - box[0]) * SCALE + 2 * (MARGIN + label_w),
                max(len(title), len(note)) * FONT * 0.62 + 2 * MARGIN)
    height = (box[3] - box[1]) * SCALE + 2 * MARGIN + 5 * FONT
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'font-family="DejaVu Sans, sans-serif" font-size="{FONT}">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{MARGIN}" y="{MARGIN}" font-weight="bold">{escape(title)}</text>',
           f'<rect x="{ox + box[0] * SCALE:.1f}" y="{oy + box[1] * SCALE:.1f}" '
           f'width="{(box[2] - box[0]) * SCALE:.1f}" height="{(box[3] - box[1]) * SCALE:.1f}" '
           f'fill="none" stroke="#999" stroke-dasharray="4 3"/>']
    for p in sorted(pads, key=lambda p: (p.y, p.x)):
        if not p.number:
            continue
        x, y = ox + p.x * SCALE, oy + p.y * SCALE
        w, h = p.w * SCALE, p.h * SCALE
        r = p.corner * SCALE
        colour = "#c62828" if p.number == "1" else "#b8860b"
        out.append(f'<rect x="{x - w / 2:.1f}" y="{y - h / 2:.1f}" width="{w:.1f}" '
                   f'height="{h:.1f}" rx="{r:.1f}" fill="{colour}"/>')
        label = escape(f"{p.number} {names.get(p.number, '?')}")
        # the label stands outside the part: left of a pad left of the centre, else right
        # (above or below for pads in one column with the centre)
        if abs(p.x - cx) >= abs(p.y - cy) or abs(p.x - cx) > 0.5:
            anchor, tx, ty = (("end", x - w / 2 - 3, y + FONT / 3) if p.x < cx
                              else ("start", x + w / 2 + 3, y + FONT / 3))
        else:
            anchor, tx, ty = (("middle", x, y - h / 2 - 3) if p.y < cy
                              else ("middle", x, y + h / 2 + FONT))
        out.append(f'<text x="{tx:.1f}" y="{ty:.1f}" text-anchor="{anchor}">{label}</text>')
    out.append(f'<text x="{MARGIN}" y="{height - MARGIN / 2:.0f}" fill="#555">'
               f'{escape(note)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
