"""The controller schematic: a Raspberry Pi Pico wired as firmware/pinmap.json says.

The pin map is read here and by the firmware (firmware/board.py), so the two cannot drift:
change a GPIO in pinmap.json, run `python3 -m hardware.build`, and the netlist, BOM, wiring
table and drawings follow. `signals()` names the net each pin-map entry must reach and
`endpoints()` the device pins on that net; tests/test_hardware.py checks both in the netlist."""

import json
import math
import os

from .parts import PICO_GPIO_PAD

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PINMAP = os.path.join(ROOT, "firmware", "pinmap.json")


def load_pinmap(path=PINMAP):
    with open(path) as f:
        return json.load(f)


class PinmapError(ValueError):
    pass


def signals(pm):
    """[(pin-map entry, GPIO, net name)] for every GPIO the firmware uses."""
    m = pm["matrix"]
    r, c = m["rows"], m["cols"]
    out = [("leds.data", pm["leds"]["data"], "LED_DIN_3V3"),
           ("matrix.rows.data", r["data"], "ROW_SER"),
           ("matrix.rows.clock", r["clock"], "ROW_SRCLK"),
           ("matrix.rows.latch", r["latch"], "ROW_RCLK")]
    out += [(f"matrix.cols[{i}]", c["first"] + i, f"COL{i}") for i in range(c["count"])]
    ctl = pm["controls"]
    out += [(f"controls.{k}", ctl[k], f"BTN_{k.upper()}") for k in ("ok", "back", "menu")]
    out += [("buzzer.pin", pm["buzzer"]["pin"], "BUZZER_PWM"),
            ("oled.sda", pm["oled"]["sda"], "I2C_SDA"),
            ("oled.scl", pm["oled"]["scl"], "I2C_SCL")]
    return out


def check_pinmap(pm):
    """Problems that make the pin map unbuildable: a GPIO used twice or not on the Pico's
    header, a matrix larger than the connectors, a shift-register driver we don't have."""
    problems = []
    seen = {}
    for entry, gpio, _ in signals(pm):
        if gpio not in PICO_GPIO_PAD:
            problems.append(f"{entry}: GP{gpio} is not on the Pico's header")
        if gpio in seen:
            problems.append(f"{entry}: GP{gpio} already used by {seen[gpio]}")
        seen.setdefault(gpio, entry)
    m = pm["matrix"]
    if not 1 <= m["rows"]["max"] <= 16:
        problems.append("matrix.rows.max must be 1..16 (one 2x8 row connector)")
    if not 1 <= m["cols"]["count"] <= 16:
        problems.append("matrix.cols.count must be 1..16 (one 2x8 column connector)")
    if m["rows"]["driver"] != "74AHC595":
        problems.append("matrix.rows.driver: only 74AHC595 is drawn")
    if m["cols"].get("pull") != "up" or pm["controls"].get("pull") != "up":
        problems.append("columns and controls are drawn with pull-ups to 3.3 V")
    return problems


def endpoints(pm):
    """Net -> the device pins (ref, pin name) each pin-map signal must reach."""
    n_sr = math.ceil(pm["matrix"]["rows"]["max"] / 8)
    srs = [f"U{3 + k}" for k in range(n_sr)]
    ep = {
        "LED_DIN_3V3": [("U2", "1A")],
        "ROW_SER": [("U3", "SER")],
        "ROW_SRCLK": [(u, "SRCLK") for u in srs],
        "ROW_RCLK": [(u, "RCLK") for u in srs],
        "BTN_OK": [("SW1", "1")], "BTN_BACK": [("SW2", "1")], "BTN_MENU": [("SW3", "1")],
        "BUZZER_PWM": [("R3", "1")],
        "I2C_SDA": [("J5", "SDA"), ("R5", "1")],
        "I2C_SCL": [("J5", "SCL"), ("R6", "1")],
    }
    for i in range(pm["matrix"]["cols"]["count"]):
        ep[f"COL{i}"] = [("J4", str(i + 1)), (f"RN{1 + i // 4}", f"R{1 + i % 4}.1")]
    return ep




def build(pm=None):
    """The controller circuit (a SKiDL Circuit) for pin map `pm`."""
    from .sk import Net, new_circuit, part, supply

    pm = pm or load_pinmap()
    problems = check_pinmap(pm)
    if problems:
        raise PinmapError("; ".join(problems))
    circ = new_circuit()
    with circ:
        NC = circ.NC
        gnd, v5in, v5 = supply("GND"), supply("+5V_IN"), supply("+5V")
        vsys, v3 = supply("VSYS"), Net("+3V3")
        vbus = Net("VBUS")
        nets = {name: Net(name) for _, _, name in signals(pm)}

        # --- microcontroller ---
        u1 = part("pico", "U1", "MCU")
        for _, gpio, name in signals(pm):
            u1[str(PICO_GPIO_PAD[gpio])] += nets[name]
        u1["GND"] += gnd
        u1["AGND"] += gnd
        u1["VSYS"] += vsys
        u1["VBUS"] += vbus
        u1["3V3_OUT"] += v3
        u1["3V3_EN"] += NC          # internal pull-up: regulator on
        u1["ADC_VREF"] += NC
        c6 = part("c10u", "C6", "MCU", Decouples="U1")
        c6[1, 2] += vsys, gnd

        # --- power: 5 V jack, polyfuse, bulk, VSYS protection, optional USB feed ---
        j1 = part("jack", "J1", "Power")
        j1["TIP"] += v5in
        j1["SLEEVE"] += gnd
        j1["SWITCH"] += NC
        f1 = part("polyfuse", "F1", "Power")
        f1[1, 2] += v5in, v5
        c1 = part("c10u", "C1", "Power")
        c1[1, 2] += v5, gnd
        d1 = part("schottky", "D1", "Power")       # +5V -> VSYS; blocks VSYS -> LED rail
        d1["A"] += v5
        d1["K"] += vsys
        jp1 = part("jumper", "JP1", "Power")       # fit: USB VBUS feeds the LED rail
        d2 = part("schottky", "D2", "Power")
        usb_led = Net("USB_LED")
        jp1[1, 2] += vbus, usb_led
        d2["A"] += usb_led
        d2["K"] += v5

        # --- LEDs: level shifter, series resistor, bulk capacitor, connector ---
        u2 = part("ahct125", "U2", "LEDs")
        u2["VCC"] += v5
        u2["GND"] += gnd
        u2["1OE"] += gnd
        u2["1A"] += nets["LED_DIN_3V3"]
        din5 = Net("LED_DIN_5V")
        u2["1Y"] += din5
        for g in "234":                           # unused gates: disabled, inputs grounded
            u2[f"{g}OE"] += v5
            u2[f"{g}A"] += gnd
            u2[f"{g}Y"] += NC
        c3 = part("c100n", "C3", "LEDs", Decouples="U2")
        c3[1, 2] += v5, gnd
        r2 = part("r10k", "R2", "LEDs")           # data low while the Pico boots
        r2[1, 2] += nets["LED_DIN_3V3"], gnd
        r1 = part("r330", "R1", "LEDs")
        led_din = Net("LED_DIN")
        r1[1, 2] += din5, led_din
        c2 = part("c1000u", "C2", "LEDs", Decouples="J2")
        c2["+"] += v5
        c2["-"] += gnd
        j2 = part("xh3", "J2", "LEDs")
        j2["+5V"] += v5
        j2["DIN"] += led_din
        j2["GND"] += gnd

        # --- key matrix: rows from 74AHC595s (walking low), columns to GPIOs with pull-ups ---
        rows_max = pm["matrix"]["rows"]["max"]
        n_sr = math.ceil(rows_max / 8)
        j3 = part("idc16", "J3", "Key matrix", value="ROWS")
        ser = nets["ROW_SER"]
        for k in range(n_sr):
            u = part("ahc595", f"U{3 + k}", "Key matrix")
            u["VCC"] += v3
            u["GND"] += gnd
            u["~SRCLR"] += v3
            u["~OE"] += gnd
            u["SRCLK"] += nets["ROW_SRCLK"]
            u["RCLK"] += nets["ROW_RCLK"]
            u["SER"] += ser
            for b, q in enumerate("ABCDEFGH"):
                row = 8 * k + b
                if row < rows_max:
                    rn = Net(f"ROW{row}")
                    u[f"Q{q}"] += rn
                    j3[str(row + 1)] += rn
                else:
                    u[f"Q{q}"] += NC
            if k + 1 < n_sr:
                ser = Net(f"ROW_CHAIN{k + 1}")
                u["QHS"] += ser
            else:
                u["QHS"] += NC
            c = part("c100n", f"C{4 + k}", "Key matrix", Decouples=f"U{3 + k}")
            c[1, 2] += v3, gnd
        for row in range(rows_max, 16):
            j3[str(row + 1)] += NC
        cols = pm["matrix"]["cols"]["count"]
        j4 = part("idc16", "J4", "Key matrix", value="COLS")
        for k in range(math.ceil(cols / 4)):
            rn = part("rn10k", f"RN{k + 1}", "Key matrix")
            for b in range(4):
                i = 4 * k + b
                if i < cols:
                    rn[f"R{b + 1}.1"] += nets[f"COL{i}"]
                    rn[f"R{b + 1}.2"] += v3
                else:
                    rn[f"R{b + 1}.1"] += NC
                    rn[f"R{b + 1}.2"] += NC
        for i in range(16):
            j4[str(i + 1)] += nets[f"COL{i}"] if i < cols else NC

        # --- control buttons (to ground, internal pull-ups) and reset ---
        for ref, key in (("SW1", "ok"), ("SW2", "back"), ("SW3", "menu")):
            sw = part("button", ref, "Controls", value=key.upper())
            sw[1, 2] += nets[f"BTN_{key.upper()}"], gnd
        sw4 = part("button", "SW4", "Controls", value="RESET")
        run = Net("RUN")
        u1["RUN"] += run
        sw4[1, 2] += run, gnd

        # --- buzzer: low-side MOSFET, gate resistor and pull-down, flyback diode ---
        r3 = part("r100", "R3", "Buzzer")
        gate = Net("BUZZER_GATE")
        r3[1, 2] += nets["BUZZER_PWM"], gate
        r4 = part("r100k", "R4", "Buzzer")
        r4[1, 2] += gate, gnd
        q1 = part("nmos", "Q1", "Buzzer")
        bz_n = Net("BUZZER_N")
        q1["G"] += gate
        q1["S"] += gnd
        q1["D"] += bz_n
        bz1 = part("buzzer", "BZ1", "Buzzer")
        bz1["+"] += v5
        bz1["-"] += bz_n
        d3 = part("flyback", "D3", "Buzzer")
        d3["K"] += v5
        d3["A"] += bz_n

        # --- OLED module (3.3 V) with I2C pull-ups ---
        j5 = part("oled_hdr", "J5", "OLED")
        j5["GND"] += gnd
        j5["VCC"] += v3
        j5["SCL"] += nets["I2C_SCL"]
        j5["SDA"] += nets["I2C_SDA"]
        r5 = part("r4k7", "R5", "OLED")
        r5[1, 2] += nets["I2C_SDA"], v3
        r6 = part("r4k7", "R6", "OLED")
        r6[1, 2] += nets["I2C_SCL"], v3
        c7 = part("c100n", "C7", "OLED", Decouples="J5")
        c7[1, 2] += v3, gnd
    return circ
