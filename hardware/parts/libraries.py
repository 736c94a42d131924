"""Where a netlist's footprint names ("Library:Name") resolve: KiCad 6's standard footprint
libraries (Debian's kicad-footprints, /usr/share/kicad/footprints, or $KICAD6_FOOTPRINT_DIR)
and the project's own library for what KiCad 6 lacks (hardware/footprints/Knockboard.pretty,
listed in hardware/fp-lib-table for KiCad's editor)."""

import os

from .sexp import parse_sexp

HARDWARE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROJECT_LIBS = {"Knockboard": os.path.join(HARDWARE, "footprints", "Knockboard.pretty")}


def standard_dir():
    return os.environ.get("KICAD6_FOOTPRINT_DIR", "/usr/share/kicad/footprints")


def library_dir(lib):
    """The .pretty directory of library `lib`."""
    return PROJECT_LIBS.get(lib) or os.path.join(standard_dir(), f"{lib}.pretty")


def path(footprint):
    """The .kicad_mod file of "Library:Name"; ValueError if it does not exist."""
    lib, sep, name = footprint.partition(":")
    if not sep or not lib or not name:
        raise ValueError(f"footprint {footprint!r} is not Library:Name")
    p = os.path.join(library_dir(lib), f"{name}.kicad_mod")
    if not os.path.isfile(p):
        raise ValueError(f"footprint {footprint!r}: no {p}")
    return p


def pad_numbers(footprint):
    """The set of pad numbers (names) of a footprint, as KiCad reads its file."""
    with open(path(footprint)) as f:
        root = parse_sexp(f.read())
    return {x[1] for x in root[1:] if isinstance(x, list) and x and x[0] == "pad"}


def problems(nl):
    """Every footprint of netlist `nl` that does not resolve, and every pin of a component
    that is no pad of its footprint: [one line each]."""
    out, seen = [], {}
    for ref, comp in sorted(nl.components.items()):
        fp = comp.footprint
        if fp not in seen:
            try:
                seen[fp] = pad_numbers(fp)
            except ValueError as e:
                seen[fp] = None
                out.append(f"{ref}: {e}")
        pads = seen[fp]
        if pads is None:
            continue
        pins = {n for n, _, _ in comp.part.pins}
        out += [f"{ref}: pin {p} is no pad of {fp}" for p in sorted(pins - pads)]
    return out
