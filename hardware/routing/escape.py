"""Escape stubs for pads the router's grid cannot reach: a fine-pitch pad (TSOT-23-8's 0.65 mm
pitch) lies between grid lines 0.5 mm apart, and every grid point on it is within PAD_HALO
of its neighbours. Such a pad gets a short track from its centre, straight or with one bend
where it leaves the pad's end, to the nearest grid point its net may use; the track's
clearance to every other net's pad, hole and stub is checked here by geometry (the grid
cannot), and hardware/routing/router.py then keeps other nets' tracks off the grid points near it.
Pure geometry: lengths in mm, a polyline is [(x, y), ...]."""

import math

from ..inputs import fab_rules

CLEAR = fab_rules.CLEARANCE + fab_rules.TRACK / 2 + 0.01       # stub centre line to other copper
STUB_CLEAR = fab_rules.CLEARANCE + fab_rules.TRACK + 0.01      # between two stubs' centre lines
# farthest grid point tried, from the pad's centre
REACH = 2.5
BEND_STEP = 0.1


def point_seg(px, py, a, b):
    """Distance from (px, py) to the segment a-b."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / n))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def _crosses(a, b, c, d):
    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def seg_seg(a, b, c, d):
    """Distance between segments a-b and c-d."""
    if _crosses(a, b, c, d):
        return 0.0
    return min(point_seg(*a, c, d), point_seg(*b, c, d), point_seg(*c, a, b), point_seg(*d, a, b))


def seg_rect(a, b, rect):
    """Distance from segment a-b to the rectangle (x0, y0, x1, y1), 0 if they meet."""
    x0, y0, x1, y1 = rect
    if any(x0 <= p[0] <= x1 and y0 <= p[1] <= y1 for p in (a, b)):
        return 0.0
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    edges = list(zip(corners, corners[1:] + corners[:1]))
    return min(seg_seg(a, b, c, d) for c, d in edges)


def segments(line):
    return list(zip(line, line[1:]))


def pad_rect(pad):
    return (pad.x - pad.w / 2, pad.y - pad.h / 2, pad.x + pad.w / 2, pad.y + pad.h / 2)


def bends(pad, toward):
    """Where a stub may bend: None (straight) and points on the pad's long axis from its end
    outward, on the side of `toward`."""
    out = [None]
    horizontal = pad.w >= pad.h
    half = (pad.w if horizontal else pad.h) / 2
    sign = 1 if (toward[0] - pad.x if horizontal else toward[1] - pad.y) >= 0 else -1
    for k in range(11):
        t = sign * (half + k * BEND_STEP)
        out.append((pad.x + t, pad.y) if horizontal else (pad.x, pad.y + t))
    return out


def clear(line, rects, holes, stubs):
    """Whether the polyline keeps its clearance to other nets' pad rectangles, holes
    ((x, y, radius of copper-free area)) and stubs (polylines)."""
    for a, b in segments(line):
        if any(seg_rect(a, b, r) < CLEAR for r in rects):
            return False
        if any(point_seg(x, y, a, b) < r + fab_rules.TRACK / 2 for x, y, r in holes):
            return False
        if any(seg_seg(a, b, c, d) < STUB_CLEAR for s in stubs for c, d in segments(s)):
            return False
    return True


def length(line):
    return sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in segments(line))


def outward(pad, body, points):
    """The points on the far side of the pad from its part's centre `body` (a stub that ends
    between two rows of pads leaves its track no way out), or all if there are none."""
    horizontal = pad.w >= pad.h
    k = 0 if horizontal else 1
    side = (pad.x, pad.y)[k] - body[k]
    half = (pad.w if horizontal else pad.h) / 2
    out = [p for p in points if (p[k] - (pad.x, pad.y)[k]) * side > 0
           and abs(p[k] - body[k]) > abs(side) + half]
    return out or points


def shortest(pad, points, ok):
    """The shortest polyline from the pad's centre to one of `points` (grid points (x, y) its
    net may use) that ok(polyline) accepts, or None."""
    best = None
    centre = (pad.x, pad.y)
    for p in sorted(points, key=lambda q: math.hypot(q[0] - pad.x, q[1] - pad.y)):
        if best is not None and math.hypot(p[0] - pad.x, p[1] - pad.y) >= best[0]:
            break
        for bend in bends(pad, p):
            line = [centre, p] if bend is None else [centre, bend, p]
            n = length(line)
            if (best is None or n < best[0]) and ok(line):
                best = (n, line)
    return best[1] if best else None
