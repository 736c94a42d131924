"""JLCPCB's bill of materials for one board: a line per part value and footprint, with its
LCSC number where one is confirmed (hardware/parts/lcsc.py)."""

import csv
import io

from ..parts.refdes import natural_order


def bom_csv(plan, nl):
    """JLCPCB's BOM: one line per part, with its LCSC number where one is confirmed
    (hardware/parts/lcsc.py; the others are listed in docs/build.md) and the manufacturer's part
    number it stands for."""
    from ..parts import lcsc
    groups = {}
    for f in plan.footprints:
        c = nl.components.get(f.ref)
        key = (f.value, f.footprint, c.fields.get("MPN", "") if c else "")
        groups.setdefault(key, []).append(f.ref)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["Comment", "Designator", "Footprint", "LCSC Part #", "MPN"])
    for (value, fp, mpn), refs in sorted(groups.items(), key=lambda kv: natural_order(kv[1][0])):
        w.writerow([value, ",".join(sorted(refs, key=natural_order)), fp.split(":")[1],
                    lcsc.number(mpn), mpn])
    return out.getvalue()
