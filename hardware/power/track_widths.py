"""The check that the LEDs' current has copper wide enough for it
(hardware/schematic/led_current.py): one net's copper as KiCad reads it from a routed board
(hardware/kicad/copper.py, through hardware/power/rails.py), every track of it led_current.TRACK_MM
wide or allowed as a neck or a branch. Apart from hardware/schematic/led_current.py on purpose: the
boards' inputs hash is to cover what the router reads, not this reader."""

import math

from ..schematic.led_current import MAX_NECK_MM, TRACK_MM


def _inside(x, y, ring, tol=1e-3):
    """Whether (x, y) lies in the polygon `ring` [(x, y)] or within tol of its edge."""
    n = len(ring)
    hit = False
    for i in range(n):
        (ax, ay), (bx, by) = ring[i], ring[(i + 1) % n]
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            hit = not hit
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / ((dx * dx + dy * dy) or 1.0)))
        if math.hypot(x - ax - t * dx, y - ay - t * dy) <= tol:
            return True
    return hit


def _on_track(x, y, t, tol=1e-3):
    """Whether (x, y) lies on track t's copper (within its half width of its centre line)."""
    _, ax, ay, bx, by, w = t
    dx, dy = bx - ax, by - ay
    s = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / ((dx * dx + dy * dy) or 1.0)))
    return math.hypot(x - ax - s * dx, y - ay - s * dy) <= w / 2 + tol


def faults(cu, path=None, width=TRACK_MM, max_neck=MAX_NECK_MM):
    """What in one net's copper (hardware/kicad/copper.py's form) is narrower than `width` and
    allowed by neither rule: [(description, [its tracks])]. Tracks narrower than `width` are
    joined into runs where their ends meet (on a layer, or through a via), but not on the
    full-width copper, which joins everything it touches. A run is allowed as
    - a neck: it touches exactly one pad, meets the full-width copper and is at most
      `max_neck` mm long; or
    - a branch: every pad it touches is off the LEDs' way (not in `path`, {"ref.pin"}:
      path_pins; None: every pad is on it) and it meets the full-width copper at one point at
      most, so none of the LEDs' current can flow along it.
    A run between two pads of the LEDs' way (the current passes along it), or a longer one,
    is a fault."""
    vias = {(round(x, 3), round(y, 3)) for x, y, _ in cu["vias"]}
    wide = [t for t in cu["tracks"] if t[5] >= width - 1e-6]
    narrow = [t for t in cu["tracks"] if t[5] < width - 1e-6]

    def on_wide(ly, x, y):
        return any(_on_track(x, y, t) for t in wide if t[0] == ly
                   or (round(x, 3), round(y, 3)) in vias)
    out = []
    for run in _narrow_runs(narrow, vias, on_wide):
        what = _run_fault(cu, run, vias, on_wide, path, max_neck)
        if what:
            out.append((what, run))
    return out


def _narrow_runs(narrow, vias, on_wide):
    """The narrow tracks joined into runs where their ends meet (on a layer, or through a
    via), except on the full-width copper."""
    key = lambda ly, x, y: (ly, round(x, 3), round(y, 3))      # noqa: E731
    parent = list(range(len(narrow)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    ends = {}
    for i, (ly, x1, y1, x2, y2, _) in enumerate(narrow):
        for x, y in ((x1, y1), (x2, y2)):
            if on_wide(ly, x, y):
                continue
            k = key("*" if (round(x, 3), round(y, 3)) in vias else ly, x, y)
            if k in ends:
                parent[find(i)] = find(ends[k])
            ends.setdefault(k, i)
    runs = {}
    for i in range(len(narrow)):
        runs.setdefault(find(i), []).append(narrow[i])
    return list(runs.values())


def _run_fault(cu, run, vias, on_wide, path, max_neck):
    """Why one run of narrow tracks is a fault, or None if it is an allowed neck or branch."""
    pts = [(t[0], x, y) for t in run for x, y in ((t[1], t[2]), (t[3], t[4]))]
    contacts = {(round(x, 3), round(y, 3)) for ly, x, y in pts if on_wide(ly, x, y)}
    pads = _run_pads(cu, pts, contacts, vias)
    length = sum(math.hypot(t[3] - t[1], t[4] - t[2]) for t in run)
    if len(pads) == 1 and contacts and length <= max_neck + 1e-6:
        return None
    if path is not None and pads and not pads & set(path) and len(contacts) <= 1:
        return None
    return (f"{min(t[5] for t in run):g} mm for {length:.2f} mm from ({run[0][1]:.2f}, "
            f"{run[0][2]:.2f}) on {run[0][0]}, touching {', '.join(sorted(pads)) or 'no pad'} "
            f"and the full-width copper at {len(contacts)} points")


def _run_pads(cu, pts, contacts, vias):
    """The pads a run's own ends touch (through a via in the pad too); an end on the wide
    copper is the wide copper's, whatever pad that stands in."""
    return {f"{ref}.{num}" for ref, num, layers, ring in cu["pads"] for ly, x, y in pts
            if (round(x, 3), round(y, 3)) not in contacts
            and (ly in layers or (round(x, 3), round(y, 3)) in vias) and _inside(x, y, ring)}
