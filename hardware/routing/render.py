"""Pictures of a routed board, both sides, drawn from its plan (hardware/placement/plan.py) with
Pillow, for docs/build.md: the top as a maker sees it (parts' outlines, pads, top tracks),
the bottom mirrored as seen from below (the ground pour, bottom tracks, through-hole pads)."""

from PIL import Image, ImageDraw

MAX_PX = 1000
BOARD = (18, 84, 44)
POUR = (58, 122, 70)
CLEAR = (12, 60, 30)
TRACK = (196, 160, 60)
PAD = (230, 210, 140)
OUTLINE = (235, 235, 235)
HOLE = (20, 20, 20)


def render(plan, side):
    """A PIL image of the board's top ("top") or bottom ("bottom") side."""
    scale = MAX_PX / max(plan.width, plan.height)
    w, h = round(plan.width * scale), round(plan.height * scale)
    bottom = side == "bottom"
    layer = "B.Cu" if bottom else "F.Cu"
    img = Image.new("RGB", (w, h), POUR if bottom else BOARD)
    d = ImageDraw.Draw(img)

    def pt(x, y):
        return ((plan.width - x) * scale if bottom else x * scale, y * scale)

    def line(a, b, width, colour):
        d.line([pt(*a), pt(*b)], fill=colour, width=max(1, round(width * scale)))

    tracks = [t for t in plan.tracks if t[1] == layer]
    if bottom:            # the pour keeps 0.2 mm from other nets' copper
        for net, _, x1, y1, x2, y2, wd in tracks:
            if net != "GND":
                line((x1, y1), (x2, y2), wd + 0.5, CLEAR)
    for net, _, x1, y1, x2, y2, wd in tracks:
        line((x1, y1), (x2, y2), wd, TRACK)
    for f in plan.footprints:
        for p in f.pads():
            if layer in p.layers:
                a, b = pt(p.x - p.w / 2, p.y - p.h / 2), pt(p.x + p.w / 2, p.y + p.h / 2)
                d.rectangle([min(a[0], b[0]), a[1], max(a[0], b[0]), b[1]], fill=PAD)
            if p.drill:
                x, y = pt(p.x, p.y)
                r = p.drill / 2 * scale
                d.ellipse([x - r, y - r, x + r, y + r], fill=HOLE)
        if f.flip == bottom:
            box = f.courtyard()
            if box:
                a, b = pt(box[0], box[1]), pt(box[2], box[3])
                d.rectangle([min(a[0], b[0]), a[1], max(a[0], b[0]), b[1]], outline=OUTLINE)
    for _, x, y in plan.vias:
        cx, cy = pt(x, y)
        r = 0.3 * scale
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=PAD)
    for x, y, dia in plan.holes:
        cx, cy = pt(x, y)
        r = dia / 2 * scale
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=HOLE, outline=OUTLINE)
    for x, y in plan.marks:
        cx, cy = pt(x, y)
        r = 2.5 * scale
        d.line([cx - r, cy, cx + r, cy], fill=OUTLINE)
        d.line([cx, cy - r, cx, cy + r], fill=OUTLINE)
    return img


def save(plan, directory):
    """docs/pcb/NAME-top.png and NAME-bottom.png; returns their paths."""
    import os
    os.makedirs(directory, exist_ok=True)
    out = []
    for side in ("top", "bottom"):
        path = os.path.join(directory, f"{plan.name}-{side}.png")
        render(plan, side).quantize(colors=16).save(path, optimize=True)
        out.append(path)
    return out
