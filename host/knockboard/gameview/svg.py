"""The picture's shapes as an SVG document (`knockboard export ID --svg DIR`)."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr


def to_svg(shapes, width, height) -> str:
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{round(width)}" '
           f'height="{round(height)}" viewBox="0 0 {round(width)} {round(height)}" '
           'font-family="DejaVu Sans, Verdana, sans-serif">']
    out += [_element(s) for s in shapes]
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _paint(shape) -> str:
    fill = shape.fill or "none"
    stroke = f' stroke="{shape.outline}" stroke-width="{shape.width:g}"' if shape.outline else ""
    return f'fill="{fill}"{stroke}'


def _element(shape) -> str:
    p = [round(v, 1) for v in shape.points]
    if shape.kind == "polygon":
        pts = " ".join(f"{p[k]:g},{p[k + 1]:g}" for k in range(0, len(p), 2))
        return f'<polygon points="{pts}" {_paint(shape)}/>'
    if shape.kind == "oval":
        cx, cy = (p[0] + p[2]) / 2, (p[1] + p[3]) / 2
        rx, ry = (p[2] - p[0]) / 2, (p[3] - p[1]) / 2
        return f'<ellipse cx="{cx:g}" cy="{cy:g}" rx="{rx:g}" ry="{ry:g}" {_paint(shape)}/>'
    if shape.kind == "line":
        return (f'<line x1="{p[0]:g}" y1="{p[1]:g}" x2="{p[2]:g}" y2="{p[3]:g}" '
                f'stroke="{shape.fill}" stroke-width="{shape.width:g}" '
                'stroke-linecap="round"/>')
    if shape.kind == "text":
        anchor = "middle" if shape.anchor == "center" else "start"
        weight = ' font-weight="bold"' if shape.bold else ""
        return (f'<text x="{p[0]:g}" y="{p[1]:g}" font-size="{shape.size}" fill="{shape.fill}" '
                f'text-anchor={quoteattr(anchor)} dominant-baseline="middle"{weight}>'
                f'{escape(shape.text)}</text>')
    raise ValueError(f"unknown shape {shape.kind!r}")
