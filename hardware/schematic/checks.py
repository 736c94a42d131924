"""Design checks on a netlist (beyond SKiDL's ERC): every chip and LED powered, grounded and
decoupled; the pin map wired as the firmware expects; no Pico pin used twice. Each returns a
list of problems, empty when the design is right."""

from ..inputs.pinmap import check_pinmap, endpoints, signals
from ..parts.catalogue import PICO_GPIO_PAD

SUPPLIES = ("+5V", "+3V3", "VSYS", "+5V_IN", "USB_LED")
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
            problems.append(f"{ref}: no decoupling capacitor across "
                            f"{'/'.join(sorted(rails)) or '?'} and GND")
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


_UNIT = {"p": 1e-6, "n": 1e-3, "u": 1.0, "m": 1e3}


def capacitance_uf(value):
    """'100nF' -> 0.1, '1000uF' -> 1000.0 (a capacitor's value field, in uF)."""
    v = value.strip().rstrip("F")
    return float(v[:-1]) * _UNIT[v[-1]]


def _plugin_edges(nl):
    """Net -> nets it reaches the moment USB is plugged in: a fitted jumper or a fuse both
    ways, a diode from anode to cathode, and the Pico's own VBUS -> VSYS Schottky. Switches
    (U6 before its enable delay, Q2) and resistors conduct no inrush."""
    edges = {}

    def link(a, b):
        if a and b:
            edges.setdefault(a, set()).add(b)

    for c in nl.components.values():
        key = c.fields["Catalogue"]
        if key in ("jumper", "polyfuse"):
            a, b = c.pins.get("1"), c.pins.get("2")
            link(a, b)
            link(b, a)
        elif c.part.prefix == "D" and {n for _, n, _ in c.part.pins} == {"K", "A"}:
            link(c.net_of("A"), c.net_of("K"))
        elif key == "pico":
            link(c.net_of("VBUS"), c.net_of("VSYS"))
    return edges


def vbus_plugin_uf(nl):
    """The capacitance of this board (the Pico's own not counted) that USB VBUS charges at
    plug-in, with JP1 fitted: capacitors straight across a net VBUS reaches and GND."""
    edges = _plugin_edges(nl)
    seen, todo = {"VBUS"}, ["VBUS"]
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    total = 0.0
    for c in nl.components.values():
        if c.part.prefix == "C" and len(set(c.pins.values())) == 2:
            nets = set(c.pins.values())
            if GROUND in nets and (nets - {GROUND}) <= seen:
                total += capacitance_uf(c.value)
    return total


def _dc_edges(nl):
    """Net -> nets a voltage on it reaches through passive parts: fuses, jumpers and resistors
    both ways, a diode from anode to cathode (transistors and chips are not passed)."""
    edges = {}
    for c in nl.components.values():
        key = c.fields["Catalogue"]
        if key in ("jumper", "polyfuse") or c.part.prefix == "R":
            a, b = c.pins.get("1"), c.pins.get("2")
            if a and b:
                edges.setdefault(a, set()).add(b)
                edges.setdefault(b, set()).add(a)
        elif c.part.prefix == "D" and {n for _, n, _ in c.part.pins} == {"K", "A"}:
            if c.net_of("A") and c.net_of("K"):
                edges.setdefault(c.net_of("A"), set()).add(c.net_of("K"))
    return edges


def reached_from(nl, net):
    """The nets a voltage on `net` reaches through passive parts (`_dc_edges`)."""
    edges = _dc_edges(nl)
    seen, todo = {net}, [net]
    while todo:
        for nxt in edges.get(todo.pop(), set()) - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def jack_sense_problems(nl):
    """What turns the USB feed off, and GP15, must sense the jack, not the LED rail the USB
    feed lifts: neither the jack-sense net nor the gate of the transistor that pulls U6's EN
    low may be reached from +5V through a fuse, a resistor or a diode forward (issue 51: with
    both on +5V_JACK, F1 carried the USB-fed rail back to Q3, which turned U6 off again)."""
    problems = []
    back = reached_from(nl, "+5V")
    if "JACK_SENSE" in back:
        problems.append("JACK_SENSE (GP15) is reached from the +5V rail: USB would read as the "
                        "jack")
    u6 = [c for c in nl.components.values() if c.fields["Catalogue"] == "tps2553"]
    for sw in u6:
        en = sw.net_of("EN")
        for c in nl.components.values():
            if c.fields["Catalogue"] == "nmos" and c.net_of("D") == en and c.net_of("G") in back:
                problems.append(f"{c.ref}, which turns {sw.ref} off, has its gate on "
                                f"{c.net_of('G')}, reached from the +5V rail that {sw.ref} feeds")
    return problems


def ribbon_problems(nl, refs, lines):
    """Each 20-way matrix header in `refs`: the four ground pins on GND, signal pin k on the
    k-th matrix line of its kind (`lines[ref]`: the net names, in order)."""
    from ..parts.catalogue import RIBBON_GROUND_PINS, RIBBON_SIGNAL_PINS
    problems = []
    for ref in refs:
        c = nl.components.get(ref)
        if c is None:
            problems.append(f"{ref}: missing")
            continue
        for pin in RIBBON_GROUND_PINS:
            if c.pins.get(str(pin)) != GROUND:
                problems.append(f"{ref}.{pin}: {c.pins.get(str(pin))}, expected GND")
        for pin, net in zip(RIBBON_SIGNAL_PINS, lines[ref]):
            if c.pins.get(str(pin)) != net:
                problems.append(f"{ref}.{pin}: {c.pins.get(str(pin))}, expected {net}")
    return problems


def esd_problems(nl):
    """Every matrix line (ROWn, COLn) on the controller has an ESD array channel, and each
    array's rail clamp sits on +3V3 and GND."""
    problems = []
    protected = set()
    for ref, c in sorted(nl.components.items()):
        if c.fields["Catalogue"] != "srv05":
            continue
        if c.net_of("VP") != "+3V3" or c.net_of("VN") != GROUND:
            problems.append(f"{ref}: VP on {c.net_of('VP')}, VN on {c.net_of('VN')}")
        protected |= {c.net_of(io) for io in ("IO1", "IO2", "IO3", "IO4")}
    for net in sorted(nl.nets):
        if net.startswith(("ROW", "COL")) and net[3:].isdigit() and net not in protected:
            problems.append(f"{net}: no ESD protection")
    return problems


def buzzer_peak_ma(nl, coil_ohm, volts=5.0):
    """The buzzer's peak current from the netlist: the supply through the resistor in series
    with BZ1's + pin and the coil."""
    bz = nl.components["BZ1"]
    plus = bz.net_of("+")
    series = [c for c in nl.components.values()
              if c.part.prefix == "R" and plus in c.pins.values() and "+5V" in c.pins.values()]
    if plus == "+5V":
        r = 0.0
    elif len(series) == 1:
        r = _ohms(series[0].value)
    else:
        raise ValueError(f"BZ1 +: {len(series)} resistors from +5V")
    return volts / (coil_ohm + r) * 1000


def _ohms(value):
    v = value.lower()
    mult = {"k": 1e3, "m": 1e6}.get(v[-1], 1.0)
    return float(v.rstrip("km")) * mult


def supply_problems(nl, budgets, pm):
    """The controller's supply against the budget: the fuse holds the worst draw from the
    jack with margin and trips below every rating in the jack's path; the jack's window
    keeps VSYS and the LEDs in range; USB sees at most its allowance at plug-in; the buzzer
    part, its drive and the budget agree."""
    return (_fuse_problems(nl, budgets) + _jack_problems(nl) + _usb_problems(nl, budgets)
            + _buzzer_problems(nl, pm))


def _fuse_problems(nl, budgets):
    """F1 holds the worst jack draw with margin, trips below every rating in the jack's path
    and sits between the protected jack and +5V."""
    from ..inputs import power_budget
    problems = []
    worst = max(b["total_worst_jack_ma"] for b in budgets)
    if power_budget.POLYFUSE_HOLD_MA < power_budget.FUSE_MARGIN * worst:
        problems.append(f"F1 holds {power_budget.POLYFUSE_HOLD_MA} mA < {power_budget.FUSE_MARGIN} "
                        f"x worst jack draw {worst} mA")
    for what, rating in power_budget.RATINGS_MA.items():
        if power_budget.POLYFUSE_TRIP_MA >= rating:
            problems.append(f"F1 trips at {power_budget.POLYFUSE_TRIP_MA} mA, not below {what} "
                            f"({rating} mA)")
    f1 = nl.components.get("F1")
    if f1 is None or set(f1.pins.values()) != {"+5V_JACK", "+5V"}:
        problems.append("F1 not between the protected jack (+5V_JACK) and +5V")
    return problems


def _jack_problems(nl):
    """The raw jack reaches only its protection, whose window keeps VSYS in range."""
    from ..inputs import power_budget
    problems = []
    tip = nl.components["J1"].net_of("TIP")
    on_tip = {r for r, _ in nl.pins_on(tip)} - {"J1"}
    if on_tip != {"U5", "Q2", "R7", "C8"}:
        problems.append(f"the raw jack reaches {sorted(on_tip)}, not only the protection (U5, Q2, "
                        "R7, C8)")
    if not 4.0 <= power_budget.uv_v() < power_budget.ov_v() <= 5.7:
        problems.append(f"jack window {power_budget.uv_v():.2f}-{power_budget.ov_v():.2f} V "
                        "outside 4.0-5.7 V (VSYS <= 5.5 V after D1)")
    return problems + jack_sense_problems(nl)


def _usb_problems(nl, budgets):
    """USB sees at most its allowance at plug-in and the worst draw stays within a port's."""
    from ..inputs import power_budget
    problems = []
    uf = vbus_plugin_uf(nl)
    if uf > power_budget.USB_PLUGIN_UF or abs(uf - power_budget.BOARD_VBUS_UF) > 1e-9:
        problems.append(f"VBUS sees {uf:g} uF at plug-in (budget says "
                        f"{power_budget.BOARD_VBUS_UF:g}, USB allows "
                        f"{power_budget.USB_PLUGIN_UF:g})")
    worst_usb = max(b["total_worst_default_ma"] for b in budgets)
    if worst_usb > power_budget.USB_PORT_MA:
        problems.append(f"worst USB draw {worst_usb} mA > {power_budget.USB_PORT_MA} mA")
    return problems


def _buzzer_problems(nl, pm):
    """The buzzer part, its drive, the budget and pinmap.json agree."""
    from ..inputs import power_budget
    problems = []
    peak = buzzer_peak_ma(nl, power_budget.BUZZER_COIL_OHM)
    in_budget = {name: m for name, _, m, _ in power_budget.CONTROLLER}
    buzz = [m for name, m in in_budget.items() if name.startswith("Buzzer")]
    if not buzz or buzz[0] < peak - 0.5:
        problems.append(f"buzzer peak {peak:.0f} mA above its budget {buzz}")
    if pm["buzzer"].get("peak_ma") != round(peak) or "magnetic" not in pm["buzzer"]["type"]:
        problems.append("pinmap.json buzzer: type or peak_ma disagrees with BZ1 (magnetic, "
                        f"{peak:.0f} mA)")
    if "Magnetic" not in nl.components["BZ1"].part.description:
        problems.append("BZ1 is not the magnetic transducer the budget counts")
    return problems


def feed_problems(nl, row):
    """A cell board against its budget row: the second feed J4 (+5V, GND) exactly when the
    budget asks for it, and the rail drop within the limit with the feeds it has."""
    from ..inputs import power_budget
    problems = []
    j4 = nl.components.get("J4")
    if row["feeds"] == 2:
        if j4 is None or (j4.net_of("+5V"), j4.net_of("GND")) != ("+5V", GROUND):
            problems.append(f"{row['board']}: the budget asks for a second feed, J4 missing or "
                            "miswired")
    elif j4 is not None:
        problems.append(f"{row['board']}: J4 fitted though one feed suffices")
    if row["rail_drop_v"] > power_budget.MAX_RAIL_DROP_V:
        problems.append(f"{row['board']}: rails drop {row['rail_drop_v']} V > "
                        f"{power_budget.MAX_RAIL_DROP_V} V")
    return problems
