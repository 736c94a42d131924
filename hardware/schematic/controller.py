"""The controller schematic: a Raspberry Pi Pico wired as firmware/pinmap.json says.

The pin map is read here and by the firmware (firmware/board.py), so the two cannot drift:
change a GPIO in pinmap.json, run `python3 -m hardware.build`, and the netlist, BOM, wiring
table and drawings follow. `signals()` names the net each pin-map entry must reach and
`endpoints()` the device pins on that net; tests/test_hardware.py checks both in the netlist."""

import math

from ..inputs.pinmap import PinmapError, check_pinmap, load_pinmap, signals
from ..parts.catalogue import PICO_GPIO_PAD, RIBBON_GROUND_PINS, RIBBON_SIGNAL_PINS, pin_number


def ribbon(conn, lines, gnd, NC):
    """A 20-way matrix header: line k on the k-th signal pin (None: not connected), the four
    interleaved ground pins on GND."""
    for pin in RIBBON_GROUND_PINS:
        conn[str(pin)] += gnd
    for pin, net in zip(RIBBON_SIGNAL_PINS, lines):
        conn[str(pin)] += net if net is not None else NC


def esd_arrays(lines, first_ref, v3, gnd, NC):
    """SRV05-4 arrays (4 lines each) on the matrix lines, at the headers where a touched cell
    board's discharge arrives; their rail clamps go to +3V3, the level the lines live at."""
    from .skidl_parts import part
    n = 0
    for k in range(0, len(lines), 4):
        u = part("srv05", f"U{first_ref + n}", "Key matrix")
        u["VP"] += v3               # the rail clamp (KiCad's SRV05-4: VP pin 5, VN pin 2)
        u["VN"] += gnd
        for j, io in enumerate(("IO1", "IO2", "IO3", "IO4")):
            u[io] += lines[k + j] if k + j < len(lines) else NC
        n += 1
    return n


def wire(p, pins):
    """Connects part `p`'s pins by name: {pin name: net}."""
    for name, net in pins.items():
        p[name] += net


ESD_FIRST_U = 7      # U7.. : the SRV05-4 arrays (U5 LTC4365, U6 TPS2553)


def _power_in(part, Net, NC, gnd, v5in, v5, vsys, vbus, sense):
    """The 5 V input and the USB feed of the LED rail.

    Jack: LTC4365 U5 with back-to-back N-MOSFETs Q2 passes the jack to +5V_JACK only
    between 4.3 and 5.7 V (R7/R8/R9), so a 12 V adapter or a reversed plug leaves the board
    unpowered instead of destroying it; F1 (2 A hold, 3.5 A trip) then feeds the +5V rail.
    The jack's voltage at Q2's source tie reaches GP15 through D4 and R10/R11 (the firmware's
    supply detection) and turns Q3 on, which holds the USB switch off: only the jack itself,
    never the rail that USB feeds, can turn the USB feed off.

    USB (JP1 fitted): TPS2553 U6 switches VBUS onto the LED rail with a current limit
    (R12) only after R13/C10's delay and only while the jack is absent, so at plug-in USB
    sees the Pico and 0.2 uF of this board, not the rail's 1.2 mF."""
    j1 = part("jack", "J1", "Power")
    j1["TIP"] += v5in
    j1["SLEEVE"] += gnd
    u5 = part("ltc4365", "U5", "Power")
    v5jack, gate, src = Net("+5V_JACK"), Net("JACK_GATE"), Net("JACK_SRC")
    uv, ov = Net("JACK_UV"), Net("JACK_OV")
    wire(u5, {"VIN": v5in, "~SHDN": v5in, "GND": gnd, "GATE": gate, "VOUT": v5jack,
              "~FAULT": NC, "UV": uv, "OV": ov})
    c8 = part("c100n", "C8", "Power", Decouples="U5")
    c8[1, 2] += v5in, gnd
    for ref, key, a, b in (("R7", "r1m", v5in, uv), ("R8", "r33k", uv, ov),
                           ("R9", "r100k", ov, gnd)):
        part(key, ref, "Power")[1, 2] += a, b
    q2 = part("dualnfet", "Q2", "Power")       # drains outward, sources together
    wire(q2, {"D1_7": v5in, "D1_8": v5in, "D2_5": v5jack, "D2_6": v5jack,
              "S1": src, "S2": src, "G1": gate, "G2": gate})
    f1 = part("polyfuse", "F1", "Power")
    f1[1, 2] += v5jack, v5
    c1 = part("c10u", "C1", "Power")
    c1[1, 2] += v5, gnd
    d1 = part("schottky", "D1", "Power")       # +5V -> VSYS; blocks VSYS -> LED rail
    d1["A"] += v5
    d1["K"] += vsys
    # The jack's presence is read at Q2's source tie, through D4: there the jack's voltage
    # stands only while U5 passes it. +5V_JACK would not do: the USB feed lifts +5V and F1
    # carries it back onto +5V_JACK, so Q3 and GP15 would see the jack whenever USB feeds
    # the LEDs (Q3 then turned U6 off, again and again: issue 51). Q2's second body diode
    # keeps the rail off the source tie; D4 keeps a reversed plug's negative voltage, which
    # reaches the source tie through Q2's first body diode, off GP15 and Q3.
    det = Net("JACK_DET")
    d4 = part("flyback", "D4", "Power")
    d4["A"] += src
    d4["K"] += det
    for ref, key, a, b in (("R10", "r22k", det, sense), ("R11", "r33k", sense, gnd)):
        part(key, ref, "Power")[1, 2] += a, b

    from .skidl_parts import supply
    usb_led = supply("USB_LED")
    jp1 = part("jumper", "JP1", "Power")       # fit: USB VBUS may feed the LED rail
    jp1[1, 2] += vbus, usb_led
    u6 = part("tps2553", "U6", "Power")
    usb_sw, en, ilim = Net("USB_SW"), Net("USB_EN"), Net("USB_ILIM")
    wire(u6, {"IN": usb_led, "GND": gnd, "EN": en, "ILIM": ilim, "OUT": usb_sw, "~FAULT": NC})
    c9 = part("c100n", "C9", "Power", Decouples="U6")
    c9[1, 2] += usb_led, gnd
    for ref, key, a, b in (("R12", "r56k2", ilim, gnd), ("R13", "r470k", usb_led, en),
                           ("C10", "c1u", en, gnd)):
        part(key, ref, "Power")[1, 2] += a, b
    q3 = part("nmos", "Q3", "Power")           # jack present: USB switch off
    q3["G"] += det
    q3["S"] += gnd
    q3["D"] += en
    d2 = part("schottky", "D2", "Power")       # the jack's rail never reaches U6 or VBUS
    d2["A"] += usb_sw
    d2["K"] += v5


def build(pm=None):
    """The controller circuit (a SKiDL Circuit) for pin map `pm`."""
    from .skidl_parts import Net, new_circuit, part, supply

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
        # 100 nF, not 10 uF: VSYS charges from USB VBUS through the Pico's diode at plug-in,
        # and the Pico's own input capacitance already uses USB's 10 uF allowance.
        c6 = part("c100n", "C6", "MCU", Decouples="U1")
        c6[1, 2] += vsys, gnd
        _power_in(part, Net, NC, gnd, v5in, v5, vsys, vbus, nets["JACK_SENSE"])

        # --- LEDs: level shifter, series resistor, bulk capacitor, connector ---
        u2 = part("ahct125", "U2", "LEDs")
        u2["VCC"] += v5
        u2["GND"] += gnd
        u2["~1OE"] += gnd
        u2["1A"] += nets["LED_DIN_3V3"]
        din5 = Net("LED_DIN_5V")
        u2["1Y"] += din5
        for g in "234":                           # unused gates: disabled, inputs grounded
            u2[f"~{g}OE"] += v5
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
        j2 = part("vh3", "J2", "LEDs")
        j2["+5V"] += v5
        j2["DIN"] += led_din
        j2["GND"] += gnd
        j6 = part("vh2", "J6", "LEDs", value="LED 5V/GND far end")   # the second feed
        j6["+5V"] += v5
        j6["GND"] += gnd

        # --- key matrix: rows from 74AHC595s (walking low), columns to GPIOs with pull-ups ---
        rows_max = pm["matrix"]["rows"]["max"]
        n_sr = math.ceil(rows_max / 8)
        j3 = part("idc20", "J3", "Key matrix", value="ROWS")
        row_lines = [None] * 16
        ser = nets["ROW_SER"]
        serial_out = pin_number("ahc595", "QH'")     # to the next register's SER
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
                    row_lines[row] = rn
                else:
                    u[f"Q{q}"] += NC
            if k + 1 < n_sr:
                ser = Net(f"ROW_CHAIN{k + 1}")
                u[serial_out] += ser
            else:
                u[serial_out] += NC
            c = part("c100n", f"C{4 + k}", "Key matrix", Decouples=f"U{3 + k}")
            c[1, 2] += v3, gnd
        ribbon(j3, row_lines, gnd, NC)
        cols = pm["matrix"]["cols"]["count"]
        j4 = part("idc20", "J4", "Key matrix", value="COLS")
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
        col_lines = [nets[f"COL{i}"] if i < cols else None for i in range(16)]
        ribbon(j4, col_lines, gnd, NC)
        matrix = [n for n in row_lines + col_lines if n is not None]
        esd_arrays(matrix, ESD_FIRST_U, v3, gnd, NC)

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
        # 56 ohm in series: the coil's 42 ohm alone lets the low error tones peak at
        # 5 V / 42 ohm = 119 mA; with it the peak is 51 mA (hardware/inputs/power_budget.py)
        r14 = part("r56", "R14", "Buzzer")
        bz_p = Net("BUZZER_P")
        r14[1, 2] += v5, bz_p
        bz1 = part("buzzer", "BZ1", "Buzzer")
        bz1["+"] += bz_p
        bz1["-"] += bz_n
        d3 = part("flyback", "D3", "Buzzer")       # across the coil only
        d3["K"] += bz_p
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
