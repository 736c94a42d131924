"""The copper that carries the LEDs' current, and how wide it must be.

Which nets: read from a board's netlist, not listed by hand. The loads are the LEDs' supply
and ground pins (the cell boards) and the power contacts of the LED cables' connectors (the
controller's J2 and J6, wired pin for pin to a cell board's J1 and J4); from each, the walk
goes upstream through every part the load current passes (PASSES: the fuse, the jack's
back-to-back MOSFETs, the USB switch, the OR-ing diode, the USB jumper), so a net on the way
from the jack or from USB's VBUS to the LEDs is found wherever the schematic puts it, and a
net a part only senses (a gate, an enable, a divider) is not.

How wide: IPC-2221's width (hardware/inputs/ipc2221.py) for the fuse's hold current, F1's 2 A
(hardware/inputs/power_budget.py), at a 10 C rise in 1 oz outer copper: 0.8 mm. Everything
upstream of the fuse sees at most that before F1 trips (it holds 2 A, the supply gives 4 A);
everything downstream is behind it; so every LED-current track is drawn that wide. The exception
is a neck into a pad narrower than the track (a fine-pitch pin, a SOIC's): see MAX_NECK_MM.

The router draws these nets that wide (hardware/pcbs.py make puts nets and path_pins into the
plan; hardware/routing/route.py draws each connection TRACK_MM wide or fails the build naming it),
and the boards' inputs hash (hardware/inputs_hash.py CODE) covers this module;
hardware/power/track_widths.py checks a routed board's copper (as KiCad reads it) against that;
hardware/power/rails.py follows the current net by net (chain)."""

from ..inputs import ipc2221, power_budget

TRACK_MM = ipc2221.width_mm(power_budget.POLYFUSE_HOLD_MA / 1000)

# Catalogue key -> [(pins the load current enters by, pins it leaves by)], pin numbers (the
# footprint's, which stay whatever the pins are called). Both directions where it conducts both.
PASSES = {
    "polyfuse": [(("1",), ("2",)), (("2",), ("1",))],
    "jumper": [(("1",), ("2",)), (("2",), ("1",))],
    # AO4800: 1 S1, 3 S2, 5-6 D2, 7-8 D1; back to back (the sources tied), each conducts
    # either way once on: D1 to S1, then S2 to D2
    "dualnfet": [(("7", "8"), ("1",)), (("1",), ("7", "8")), (("3",), ("5", "6")),
                 (("5", "6"), ("3",))],
    "tps2553": [(("1",), ("6",))],            # IN -> OUT
    "schottky": [(("2",), ("1",))],           # A -> K (D_Schottky: 1 K, 2 A)
}
# the LEDs' catalogue key: the SK6812MINI since issue 51 (it was "ws2812b", and with that stale
# key no LED counted as a load: the cell boards' +5V reached every LED as a 0.25 mm branch)
LED = "sk6812mini"
# the LED cables' connectors: their power contacts (JST VH: 1 +5V, the last GND); the
# middle contact of the 3-way one is the data line
LED_CABLE_POWER = {"vh3": ("1", "3"), "vh2": ("1", "2")}

# A neck: a run of narrower track from a pad to the full-width copper, at most this long.
# Short enough that the full-width copper and the pad at its ends sink its heat: along a
# 0.25 mm x 35 um neck at 2 A, conduction alone (no heat into the board) holds its middle
# within I^2 rho / A * L^2 / (8 k A) of its ends: neck_rise_c(3.0) = 2.53 C.
MAX_NECK_MM = 3.0
COPPER_W_MK = 400.0         # copper's thermal conductivity
NECK_WIDTH_MM = 0.25        # the router's neck: hardware/inputs/fab_rules.py TRACK


def neck_rise_c(length_mm, width_mm=NECK_WIDTH_MM, amps=power_budget.POLYFUSE_HOLD_MA / 1000,
                copper_um=ipc2221.COPPER_UM):
    """How much warmer a neck's middle gets than its ends, by conduction along it alone."""
    area = width_mm * 1e-3 * copper_um * 1e-6
    heat_per_m = amps ** 2 * power_budget.COPPER_OHM_M / area
    return heat_per_m * (length_mm * 1e-3) ** 2 / (8 * COPPER_W_MK * area)


def chain(nl, source):
    """The nets from the pin `source` (ref, pin) downstream along the LEDs' current, in order:
    [(net, [(ref, pin) it enters by], [(ref, pin) it leaves by])], leaving by the parts it
    passes (PASSES) and by the loads (load_pins)."""
    led, loads = nets(nl), set(load_pins(nl))
    out, todo, seen = [], [(nl.components[source[0]].pins[source[1]], [source])], set()
    while todo:
        net, enter = todo.pop(0)
        if net in seen or net not in led:
            continue
        seen.add(net)
        leave = [(r, p) for r, p in nl.pins_on(net) if (r, p) in loads]
        for ref, pin in nl.pins_on(net):
            c = nl.components[ref]
            for into, out_pins in PASSES.get(c.fields.get("Catalogue"), ()):
                nxt = {c.pins.get(p) for p in out_pins}
                if pin in into and not nxt & (seen | {net}) and nxt <= led:
                    leave.append((ref, pin))
                    todo += [(n, [(ref, p) for p in out_pins if c.pins.get(p) == n]) for n in nxt]
        out.append((net, enter, sorted(set(leave))))
    return out


def load_pins(nl):
    """[(ref, pin number)] where the LEDs' current leaves the board's copper for a load."""
    out = []
    for ref, c in nl.components.items():
        key = c.fields.get("Catalogue")
        if key == LED:
            out += [(ref, c.pin_num(name)) for name in c.part.power_pins + c.part.ground_pins]
        elif key in LED_CABLE_POWER:
            out += [(ref, pin) for pin in LED_CABLE_POWER[key]]
    return out


# where the current comes from: the jack's centre pin, USB's VBUS on the Pico's pad 40
SOURCES = {"jack": ("1",), "pico": ("40",)}


def path_pins(nl):
    """{(ref, pin number)} the LEDs' current passes on its way: the sources, the pins of the
    parts it passes (both sides on LED-current nets) and the loads. Every other pin on those
    nets (a bulk capacitor, a chip's supply or sense pin, the OR-ing diode into VSYS) is a
    branch: it carries its own part's current, not the LEDs'."""
    led = nets(nl)
    out = set(load_pins(nl))
    for ref, c in nl.components.items():
        key = c.fields.get("Catalogue")
        out |= {(ref, p) for p in SOURCES.get(key, ()) if c.pins.get(p) in led}
        for into, leave in PASSES.get(key, ()):
            if all(c.pins.get(p) in led for p in into + leave):
                out |= {(ref, p) for p in into + leave}
    return out


def nets(nl):
    """The nets that carry the LEDs' current on this board (its ground among them)."""
    found = set()
    todo = [nl.components[ref].pins.get(pin) for ref, pin in load_pins(nl)]
    while todo:
        net = todo.pop()
        if not net or net in found:
            continue
        found.add(net)
        for ref, pin in nl.pins_on(net):
            c = nl.components[ref]
            for into, out in PASSES.get(c.fields.get("Catalogue"), ()):
                if pin in out:
                    todo += [c.pins.get(p) for p in into]
    return found
