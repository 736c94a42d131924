"""The silkscreen a fab prints well and an assembler can follow: every silk line at least
MIN_LINE mm wide (KiCad's libraries draw 0.12 mm, under what JLCPCB prints reliably), and each
part's reference designator on the silkscreen wherever it fits clear of pads, other silk and
the board's edge (the assembly steps in docs/build.md go by designator); a reference with
no room stays on the fabrication layer. Runs under Debian's /usr/bin/python3 with pcbnew,
imported by hardware/kicad/board_file.py (standard library and pcbnew only)."""

import pcbnew

MM = pcbnew.FromMM
MIN_LINE = 0.15            # JLCPCB: silkscreen line width 0.15 mm or more
REF_HEIGHTS = (1.0, 0.8)   # text height tried, larger first; JLCPCB prints 0.8 mm at this stroke
REF_STROKE = 0.15
PAD_GAP = 0.25             # silk from a pad's copper: the mask opening lies around the pad
SILK_GAP = 0.15            # from other silkscreen
EDGE_GAP = 0.5             # from the board's edge (the fab's copper-to-edge rule, kept for ink too)
STEP, SLIDE = 0.25, 2.0     # a reference slides outward from its part in these steps, this far
CELL = MM(4)               # the obstacle index's bucket size


def _silk_layers():
    return (pcbnew.F_SilkS, pcbnew.B_SilkS)


def widen_lines(board):
    """Silk lines and texts of every footprint and of the board itself to at least MIN_LINE."""
    least = MM(MIN_LINE)
    items = list(board.GetDrawings())
    for m in board.GetFootprints():
        items += list(m.GraphicalItems())
    for it in items:
        if it.GetLayer() not in _silk_layers():
            continue
        if isinstance(it, pcbnew.EDA_TEXT):
            if it.GetTextThickness() < least:
                it.SetTextThickness(least)
        elif not it.IsFilled() and it.GetWidth() < least:
            it.SetWidth(least)


class _Obstacles:
    """Rectangles (x0, y0, x1, y1) in board units on one side, bucketed for a quick overlap test."""

    def __init__(self):
        self.buckets = {}

    def add(self, r):
        for key in self._keys(r):
            self.buckets.setdefault(key, []).append(r)

    def hits(self, r):
        return any(r[0] < o[2] and o[0] < r[2] and r[1] < o[3] and o[1] < r[3]
                   for key in self._keys(r) for o in self.buckets.get(key, ()))

    @staticmethod
    def _keys(r):
        return [(i, j) for i in range(int(r[0] // CELL), int(r[2] // CELL) + 1)
                for j in range(int(r[1] // CELL), int(r[3] // CELL) + 1)]


def _box(item, grow=0):
    b = item.GetBoundingBox()
    g = MM(grow)
    return (b.GetLeft() - g, b.GetTop() - g, b.GetRight() + g, b.GetBottom() + g)


def _obstacles(board, skip_refs):
    """Per side (0 top, 1 bottom): the pads, holes and silkscreen a reference must keep clear of."""
    sides = (_Obstacles(), _Obstacles())
    for m in board.GetFootprints():
        for p in m.Pads():
            for side, cu in enumerate((pcbnew.F_Cu, pcbnew.B_Cu)):
                if p.IsOnLayer(cu) or p.GetDrillSizeX() > 0:
                    sides[side].add(_box(p, PAD_GAP))
        texts = [] if m.GetReference() in skip_refs else [m.Reference()]
        for it in list(m.GraphicalItems()) + texts + [m.Value()]:
            if it.GetLayer() in _silk_layers() and (not isinstance(it, pcbnew.EDA_TEXT)
                                                    or it.IsVisible()):
                sides[_silk_layers().index(it.GetLayer())].add(_box(it, SILK_GAP))
    for it in board.GetDrawings():
        if it.GetLayer() in _silk_layers():
            sides[_silk_layers().index(it.GetLayer())].add(_box(it, SILK_GAP))
    return sides


def _candidates(m, text):
    """Centres to try for `text` by footprint m: just outside it above, below, right and
    left, each stepping outward up to SLIDE mm (seen once the part is fitted), then on its
    body's centre."""
    fb = m.GetBoundingBox(False, False)
    tb = text.GetBoundingBox()
    hw, hh = tb.GetWidth() // 2, tb.GetHeight() // 2
    cx, cy = fb.GetCenter().x, fb.GetCenter().y
    step = MM(STEP)
    for k in range(int(SLIDE / STEP) + 1):
        d = k * step
        yield cx, fb.GetTop() - hh - d
        yield cx, fb.GetBottom() + hh + d
        yield fb.GetRight() + hw + d, cy
        yield fb.GetLeft() - hw - d, cy
    yield cx, cy


def place_references(board, keep_off=("FID",)):
    """Move each footprint's reference onto its side's silkscreen at the first spot where it
    fits; a reference that fits nowhere goes to the fabrication layer. Footprints whose
    reference starts with one of `keep_off` are left alone. Returns (on silk, on fab)."""
    edge = board.GetBoardEdgesBoundingBox()
    e = MM(EDGE_GAP)
    inside = (edge.GetLeft() + e, edge.GetTop() + e, edge.GetRight() - e, edge.GetBottom() - e)
    movable = [m for m in board.GetFootprints() if not m.GetReference().startswith(keep_off)]
    sides = _obstacles(board, {m.GetReference() for m in movable})
    placed, left = 0, 0
    for m in sorted(movable, key=lambda m: m.GetReference()):
        bottom = m.IsFlipped()
        t = m.Reference()
        t.SetLayer(pcbnew.B_SilkS if bottom else pcbnew.F_SilkS)
        t.SetMirrored(bottom)
        t.SetKeepUpright(True)
        t.SetTextThickness(MM(REF_STROKE))
        t.SetVisible(True)
        spot = None
        for height in REF_HEIGHTS:
            t.SetTextSize(pcbnew.wxSize(MM(height), MM(height)))
            t.SetTextAngle(-m.GetOrientation())     # relative to the footprint: level on the board
            for x, y in _candidates(m, t):
                t.SetPosition(pcbnew.wxPoint(int(x), int(y)))
                r = _box(t)
                if (r[0] >= inside[0] and r[1] >= inside[1]
                        and r[2] <= inside[2] and r[3] <= inside[3]
                        and not sides[bottom].hits(_box(t, SILK_GAP))):
                    spot = r
                    break
            if spot:
                break
        if spot:
            sides[bottom].add(spot)
            placed += 1
        else:
            t.SetLayer(pcbnew.B_Fab if bottom else pcbnew.F_Fab)
            left += 1
    return placed, left
