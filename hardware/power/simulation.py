"""The controller's power path simulated with ngspice, from the controller's netlist.

Every part of the netlist whose pins all lie on power nets (the nets of the parts in the
"Power" block, +5V, VSYS, VBUS, GND) becomes a SPICE element by its catalogue key
(hardware/power/spice_models.py); a part on power nets with no model stops the build of the deck,
so a part added to the power path cannot drop out of the simulation unseen. The Pico (U1)
enters through its VBUS, VSYS and GND pins, the LED connectors (J2, J6) as the LED load.
A case (`Case`) says what is plugged in when and what the LEDs draw; `run` writes the deck,
runs `ngspice -b` and returns the waveforms.

    python3 -m hardware.power.simulation          # every case on hardware/out/controller.net
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

from ..inputs import power_budget
from ..inputs.pinmap import ROOT, load_pinmap
from ..schematic import checks, netlist
from . import spice_models

POWER_BLOCK = "Power"
RAILS = ("+5V", "VSYS", "VBUS", "GND")
# connectors the LED load hangs on: catalogue key -> (supply pin, ground pin)
LED_CONNECTORS = {"vh3": ("+5V", "GND"), "vh2": ("+5V", "GND")}
JACK_OHM = 0.05          # adapter cable and plug
USB_OHM = 0.25           # USB cable and port
CAP_ESR = {"CP": 0.04}   # electrolytics (Panasonic FR 1000 uF: about 0.04 ohm)
# F1 (Bourns MF-MSMF200-2) as a fixed resistor, no trip: taken as 0.1 ohm, the order of its
# R1max (the resistance an hour after a trip) in Bourns' table, the worst case for the drop
POLYFUSE_OHM = 0.1


class SimError(RuntimeError):
    pass


@dataclass
class Case:
    """What happens at the board's inputs, in time order (s).

    jack: [(t, volts or None)] the plug's voltage from t on (None: unplugged);
    usb: [(t, plugged)]; led_ma: [(t, mA)] the LED current asked for from t on;
    jp1: whether JP1 is fitted."""
    name: str
    stop: float
    jack: list = field(default_factory=list)
    usb: list = field(default_factory=list)
    led_ma: list = field(default_factory=list)
    jp1: bool = True
    jack_ramp: bool = False      # the jack's voltage ramps between its points instead of stepping


def node(net):
    """A SPICE node name for a net name; GND is node 0."""
    if net == "GND":
        return "0"
    return "n_" + re.sub(r"[^A-Za-z0-9_]", lambda m: {"+": "p", "-": "m"}.get(m.group(), "_"), net)


def power_nets(nl):
    nets = set(RAILS)
    for c in nl.components.values():
        if c.fields.get("Block") == POWER_BLOCK:
            nets |= {n for n in c.pins.values() if n}
    return nets


def _pins(c):
    """Pin name -> net of a component (unconnected pins left out)."""
    return {c.pin_name(num): net for num, net in c.pins.items() if net}


def elements(nl, case):
    """The circuit's SPICE lines from the netlist: [(ref, line)] and the LED load's nodes."""
    nets = power_nets(nl)
    lines, loads = [], []
    for ref, c in sorted(nl.components.items()):
        key = c.fields["Catalogue"]
        pins = _pins(c)
        p = {k: node(v) for k, v in pins.items()}
        if key == "pico":
            lines.append((ref, f"X{ref} {p['VBUS']} {p['VSYS']} {p['GND']} PICO"))
            continue
        if key in LED_CONNECTORS:
            sup, gnd = LED_CONNECTORS[key]
            loads.append((p[sup], p[gnd]))
            continue
        if not set(pins.values()) <= nets:
            continue
        out = _passive(ref, c, key, p, case)
        if out is None:
            out = _switch(ref, key, p)
        if out is None and key == "jack":
            out = _jack(ref, p, case)
        if out is None:
            raise SimError(f"{ref} ({key}) is on the power nets and has no model in "
                           "hardware/power/spice_models.py")
        lines += [(ref, line) for line in out]
    return lines, loads


def _passive(ref, c, key, p, case):
    """The SPICE lines of a resistor, capacitor, diode, fuse or jumper; None for other parts."""
    d = c.part
    if d.prefix == "R":
        return [f"R{ref} {p['1']} {p['2']} {checks._ohms(c.value):g}"]
    if d.prefix == "C":
        a, b = (p["+"], p["-"]) if "+" in p else (p["1"], p["2"])
        esr = CAP_ESR.get(d.name)
        farad = checks.capacitance_uf(c.value) * 1e-6
        if esr:
            return [f"C{ref} {a} {ref}_esr {farad:g}", f"R{ref}_esr {ref}_esr {b} {esr:g}"]
        return [f"C{ref} {a} {b} {farad:g}"]
    if key == "schottky":
        return [f"D{ref} {p['A']} {p['K']} D_MBR120VLSF"]
    if key == "flyback":
        return [f"D{ref} {p['A']} {p['K']} D_1N4148"]
    if key == "polyfuse":
        return [f"R{ref} {p['1']} {p['2']} {POLYFUSE_OHM:g}"]
    if key == "jumper":
        return [f"R{ref} {p['A']} {p['B']} 1m"] if case.jp1 else []
    return None


def _switch(ref, key, p):
    """The SPICE lines of a MOSFET or a power-path chip; None for other parts."""
    if key == "nmos":
        return [f"M{ref} {p['D']} {p['G']} {p['S']} {p['S']} N_2N7002",
                f"D{ref}_body {p['S']} {p['D']} D_2N7002_BODY",
                f"C{ref}_gs {p['G']} {p['S']} 30p"]
    if key == "dualnfet":
        out = []
        for k, (s, g, dr) in enumerate((("S1", "G1", ("D1_7", "D1_8")),
                                        ("S2", "G2", ("D2_5", "D2_6")))):
            if p[dr[0]] != p[dr[1]]:
                raise SimError(f"{ref}: drain pins {dr} on different nets")
            out += [f"M{ref}_{k + 1} {p[dr[0]]} {p[g]} {p[s]} {p[s]} N_AO4800",
                    f"D{ref}_{k + 1}body {p[s]} {p[dr[0]]} D_AO4800_BODY",
                    f"C{ref}_{k + 1}gs {p[g]} {p[s]} 1n"]
        return out
    if key == "ltc4365":
        return [f"X{ref} {p['VIN']} {p['UV']} {p['OV']} {p['GND']} {p['~SHDN']} "
                f"{p['GATE']} {p['VOUT']} LTC4365"]
    if key == "tps2553":
        return [f"X{ref} {p['IN']} {p['GND']} {p['EN']} {p['ILIM']} {p['OUT']} TPS2553"]
    return None


def _jack(ref, p, case):
    """The DC jack: the case's supply voltage behind a plug that connects and disconnects."""
    tip, sleeve = p["TIP"], p["SLEEVE"]
    volts = (" ".join(f"{t:.7g} {v:.6g}" for t, v in _volts(case.jack)) if case.jack_ramp
             else _pwl(_volts(case.jack)))
    return [f"V{ref} {ref}_src {sleeve} PWL({volts})",
            _plug(ref, f"{ref}_src", tip, f"{ref}_plug", JACK_OHM),
            f"V{ref}_plug {ref}_plug 0 PWL({_pwl(_plugged(case.jack))})"]


def _plug(name, src, dst, ctl, ohm):
    """A plug and its cable: a conductance from `src` to `dst` that the 0..1 control `ctl`
    takes from nothing to 1/ohm (a switch that opens in one step stops ngspice's time step)."""
    return f"B{name}_plug {src} {dst} i = (v({src}) - v({dst})) * (1e-9 + v({ctl}) / {ohm:g})"


EDGE = 1e-5              # s: the edges of a plug or a load step


def _steps(points, initial=0.0):
    """Step changes as a PWL list: `points` [(t, v)] says v from t on (`initial` before the
    first); each change takes EDGE."""
    out = [(0.0, initial)]
    for t, v in points:
        if t <= 0:
            out = [(0.0, v)]
        else:
            out += [(t, out[-1][1]), (t + EDGE, v)]
    return out


def _volts(jack):
    return [(t, v if v is not None else 0.0) for t, v in jack] or [(0, 0.0)]


def _plugged(jack):
    return [(t, 1.0 if v is not None else 0.0) for t, v in jack] or [(0, 0.0)]


def _pwl(points):
    pts = _steps(points)
    return " ".join(f"{t:.7g} {v:.6g}" for t, v in pts)


def loads():
    """(the Pico's and OLED's draw on VSYS in A, the rail's own loads besides the LEDs in A):
    the budget's maxima (hardware/inputs/power_budget.py)."""
    rows = {name: mx for name, _, mx, _ in power_budget.CONTROLLER}
    vsys = (rows["Raspberry Pi Pico"] + rows["OLED SSD1306 128x64"]) / 1000
    rail = (rows["Buzzer CEM-1203(42) + R14"] + rows["Logic, pull-ups, protection"]) / 1000
    return vsys, rail


PROBES = ("+5V", "VSYS", "VBUS", "+5V_IN", "+5V_JACK", "JACK_SRC", "JACK_GATE", "JACK_SENSE",
          "USB_EN", "USB_SW")


def deck(nl, case):
    """The ngspice deck (text) of `case` on netlist `nl`, and the probe names it writes."""
    i_pico, i_rail = loads()
    lines, led_nodes = elements(nl, case)
    if not led_nodes:
        raise SimError("no LED connector (vh3/vh2) to hang the LED load on")
    out = [f"* Knockboard controller power path: {case.name} (hardware/power/simulation.py)",
           spice_models.models(i_pico)]
    out += [ln for _, ln in lines]
    # USB: the cable into the Pico's micro-USB, on the VBUS net
    pico = next(c for c in nl.components.values() if c.fields["Catalogue"] == "pico")
    vbus, gnd = node(pico.net_of("VBUS")), node(pico.net_of("GND"))
    usb = [(t, 1.0 if on else 0.0) for t, on in case.usb] or [(0, 0.0)]
    out += [f"Vusb usb_src {gnd} 5.0",
            _plug("usb", "usb_src", vbus, "usb_plug", USB_OHM),
            f"Vusb_plug usb_plug 0 PWL({_pwl(usb)})"]
    # the LEDs (and the rail's own loads) share out over the connectors: their full current
    # from 3.5 V up (WS2812-type LEDs), less in proportion below
    led = [(t, ma / 1000 + i_rail) for t, ma in case.led_ma] or [(0, i_rail)]
    out.append(f"Vled led_i 0 PWL({_pwl(led)})")
    for k, (sup, gnd_n) in enumerate(led_nodes):
        out.append(f"Bled{k} {sup} {gnd_n} i = v(led_i) / {len(led_nodes)} * clamp01(v({sup}, "
                   f"{gnd_n}) / 3.5)")
    probes = [n for n in PROBES if n in nl.nets]
    vecs = [f"v({node(n)})" for n in probes]
    for ref, c in sorted(nl.components.items()):      # the chips' states, by their refs
        key = c.fields["Catalogue"]
        if key == "tps2553":
            vecs += [f"v(x{ref.lower()}.enok)", f"i(v.x{ref.lower()}.vout)"]
            probes += [f"{ref} on", f"{ref} A"]
        elif key == "ltc4365":
            vecs.append(f"v(x{ref.lower()}.on)")
            probes.append(f"{ref} on")
    out += [".options reltol=1e-3 abstol=1e-9 vntol=1e-5 itl4=100 method=gear",
            f".tran 10u {case.stop:g} 0 {min(1e-3, case.stop / 500):g} uic",
            ".control", "set wr_singlescale", "set wr_vecnames", "run",
            f"wrdata {{OUT}} {' '.join(vecs)}", "quit", ".endc", ".end"]
    return "\n".join(out) + "\n", probes


def run(nl, case, keep=None):
    """Simulate `case`: {probe name: [values]} plus "t" (s). `keep`: a path to copy the deck to."""
    text, names = deck(nl, case)
    return ngspice(text, names, case.stop, case.name, keep)


def ngspice(text, names, stop, label, keep=None):
    """Run a deck whose control block writes `names` with `wrdata {OUT}`; the waveforms."""
    exe = shutil.which("ngspice")
    if exe is None:
        raise SimError("ngspice is not installed (Debian: ngspice)")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.txt")
        cir = os.path.join(tmp, "case.cir")
        with open(cir, "w") as f:
            f.write(text.replace("{OUT}", out))
        if keep:
            shutil.copy(cir, keep)
        r = subprocess.run([exe, "-b", cir], capture_output=True, text=True, timeout=300, cwd=tmp)
        rows = []
        if os.path.exists(out):
            with open(out) as f:
                rows = [ln.split() for ln in f if ln.strip()]
    cols = list(zip(*[[float(x) for x in row] for row in rows[1:]]))
    if not cols or cols[0][-1] < stop * 0.999:
        raise SimError(f"ngspice stopped early on {label}:\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    wave = {"t": list(cols[0])}
    for name, col in zip(names, cols[1:]):
        wave[name] = list(col)
    return wave


def switch_limit_a(rilim_ohm, volts_in=5.0):
    """The USB switch model's output current into a near short (0.5 V) with `rilim_ohm` on ILIM,
    after its soft start: the model's current limit."""
    text = "\n".join([
        "* TPS2553 model: current limit against RILIM (hardware/power/simulation.py)",
        spice_models.models(0.0),
        f"Vin in 0 {volts_in:g}", "Ven en 0 5", f"Rilim ilim 0 {rilim_ohm:g}",
        "Vshort out 0 0.5", "X1 in 0 en ilim out TPS2553",
        ".tran 10u 20m 0 100u uic", ".control", "set wr_singlescale", "set wr_vecnames", "run",
        "wrdata {OUT} i(v.x1.vout)", "quit", ".endc", ".end"]) + "\n"
    return ngspice(text, ["A"], 0.02, f"TPS2553 with RILIM {rilim_ohm:g} ohm")["A"][-1]


# --- reading a waveform ----------------------------------------------------------------------

def window(wave, name, t0, t1):
    return [v for t, v in zip(wave["t"], wave[name]) if t0 <= t <= t1]


def edges(wave, name, t0=0.0, t1=None, th=0.5):
    """Rising edges of a 0..1 state within [t0, t1]."""
    n, prev = 0, None
    for t, v in zip(wave["t"], wave[name]):
        if t < t0 or (t1 is not None and t > t1):
            continue
        hi = v > th
        if prev is not None and hi and not prev:
            n += 1
        prev = hi
    return n


# --- the cases -------------------------------------------------------------------------------

PULL_S = 0.5             # s: when the jack is pulled in "jack pulled while running"


def cases(pm=None):
    """The power cases with the firmware's LED limits (pinmap.json): 350 mA on USB, 1500 mA on
    the jack; the LEDs start dark (the largest board's dark draw)."""
    pm = pm or load_pinmap()
    usb_ma, jack_ma = pm["power"]["led_budget_ma"], pm["power"]["jack_budget_ma"]
    dark = dark_ma()
    return {
        "jack only": Case("jack only", 1.0, jack=[(0.05, 5.0)], led_ma=[(0, dark), (0.5, jack_ma)]),
        "USB only, JP1": Case("USB only, JP1", 1.2, usb=[(0.05, True)],
                              led_ma=[(0, dark), (0.7, usb_ma)]),
        "USB only, no JP1": Case("USB only, no JP1", 0.8, usb=[(0.05, True)], led_ma=[(0, dark)],
                                 jp1=False),
        "jack and USB": Case("jack and USB", 1.0, jack=[(0.05, 5.0)], usb=[(0.1, True)],
                             led_ma=[(0, dark), (0.5, jack_ma)]),
        "USB plugged and pulled on the jack": Case(
            "USB plugged and pulled on the jack", 1.4, jack=[(0.05, 5.0)],
            usb=[(0.3, True), (0.9, False)],
            led_ma=[(0, jack_ma)]),
        # the LEDs at the jack's budget until the firmware, polling GP15 every 10 ms
        # (firmware/supply.py POLL_MS), has lowered them to USB's, 20 ms after the pull
        "jack pulled while running": Case(
            "jack pulled while running", 1.2, jack=[(0.05, 5.0), (PULL_S, None)], usb=[(0.0, True)],
            led_ma=[(0, jack_ma), (PULL_S + 0.02, usb_ma)]),
        "12 V plug": Case("12 V plug", 0.8, jack=[(0.05, 12.0)], usb=[(0.0, True)],
                          led_ma=[(0, usb_ma)]),
        "reversed plug": Case("reversed plug", 0.8, jack=[(0.05, -5.0)], usb=[(0.0, True)],
                              led_ma=[(0, usb_ma)]),
        "reversed 12 V plug": Case("reversed 12 V plug", 0.8, jack=[(0.05, -12.0)],
                                   usb=[(0.0, True)],
                                   led_ma=[(0, usb_ma)]),
        # the jack's voltage swept 0 -> 7 V -> 0 V slowly: where U5 lets it through
        "jack swept 0-7 V": Case("jack swept 0-7 V", 2.0, jack=[(0.0, 0.0), (1.0, 7.0), (2.0, 0.0)],
                                 jack_ramp=True, led_ma=[(0, dark)]),
        "LEDs dark to full white on the jack": Case(
            "LEDs dark to full white on the jack", 0.6, jack=[(0.0, 5.0)],
            led_ma=[(0, dark), (0.3, jack_ma)]),
    }


def dark_ma():
    """The largest board's LED draw with every LED dark (hardware/out/power.json)."""
    import json
    with open(os.path.join(ROOT, "hardware", "out", "power.json")) as f:
        return max(b["led_dark_ma"] for b in json.load(f))


SETTLE_S = 0.35          # s: the plugs are in and U6's enable delay is over


def summary(w):
    """The figures docs/build.md gives for a case: the rail (+5V), VSYS and GP15 at the end
    (the least or most over the last 50 ms), VSYS's least after SETTLE_S, U6's turn-ons."""
    end = w["t"][-1]
    return {"+5V": min(window(w, "+5V", end - 0.05, end)),
            "VSYS": min(window(w, "VSYS", end - 0.05, end)),
            "VSYS min": min(window(w, "VSYS", SETTLE_S, end)),
            "GP15": max(window(w, "JACK_SENSE", end - 0.05, end)),
            "U6 on": edges(w, "U6 on")}


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(prog="python3 -m hardware.power.simulation",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--netlist", default=os.path.join(ROOT, "hardware", "out", "controller.net"),
                    help="the controller netlist to simulate (default: the committed one)")
    args = ap.parse_args(argv)
    nl = netlist.read_file(args.netlist)
    print("| case | +5V at the end | VSYS at the end (least after 0.35 s) | GP15 at the end | U6 "
          "turned on |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, case in cases().items():
        f = summary(run(nl, case))
        print(f"| {name} | {f['+5V']:.2f} V | {f['VSYS']:.2f} V ({f['VSYS min']:.2f} V) | "
              f"{f['GP15']:.2f} V | {f['U6 on']}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
