"""The controller's wiring table for docs/build.md: every Pico pad, its GPIO, its entry in
the pin map, its net and where that net goes."""

from ..inputs import pinmap
from ..parts import refdes
from ..parts.catalogue import PICO_GPIO_PAD


def _describe(nl, ref, pin):
    c = nl.components[ref]
    name = c.pin_name(pin)
    what = c.value if c.value else c.part.name
    return f"{ref}.{name} ({what})" if name != pin else f"{ref}.{pin} ({what})"


def table(nl, pm):
    out = ["| Pico pad | GPIO | pin map (firmware/pinmap.json) | net | goes to |",
           "| ---: | --- | --- | --- | --- |"]
    for entry, gpio, net in sorted(pinmap.signals(pm), key=lambda s: PICO_GPIO_PAD[s[1]]):
        pad = PICO_GPIO_PAD[gpio]
        others = [_describe(nl, r, p) for r, p in sorted(nl.pins_on(net)) if r != "U1"]
        out.append(f"| {pad} | GP{gpio} | `{entry}` | {net} | {', '.join(others)} |")
    u1 = nl.components["U1"]
    for pad in ("36", "39", "40", "30"):
        net = u1.pins.get(pad)
        nodes = [(r, p) for r, p in nl.pins_on(net) if r != "U1"]
        if len(nodes) > 4:      # a supply: the parts it feeds
            to = ", ".join(sorted({r for r, _ in nodes}, key=refdes.natural_order))
        else:
            to = ", ".join(_describe(nl, r, p) for r, p in sorted(nodes))
        out.append(f"| {pad} | {u1.pin_name(pad)} | | {net} | {to} |")
    out.append("| 3, 8, 13, 18, 23, 28, 33, 38 | GND, AGND | | GND | all grounds |")
    out += ["", "Controller to cell board, pin for pin (straight cables; J6 to J4 only on boards "
            "with a second feed, see the power budget):", "",
            "| controller | cell board | net |", "| --- | --- | --- |"]
    for a, b, n in (("J2", "J1", 3), ("J6", "J4", 2), ("J3", "J2", 20), ("J4", "J3", 20)):
        comp = nl.components[a]
        for pin in range(1, n + 1):
            net = comp.pins.get(str(pin), "not connected")
            out.append(f"| {a}.{comp.pin_name(str(pin))} | {b}.{comp.pin_name(str(pin))} | {net} |")
    return "\n".join(out) + "\n"
