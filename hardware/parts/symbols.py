"""A reader for KiCad 6's symbol libraries (Debian's kicad-symbols: /usr/share/kicad/symbols/
*.kicad_sym, or $KICAD6_SYMBOL_DIR): the pins of a symbol, "Library:Name", as KiCad numbers and
names them. The parts catalogue (hardware/parts/catalogue.py) takes its pins from here, so a part's
pin map is KiCad's, not typed.

A symbol that `extends` another inherits its parent's pins (KiCad 6 keeps no units or pins in
a derived symbol). A symbol's pins live in its units, sub-symbols "NAME_U_S": unit U (0: every
unit) in body style S (1 normal, 2 De Morgan, which repeats the same pins drawn otherwise)."""

import os
import re
from dataclasses import dataclass
from functools import lru_cache

from .sexp import parse_sexp


class SymbolError(ValueError):
    pass


@dataclass(frozen=True)
class SymbolPin:
    number: str
    name: str           # as written in the file: "~{OE}" is an overbar, "~" no name
    electrical: str     # KiCad's type: input, output, power_in, passive, tri_state...
    unit: int           # 0: common to every unit


def standard_dir():
    return os.environ.get("KICAD6_SYMBOL_DIR", "/usr/share/kicad/symbols")


def library_path(lib):
    return os.path.join(standard_dir(), f"{lib}.kicad_sym")


def _find(node, key):
    return [x for x in node[1:] if isinstance(x, list) and x and x[0] == key]


@lru_cache(maxsize=None)
def _library(lib):
    """{symbol name: its S-expression} of library `lib`."""
    path = library_path(lib)
    if not os.path.isfile(path):
        raise SymbolError(f"KiCad symbol library {lib!r}: no {path} (Debian: apt-get install "
                          "kicad-symbols)")
    with open(path, encoding="utf-8") as f:
        root = parse_sexp(f.read())
    return {s[1]: s for s in _find(root, "symbol")}


def _symbol(ref):
    lib, sep, name = ref.partition(":")
    if not sep or not lib or not name:
        raise SymbolError(f"symbol {ref!r} is not Library:Name")
    symbols = _library(lib)
    if name not in symbols:
        raise SymbolError(f"symbol {ref!r}: no symbol {name!r} in {library_path(lib)}")
    return lib, symbols[name]


_UNIT = re.compile(r"^(.*)_(\d+)_(\d+)$")


@lru_cache(maxsize=None)
def pins(ref):
    """The pins of symbol "Library:Name", in pin-number order: (SymbolPin, ...)."""
    lib, sym = _symbol(ref)
    parent = _find(sym, "extends")
    if parent:
        return pins(f"{lib}:{parent[0][1]}")
    out = {}
    for unit in _find(sym, "symbol"):
        m = _UNIT.match(unit[1])
        if not m or m.group(1) != sym[1]:
            raise SymbolError(f"{ref}: unexpected unit {unit[1]!r}")
        u, style = int(m.group(2)), int(m.group(3))
        if style > 1:
            continue            # De Morgan: the same pins again
        for p in _find(unit, "pin"):
            number, name = _find(p, "number")[0][1], _find(p, "name")[0][1]
            if number in out:
                raise SymbolError(f"{ref}: pin {number} twice")
            out[number] = SymbolPin(number, name, p[1], u)
    if not out:
        raise SymbolError(f"{ref}: no pins")
    return tuple(out[n] for n in sorted(out, key=_pin_order))


def _pin_order(number):
    return (0, int(number), "") if number.isdigit() else (1, 0, number)


def property_value(ref, key):
    """A symbol's property ("Footprint", "Datasheet"...), the parent's for a derived symbol
    that leaves it out; "" if none."""
    lib, sym = _symbol(ref)
    for p in _find(sym, "property"):
        if p[1] == key:
            return p[2]
    parent = _find(sym, "extends")
    return property_value(f"{lib}:{parent[0][1]}", key) if parent else ""


def plain_name(name):
    """A pin name as the catalogue writes it: KiCad 6's overbar markup "~{OE}" as "~OE"
    (the catalogue's, and KiCad 5's, way), no other change."""
    return re.sub(r"~\{([^}]*)\}", r"~\1", name)
