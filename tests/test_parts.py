"""Every part against a source other than the catalogue: its pins against KiCad 6's own symbol
(as SKiDL's KiCad reader reads /usr/share/kicad/symbols, not hardware/parts/symbols.py), or a
datasheet citation where KiCad lacks the part; its footprint's pads against the datasheet's
package dimensions; and each LED's pads on the committed cell boards against the
SK6812MINI symbol (issue 51: the LEDs had the 5050 WS2812B's pin order)."""

import contextlib
import glob
import io
import os
import re

import pytest
from hardware.inputs import pinmap
from hardware.parts import package_fit, symbols
from hardware.parts.catalogue import CATALOGUE, KICAD_TYPES, unnamed
from hardware.schematic.netlist import parse_sexp

SYMBOLS = symbols.standard_dir()
BOARDS = sorted(glob.glob(os.path.join(pinmap.ROOT, "hardware", "pcb", "cellboard-*.kicad_pcb")))
# Parts whose package dimensions are not recorded yet, and why.
NO_PACKAGE = {"jack": "the PJ-063AH's drawing was not at hand; its KiCad footprint is CUI's own"}
# Parts known not to fit their footprint yet (issue 51, open), and why: the test asserts they
# still do not, so fixing one means taking it off this list.
KNOWN_MISFITS: dict = {}


@pytest.fixture(scope="module", autouse=True)
def kicad_libraries():
    missing = [d for d in (os.path.join(SYMBOLS, "LED.kicad_sym"),
                           "/usr/share/kicad/footprints/LED_SMD.pretty") if not os.path.exists(d)]
    if missing:
        msg = (f"KiCad 6's libraries missing ({', '.join(missing)}): "
               "apt-get install kicad-symbols kicad-footprints")
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)


def skidl_symbol(ref):
    """{number: (name, SKiDL pin type)} of KiCad symbol "Library:Name" as SKiDL reads it."""
    from hardware.schematic import skidl_parts  # noqa: F401 (SKiDL without its log files in the working folder)
    from skidl import KICAD6, TEMPLATE, Part, lib_search_paths
    if SYMBOLS not in lib_search_paths[KICAD6]:
        lib_search_paths[KICAD6].append(SYMBOLS)
    lib, _, name = ref.partition(":")
    with contextlib.redirect_stderr(io.StringIO()):
        p = Part(lib, name, tool=KICAD6, dest=TEMPLATE)
    return {str(pin.num): (pin.name, pin.func.name) for pin in p.pins}


def overbar(name):
    """KiCad 6's overbar "~{OE}" as the catalogue writes it, "~OE"."""
    return re.sub(r"~\{([^}]*)\}", r"~\1", name)


WITH_SYMBOL = sorted(k for k, p in CATALOGUE.items() if p.symbol)
TYPED = sorted(k for k, p in CATALOGUE.items() if not p.symbol)


@pytest.mark.parametrize("key", WITH_SYMBOL)
def test_pins_are_the_kicad_symbols_pin_for_pin(key):
    """Number, name and electrical type of every pin as KiCad's symbol has them; a pin KiCad
    leaves unnamed ("~", a connector's "Pin_N") may carry the catalogue's label instead."""
    part = CATALOGUE[key]
    symbol = skidl_symbol(part.symbol)
    ours = {n: (name, func) for n, name, func in part.pins}
    assert sorted(ours) == sorted(symbol), f"{key}: pin numbers differ from {part.symbol}"
    labels = dict(part.labels)
    for n, (sym_name, sym_type) in symbol.items():
        name, func = ours[n]
        if unnamed(n, sym_name):
            assert name == labels.get(n, n), f"{key} pin {n}"
        else:
            assert name == overbar(sym_name), \
                f"{key} pin {n}: {name}, {part.symbol} says {sym_name}"
        assert func == sym_type, f"{key} pin {n}: {func}, {part.symbol} says {sym_type}"


@pytest.mark.parametrize("key", TYPED)
def test_a_part_kicad_lacks_cites_its_datasheet_for_its_pins(key):
    part = CATALOGUE[key]
    assert re.search(r"\bp\. \d+|Figure \d+|section \d", part.pin_source), part.pin_source
    assert [n for n, _, _ in part.pins] == [str(i) for i in range(1, len(part.pins) + 1)]
    names = [name for _, name, _ in part.pins if name not in part.ground_pins]
    assert len(set(names)) == len(names), "pin names but grounds must be unique"
    assert {func for _, _, func in part.pins} <= set(KICAD_TYPES.values())


def test_the_symbol_reader_follows_extends_and_units():
    """hardware/parts/symbols.py, which the build uses, reads what SKiDL reads: a derived
    symbol (Diode:1N4148W extends another) and a multi-unit one (74LS125: 4 gates and a
    power unit)."""
    for ref in ("Diode:1N4148W", "74xx:74LS125", "Power_Protection:SRV05-4", "LED:SK6812MINI"):
        ours = {p.number: p.name for p in symbols.pins(ref)}
        assert ours == {n: name for n, (name, _) in skidl_symbol(ref).items()}, ref
    assert {p.unit for p in symbols.pins("74xx:74LS125")} == {1, 2, 3, 4, 5}
    with pytest.raises(symbols.SymbolError, match="no symbol"):
        symbols.pins("LED:SK6812MINI_NOT")


def test_a_label_cannot_rename_a_pin_kicad_names():
    from hardware.parts.catalogue import PartDef
    bad = PartDef("x", "LED", "v", "m", "p", CATALOGUE["sk6812mini"].footprint, "d",
                  symbol="LED:SK6812MINI", labels=(("1", "VDD"),))
    with pytest.raises(ValueError, match="labels"):
        bad.pins


def _led_pads(path):
    """{LED ref: {pad number: net name}} of a board file."""
    with open(path) as f:
        root = parse_sexp(f.read())
    out = {}
    for fp in (x for x in root[1:] if isinstance(x, list) and x[0] == "footprint"):
        ref = next(t[2] for t in fp[1:]
                   if isinstance(t, list) and t[:2] == ["fp_text", "reference"])
        if not ref.startswith("LED"):
            continue
        pads = {}
        for p in (t for t in fp[1:] if isinstance(t, list) and t[0] == "pad"):
            net = [t for t in p[1:] if isinstance(t, list) and t[0] == "net"]
            pads[p[1]] = net[0][2] if net else None
        out[ref] = pads
    return out


def led_problems(path):
    """Each LED's pads on board file `path` against KiCad's LED:SK6812MINI: VDD on +5V, VSS
    on GND, DIN on the line from the previous LED (or the connector), DOUT on the next."""
    by_name = {name: n for n, (name, _) in skidl_symbol("LED:SK6812MINI").items()}
    out = []
    leds = _led_pads(path)
    for ref, pads in sorted(leds.items()):
        i = int(ref[3:])
        din = pads[by_name["DIN"]]
        want = {"VDD": "+5V", "VSS": "GND", "DOUT": f"CHAIN{i + 1}"}
        for name, net in want.items():
            if pads[by_name[name]] != net and not (name == "DOUT" and pads[by_name[name]] is None):
                out.append(f"{ref} {name} (pad {by_name[name]}): {pads[by_name[name]]}, "
                           f"expected {net}")
        want_din = f"CHAIN{i}" if i else "LED_DIN"
        if din != want_din:
            out.append(f"{ref} DIN (pad {by_name['DIN']}): {din}, expected {want_din}")
    return out, len(leds)


@pytest.mark.parametrize("path", BOARDS, ids=os.path.basename)
def test_every_led_pad_carries_what_the_kicad_symbol_names_it(path):
    problems, n = led_problems(path)
    assert n > 0
    assert problems == []


@pytest.mark.parametrize("key", sorted(CATALOGUE))
def test_the_footprint_fits_the_datasheets_package(key):
    part = CATALOGUE[key]
    if part.package is None:
        assert key in NO_PACKAGE, f"{key}: record its package (parts.Package) from its datasheet"
        return
    assert "datasheet" in part.package.source or re.search(r"\d", part.package.source), \
        part.package.source
    if key in KNOWN_MISFITS:
        assert package_fit.problems(part) != [], f"{key} fits now: take it off KNOWN_MISFITS"
        return
    assert package_fit.problems(part) == []


def test_a_footprint_of_another_package_is_caught():
    """The footprint RN1-RN4 had (ROHM MNR34, 1.33 mm pitch) for a CAT16-J4 (0.8 mm), and a
    5050 WS2812B footprint for the 3535 SK6812MINI."""
    assert package_fit.problems(CATALOGUE["rn10k"], "Resistor_SMD:R_Array_Convex_4x1206") == [
        "rn10k: Resistor_SMD:R_Array_Convex_4x1206 pitch 1.32 mm, the package 0.8 mm",
        "rn10k: the package's 1.6 mm terminal span misses "
        "Resistor_SMD:R_Array_Convex_4x1206's outer pads"]
    assert package_fit.problems(CATALOGUE["sk6812mini"],
                                "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm") == [
        "sk6812mini: LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm pitch 3.3 mm, the package 1.75 mm"]
    c0402 = "Capacitor_SMD:C_0402_1005Metric"
    assert package_fit.problems(CATALOGUE["c100n"], c0402) == [
        f"c100n: the package's 2.0 mm terminal span misses {c0402}'s outer pads",
        f"c100n: body 2.0 x 1.25 mm larger than {c0402}'s courtyard 1.82 x 0.92 mm"]


def test_the_buzzers_plus_pin_is_the_pad_the_footprint_marks_plus():
    """KiCad 6's Device:Buzzer calls pin 1 "-", its Buzzer_12x9.5RM7.6 footprint prints "+" by
    pad 1: the catalogue follows the footprint (where the part's + lead is fitted)."""
    import math

    from hardware.parts import footprint_geometry, libraries
    part = CATALOGUE["buzzer"]
    with open(libraries.path(part.footprint)) as f:
        root = parse_sexp(f.read())
    marks = [t for t in root[1:] if isinstance(t, list) and t[:3] == ["fp_text", "user", "+"]
             and ["layer", "F.SilkS"] in t]
    assert len(marks) == 1
    at = next(t for t in marks[0] if isinstance(t, list) and t[0] == "at")
    pads = footprint_geometry.pads(part.footprint, 0.0, 0.0)
    nearest = min(pads, key=lambda p: math.dist((p.x, p.y), (float(at[1]), float(at[2]))))
    assert {name: n for n, name, _ in part.pins}["+"] == nearest.number
    symbol_pins = {name: n for n, (name, _) in skidl_symbol("Device:Buzzer").items()}
    assert symbol_pins["+"] != nearest.number
