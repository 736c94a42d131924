"""Design checks on a netlist (beyond SKiDL's ERC): every chip and LED powered, grounded and
decoupled; the pin map wired as the firmware expects; no Pico pin used twice. Each returns a
list of problems, empty when the design is right."""

from .controller import check_pinmap, endpoints, signals
from .parts import PICO_GPIO_PAD

SUPPLIES = ("+5V", "+3V3", "VSYS")
GROUND = "GND"


def power_problems(nl):
    """Every part with supply pins (chips, the Pico, each SK6812MINI): supply pins on a supply
    net, ground pins on GND, and a capacitor marked as its decoupling (field "Decouples")
    straight across that supply and GND."""
    problems = []
    caps = {}
    for c in nl.components.values():
        if "Decouples" in c.fields:
            caps.setdefault(c.fields["Decouples"], []).append(c)
    for ref, c in sorted(nl.components.items()):
        d = c.part
        if not d.power_pins:
            continue
        rails = set()
        for name in d.power_pins:
            net = c.net_of(name)
            if net not in SUPPLIES:
                problems.append(f"{ref}: supply pin {name} on {net or 'nothing'}")
            else:
                rails.add(net)
        for name in d.ground_pins:
            net = c.net_of(name)
            if net != GROUND:
                problems.append(f"{ref}: ground pin {name} on {net or 'nothing'}")
        good = [cap.ref for cap in caps.get(ref, [])
                if set(cap.pins.values()) == {GROUND} | rails and len(rails) == 1]
        if not good:
            problems.append(f"{ref}: no decoupling capacitor across {'/'.join(sorted(rails)) or '?'} and GND")
    return problems


def pinmap_problems(nl, pm):
    """The netlist against firmware/pinmap.json: each pin-map GPIO's Pico pad on the signal's
    net, that net reaching the intended device pins and no other Pico pad, no GPIO twice."""
    problems = list(check_pinmap(pm))
    u1 = nl.components.get("U1")
    if u1 is None:
        return problems + ["no U1 (Pico) in the netlist"]
    ep = endpoints(pm)
    for entry, gpio, net in signals(pm):
        pad = str(PICO_GPIO_PAD.get(gpio, "?"))
        actual = u1.pins.get(pad)
        if actual != net:
            problems.append(f"{entry} = GP{gpio} (pad {pad}): on net {actual}, expected {net}")
        pico_pads = [p for r, p in nl.pins_on(net) if r == "U1"]
        if len(pico_pads) != 1:
            problems.append(f"net {net}: {len(pico_pads)} Pico pads ({', '.join(pico_pads)})")
        for ref, pin_name in ep.get(net, []):
            comp = nl.components.get(ref)
            if comp is None or comp.net_of(pin_name) != net:
                problems.append(f"{entry}: {ref} pin {pin_name} not on {net}")
    used = [str(PICO_GPIO_PAD.get(g)) for _, g, _ in signals(pm)]
    for pad in set(used):
        if used.count(pad) > 1:
            problems.append(f"Pico pad {pad} used {used.count(pad)} times")
    return problems


def matrix_problems(nl, rows, cols, n):
    """A cell board: LED chain in cell order, key i on row i // cols and column i % cols,
    with its diode's cathode on the row."""
    problems = []
    prev = "LED_DIN"
    for i in range(n):
        led, sw, d = (nl.components.get(f"{p}{i}") for p in ("LED", "SW", "D"))
        if led is None or sw is None or d is None:
            problems.append(f"cell {i}: LED, key or diode missing")
            continue
        if led.net_of("DIN") != prev:
            problems.append(f"LED{i}: DIN on {led.net_of('DIN')}, expected {prev}")
        prev = led.net_of("DOUT")
        r, c = divmod(i, cols)
        if d.net_of("K") != f"ROW{r}":
            problems.append(f"D{i}: cathode on {d.net_of('K')}, expected ROW{r}")
        key_nets = set(sw.pins.values())
        if key_nets != {f"COL{c}", d.net_of("A")}:
            problems.append(f"SW{i}: on {sorted(key_nets)}, expected COL{c} and D{i} anode")
    return problems
