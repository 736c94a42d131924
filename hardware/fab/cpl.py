"""JLCPCB's placement file (CPL) of a board plan, in the frame of the Gerbers KiCad writes:
hardware/kicad/board_file.py sets the board's auxiliary origin to its lower left corner and plots
the Gerbers and drill files from it, so a part's Mid X / Mid Y here is measured from that
corner, y up, in millimetres. The point given is the centre of the part's pads (the
bounding box of all its pads), which the fab's machine centres on; for SMD parts of KiCad's
libraries it is the footprint's origin, for through-hole parts (origin at pin 1) it is not.

Rotation: KiCad's (counter-clockwise, seen from the top) plus a per-package correction for
the fab's library, whose zero orientation differs from KiCad's for some packages. The
corrections are the community's table for JLCPCB (matthewlai/JLCKicadTools,
jlc_kicad_tools/cpl_rotations_db.csv, also the table kicad-jlcpcb-tools downloads); a part
on the bottom takes the correction subtracted, as that tool does. They are conventions of
the fab's part library that cannot be confirmed from here: the maker checks each package
in the fab's placement preview before ordering (docs/build.md, "The PCBs")."""

import csv
import io
import re

# (footprint name pattern, degrees added to KiCad's rotation): the first match applies
ROTATION_CORRECTIONS = (
    (r"^R_Array_Convex_", 90),
    (r"^R_Array_Concave_", 90),
    (r"^SOT-223", 180),
    (r"^SOT-23", 180),
    (r"^TSOT-23", 180),
    (r"^SOIC-", 270),
)


def correction(footprint_name):
    """Degrees the fab's convention adds to KiCad's rotation for this footprint (0 if none)."""
    for pattern, degrees in ROTATION_CORRECTIONS:
        if re.match(pattern, footprint_name):
            return degrees
    return 0


def fab_rotation(footprint_name, rot, bottom):
    c = correction(footprint_name)
    return (rot - c) % 360 if bottom else (rot + c) % 360


def pads_centre(fp):
    """The centre of the bounding box of a placed footprint's pads, in plan coordinates."""
    pads = fp.pads()
    x0 = min(p.x - p.w / 2 for p in pads)
    x1 = max(p.x + p.w / 2 for p in pads)
    y0 = min(p.y - p.h / 2 for p in pads)
    y1 = max(p.y + p.h / 2 for p in pads)
    return (x0 + x1) / 2, (y0 + y1) / 2


def cpl_csv(plan, natural_key):
    """The CPL: one line a placed part, in `natural_key` order of designators."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["Designator", "Val", "Package", "Mid X", "Mid Y", "Rotation", "Layer"])
    for f in sorted(plan.footprints, key=lambda f: natural_key(f.ref)):
        name = f.footprint.split(":")[1]
        x, y = pads_centre(f)
        w.writerow([f.ref, f.value, name, f"{x:.3f}mm", f"{plan.height - y:.3f}mm",
                    f"{fab_rotation(name, f.rot, f.flip):.0f}", "Bottom" if f.flip else "Top"])
    return out.getvalue()
