"""Whether a footprint fits the part ordered: the package dimensions the catalogue records from each
datasheet (parts.Package) against the footprint's pads, read from its .kicad_mod file
(hardware/parts/footprint_geometry.py). A 1206-size array on a footprint with 1.33 mm pitch, or a 5
x 5 mm LED on a 3.5 mm footprint, shows here; KiCad's DRC and the netlist parity cannot see it (they
check copper against copper)."""

import math

from . import footprint_geometry

PITCH_TOL = 0.05      # mm: a footprint's pitch is the datasheet's, to drawing precision
SAME_ROW = 0.01       # mm: pads whose centres share an x or a y stand in one row


def measured(footprint):
    """{"pads", "pitch", "courtyard"} of a footprint: its numbered copper pads, the smallest
    centre distance between two pads of a row (None for a single pad a row), the
    courtyard's (width, height)."""
    pads = [p for p in footprint_geometry.pads(footprint, 0.0, 0.0) if p.number]
    pitch = min((math.dist((a.x, a.y), (b.x, b.y)) for i, a in enumerate(pads) for b in pads[i + 1:]
                 if (abs(a.x - b.x) < SAME_ROW or abs(a.y - b.y) < SAME_ROW)
                 and math.dist((a.x, a.y), (b.x, b.y)) > SAME_ROW), default=None)
    box = footprint_geometry.courtyard(footprint, 0.0, 0.0)
    return {"pads": pads, "pitch": pitch,
            "courtyard": (box[2] - box[0], box[3] - box[1]) if box else None}


def _span_fits(pads, span):
    """Whether leads `span` mm tip to tip land on the outermost pads along x or along y: on
    both sides, half the span lies between the pads' inner and outer edges, measured from
    the middle between the outermost pad centres."""
    for axis in ("x", "y"):
        pos = [getattr(p, axis) for p in pads]
        lo, hi = min(pos), max(pos)
        if hi - lo < SAME_ROW:
            continue
        mid = (lo + hi) / 2
        ok = True
        for end in (lo, hi):
            for p in pads:
                c = getattr(p, axis)
                if abs(c - end) > SAME_ROW:
                    continue
                half = (p.w if axis == "x" else p.h) / 2
                inner, outer = abs(c - mid) - half, abs(c - mid) + half
                ok &= inner <= span / 2 <= outer
        if ok:
            return True
    return False


def problems(part, footprint=None):
    """What of part's datasheet package the footprint (its own, or `footprint`) does not
    match: [one line each]."""
    pkg = part.package
    fp = footprint or part.footprint
    m = measured(fp)
    out = []
    if len(m["pads"]) != pkg.pads:
        out.append(f"{part.key}: {fp} has {len(m['pads'])} pads, the package {pkg.pads}")
    if pkg.pitch is not None and (m["pitch"] is None or abs(m["pitch"] - pkg.pitch) > PITCH_TOL):
        out.append(f"{part.key}: {fp} pitch {m['pitch'] and round(m['pitch'], 3)} mm, "
                   f"the package {pkg.pitch} mm")
    if pkg.span is not None and not _span_fits(m["pads"], pkg.span):
        out.append(f"{part.key}: the package's {pkg.span} mm terminal span misses {fp}'s outer "
                   "pads")
    if pkg.body is not None:
        if m["courtyard"] is None:
            out.append(f"{part.key}: {fp} has no courtyard")
        elif any(c < b for c, b in zip(sorted(m["courtyard"]), sorted(pkg.body))):
            out.append(f"{part.key}: body {pkg.body[0]} x {pkg.body[1]} mm larger than {fp}'s "
                       f"courtyard {m['courtyard'][0]:.2f} x {m['courtyard'][1]:.2f} mm")
    return out
