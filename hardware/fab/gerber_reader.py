"""A reader of the Gerber (RS-274X) and Excellon drill files KiCad writes, enough to check
the fab files against them (tests/test_fab_files.py): where the pads are flashed, the
extent of the outline, where the holes are. Written from the formats' specifications, not
from the project's writers, so a check through it is a check against what the fab reads.
Coordinates in mm, as in the files: the plot origin, y up."""

import re

_FS = re.compile(r"%FSLAX(\d)(\d)Y(\d)(\d)\*%")
_AD = re.compile(r"%ADD(\d+)([A-Za-z_][\w.$]*)(?:,([-\d.X]+))?\*%")
_OP = re.compile(r"^(?:G0?1)?(?:X(-?\d+))?(?:Y(-?\d+))?(?:I-?\d+)?(?:J-?\d+)?D0?([123])\*$")


class Gerber:
    """The flashes (pads), region outlines and strokes of one Gerber layer."""

    def __init__(self, text):
        m = _FS.search(text)
        if not m or "%MOMM*%" not in text:
            raise ValueError("not a metric Gerber with a format statement")
        self.scale = 10 ** -int(m.group(2))
        self.apertures = {}             # D code -> (shape, [sizes in mm])
        self.flashes = []               # (x, y)
        self.regions = []               # [(x, y), ...] outline of each G36/G37 region
        self.strokes = []               # (x1, y1, x2, y2, aperture width)
        self._read(text)

    def _read(self, text):
        x = y = 0.0
        aperture, region = None, None
        for line in text.replace("\r", "").split("\n"):
            line = line.strip()
            ad = _AD.match(line)
            if ad:
                sizes = [float(v) for v in ad.group(3).split("X")] if ad.group(3) else []
                self.apertures[int(ad.group(1))] = (ad.group(2), sizes)
                continue
            if line == "G36*":
                region = []
                continue
            if line == "G37*":
                self.regions.append(region)
                region = None
                continue
            sel = re.match(r"^(?:G54)?D(\d+)\*$", line)
            if sel and int(sel.group(1)) >= 10:
                aperture = int(sel.group(1))
                continue
            op = _OP.match(line)
            if not op:
                continue
            nx = int(op.group(1)) * self.scale if op.group(1) is not None else x
            ny = int(op.group(2)) * self.scale if op.group(2) is not None else y
            code = int(op.group(3))
            if region is not None:
                region.append((nx, ny))
            elif code == 3:
                self.flashes.append((nx, ny))
            elif code == 1:
                self.strokes.append((x, y, nx, ny, self.width(aperture)))
            x, y = nx, ny

    def width(self, aperture):
        """A round aperture's diameter (what a stroke draws with), else 0."""
        shape, sizes = self.apertures.get(aperture, ("", []))
        return sizes[0] if shape == "C" and sizes else 0.0

    def pad_centres(self):
        """Where pads are: every flash, and the centre of every region's bounding box."""
        out = list(self.flashes)
        for r in self.regions:
            xs, ys = [p[0] for p in r], [p[1] for p in r]
            out.append(((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2))
        return out

    def stroke_extent(self):
        """(x0, y0, x1, y1) of everything stroked, the pen's width included."""
        x0 = min(min(s[0], s[2]) - s[4] / 2 for s in self.strokes)
        y0 = min(min(s[1], s[3]) - s[4] / 2 for s in self.strokes)
        x1 = max(max(s[0], s[2]) + s[4] / 2 for s in self.strokes)
        y1 = max(max(s[1], s[3]) + s[4] / 2 for s in self.strokes)
        return x0, y0, x1, y1


def drill_hits(text):
    """[(x, y)] of an Excellon file with metric, decimal-point coordinates (KiCad's): each
    drilled hole, and the middle of each routed slot (G00 to its start, M15, G01 to its end)."""
    if "METRIC" not in text:
        raise ValueError("not a metric drill file")
    hits = [(float(m.group(1)), float(m.group(2)))
            for m in re.finditer(r"^X(-?[\d.]+)Y(-?[\d.]+)$", text, re.M)]
    for m in re.finditer(r"^G00X(-?[\d.]+)Y(-?[\d.]+)\s+M15\s+G01X(-?[\d.]+)Y(-?[\d.]+)$",
                         text, re.M):
        x1, y1, x2, y2 = (float(v) for v in m.groups())
        hits.append(((x1 + x2) / 2, (y1 + y2) / 2))
    return hits
