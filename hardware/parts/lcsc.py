"""LCSC part numbers (the numbers JLCPCB's assembly service orders by) for the manufacturer
parts the boards are designed for, keyed by MPN. A number is entered only where a public
source pairs it with this exact MPN; `source` says where it was read (a repository and
path, or a page). A part with no such source has no entry: its BOM line leaves the column
empty and docs/build.md lists it as unconfirmed (tests/test_fab_files.py checks both).
`basic` is True for JLCPCB's "basic" parts (no feeder fee), False for "extended", None
where the source does not say. Stock and the basic/extended class change over time: the
maker checks each number in JLCPCB's parts library when ordering."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Lcsc:
    number: str
    basic: object       # True, False or None (not stated by the source)
    source: str


_CDFER = ("CDFER/JLCPCB-Kicad-Library, symbols/JLCPCB-Capacitors.kicad_sym (commit e37fb96, a "
          "library generated from JLCPCB's parts list): properties LCSC, Part and Class of symbol ")

LCSC = {
    "CL21A106KAYNNNE": Lcsc("C15850", True, _CDFER + "\"0805,10uF\" (\"Basic Component\")"),
    "CL21B105KBFNNNE": Lcsc("C28323", True, _CDFER + "\"0805,1uF\" (\"Basic Component\")"),
}


def number(mpn):
    """The confirmed LCSC number of `mpn`, or ""."""
    e = LCSC.get(mpn)
    return e.number if e else ""
