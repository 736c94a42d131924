"""The part catalogue: every part used on the controller and the cell boards, defined in SKiDL
itself (tool=SKIDL, explicit pins), so no KiCad symbol library is needed. Each entry carries
the manufacturer, the manufacturer's part number and a KiCad footprint that resolves in KiCad 6's
standard footprint libraries (Debian's kicad-footprints) or, for the Pico module KiCad 6 lacks,
in hardware/footprints/Knockboard.pretty (tests/test_pcb.py checks every footprint and pad)."""

from dataclasses import dataclass, field, replace

from . import lcsc

# Pin functions by short name (SKiDL's Pin.types), resolved when the SKiDL part is made.
IN, OUT, BI, TRI, PAS, PWRIN, PWROUT = "INPUT", "OUTPUT", "BIDIR", "TRISTATE", "PASSIVE", "PWRIN", "PWROUT"


@dataclass(frozen=True)
class PartDef:
    key: str
    name: str             # symbol name
    prefix: str           # reference prefix
    value: str
    manufacturer: str
    mpn: str
    footprint: str
    description: str
    pins: tuple           # (number, name, function)
    datasheet: str = ""
    power_pins: tuple = field(default=())   # names of supply pins (checked: power + decoupling)
    ground_pins: tuple = field(default=())
    # the LCSC number JLCPCB assembles this MPN by, where confirmed (hardware/lcsc.py): "" if not
    lcsc: str = ""
    lcsc_basic: object = None    # True basic part, False extended, None not known
    lcsc_source: str = ""        # where the number was read


def _two(n1="1", n2="2"):
    return (("1", n1, PAS), ("2", n2, PAS))


def _r0805(key, value, code, description):
    """A Yageo RC0805 1 % resistor; `code` is the value part of its MPN (10K, 4K7, 56K2)."""
    return PartDef(key, "R", "R", value, "Yageo", f"RC0805FR-07{code}L",
                   "Resistor_SMD:R_0805_2012Metric", description, _two())


# Raspberry Pi Pico, pads numbered as on the module (1..40, the KiCad footprint's numbering).
PICO_GPIO_PAD = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
    12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
    22: 29, 26: 31, 27: 32, 28: 34,
}
_PICO_OTHER = {3: "GND", 8: "GND", 13: "GND", 18: "GND", 23: "GND", 28: "GND", 38: "GND",
               30: "RUN", 33: "AGND", 35: "ADC_VREF", 36: "3V3_OUT", 37: "3V3_EN",
               39: "VSYS", 40: "VBUS"}
_PICO_FUNC = {"GND": PWRIN, "AGND": PWRIN, "RUN": IN, "ADC_VREF": PAS, "3V3_OUT": PWROUT,
              "3V3_EN": IN, "VSYS": PWRIN, "VBUS": PWROUT}


def _pico_pins():
    by_pad = {pad: (f"GP{gp}", BI) for gp, pad in PICO_GPIO_PAD.items()}
    by_pad.update({pad: (name, _PICO_FUNC[name]) for pad, name in _PICO_OTHER.items()})
    assert sorted(by_pad) == list(range(1, 41))
    return tuple((str(pad), name, func) for pad, (name, func) in sorted(by_pad.items()))


_CATALOGUE = [
    # --- controller: active parts ---
    PartDef("pico", "RaspberryPi_Pico", "U", "Raspberry Pi Pico", "Raspberry Pi", "SC0915",
            "Knockboard:RaspberryPi_Pico_THT",
            "RP2040 module, 2x20 pins at 2.54 mm; on-board 3.3 V buck-boost and decoupling",
            _pico_pins(), "https://datasheets.raspberrypi.com/pico/pico-datasheet.pdf",
            power_pins=("VSYS",), ground_pins=("GND", "AGND")),
    PartDef("ahct125", "74AHCT125", "U", "74AHCT125", "Texas Instruments", "SN74AHCT125DR",
            "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm",
            "Quad buffer, 3-state, TTL inputs at 5 V: 3.3 V to 5 V level shifter for the LED data",
            (("1", "1OE", IN), ("2", "1A", IN), ("3", "1Y", TRI), ("4", "2OE", IN),
             ("5", "2A", IN), ("6", "2Y", TRI), ("7", "GND", PWRIN), ("8", "3Y", TRI),
             ("9", "3A", IN), ("10", "3OE", IN), ("11", "4Y", TRI), ("12", "4A", IN),
             ("13", "4OE", IN), ("14", "VCC", PWRIN)),
            "https://www.ti.com/lit/ds/symlink/sn74ahct125.pdf",
            power_pins=("VCC",), ground_pins=("GND",)),
    # AHC, not HC: at 3.3 V the HC595 needs ~30-40 ns clock pulses (between its 2 V and 4.5 V figures), longer than
    # the firmware's back-to-back register writes; the AHC595 needs 5 ns pulses, 3.5 ns
    # set-up (pinmap.json matrix.rows.timing_ns, for the edge test on the emulated RP2040).
    PartDef("ahc595", "74AHC595", "U", "74AHC595", "Texas Instruments", "SN74AHC595DR",
            "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm",
            "8-bit shift register with output latches, AHC (5 ns pulses at 3.3 V): drives 8 key-matrix rows",
            (("1", "QB", TRI), ("2", "QC", TRI), ("3", "QD", TRI), ("4", "QE", TRI),
             ("5", "QF", TRI), ("6", "QG", TRI), ("7", "QH", TRI), ("8", "GND", PWRIN),
             ("9", "QHS", OUT), ("10", "~SRCLR", IN), ("11", "SRCLK", IN), ("12", "RCLK", IN),
             ("13", "~OE", IN), ("14", "SER", IN), ("15", "QA", TRI), ("16", "VCC", PWRIN)),
            "https://www.ti.com/lit/ds/symlink/sn74ahc595.pdf",
            power_pins=("VCC",), ground_pins=("GND",)),
    PartDef("nmos", "2N7002", "Q", "2N7002", "Nexperia", "2N7002,215",
            "Package_TO_SOT_SMD:SOT-23", "N-channel MOSFET 60 V 300 mA, logic level: buzzer driver",
            (("1", "G", IN), ("2", "S", PAS), ("3", "D", PAS))),
    PartDef("ltc4365", "LTC4365", "U", "LTC4365", "Analog Devices", "LTC4365CTS8#TRMPBF",
            "Knockboard:TSOT-23-8_LTC4365",
            "Overvoltage, undervoltage and reverse-supply controller (-40 V to 60 V at VIN): "
            "drives back-to-back N-MOSFETs that disconnect the 5 V jack outside 4.3-5.7 V",
            (("1", "VIN", PWRIN), ("2", "UV", IN), ("3", "OV", IN), ("4", "GND", PWRIN),
             ("5", "~SHDN", IN), ("6", "~FAULT", OUT), ("7", "VOUT", PAS), ("8", "GATE", OUT)),
            "https://www.analog.com/media/en/technical-documentation/data-sheets/LTC4365.pdf",
            power_pins=("VIN",), ground_pins=("GND",)),
    PartDef("dualnfet", "Q_Dual_NMOS", "Q", "AO4800", "Alpha & Omega Semiconductor", "AO4800",
            "Package_SO:SOIC-8_3.9x4.9mm_P1.27mm",
            "Dual N-MOSFET 30 V 6.9 A, 32 mohm at 4.5 V: the jack's back-to-back protection switch",
            (("1", "S1", PAS), ("2", "G1", IN), ("3", "S2", PAS), ("4", "G2", IN),
             ("5", "D2_5", PAS), ("6", "D2_6", PAS), ("7", "D1_7", PAS), ("8", "D1_8", PAS))),
    PartDef("tps2553", "TPS2553", "U", "TPS2553", "Texas Instruments", "TPS2553DBVR",
            "Package_TO_SOT_SMD:SOT-23-6",
            "Current-limited power switch 2.5-6.5 V, limit set by RILIM, built-in soft start: "
            "USB VBUS to the LED rail, off at plug-in and while the jack feeds the board",
            (("1", "IN", PWRIN), ("2", "GND", PWRIN), ("3", "EN", IN), ("4", "~FAULT", OUT),
             ("5", "ILIM", PAS), ("6", "OUT", PWROUT)),
            "https://www.ti.com/lit/ds/symlink/tps2553.pdf",
            power_pins=("IN",), ground_pins=("GND",)),
    PartDef("srv05", "SRV05-4", "U", "SRV05-4", "onsemi", "SRV05-4MR6T1G",
            "Package_TO_SOT_SMD:SOT-23-6",
            "4-line ESD protection array (rail clamp + 6 V TVS), IEC 61000-4-2: matrix lines at the ribbon headers",
            (("1", "IO1", PAS), ("2", "GND", PAS), ("3", "IO2", PAS), ("4", "IO3", PAS),
             ("5", "VCC", PAS), ("6", "IO4", PAS)),
            "https://www.onsemi.com/pdf/datasheet/srv05-4-d.pdf"),
    # --- controller: diodes and protection ---
    PartDef("schottky", "D_Schottky", "D", "MBR120VLSFT1G", "onsemi", "MBR120VLSFT1G",
            "Diode_SMD:D_SOD-123F", "Schottky diode 20 V 1 A, 0.34 V: power OR-ing into VSYS and +5V",
            _two("K", "A")),
    PartDef("flyback", "D", "D", "1N4148W", "Diodes Incorporated", "1N4148W-7-F",
            "Diode_SMD:D_SOD-123", "Switching diode 75 V 150 mA: buzzer flyback, jack-sense blocking diode",
            _two("K", "A")),
    PartDef("polyfuse", "Polyfuse", "F", "2A hold", "Bourns", "MF-MSMF200-2",
            "Fuse:Fuse_1812_4532Metric",
            "PTC resettable fuse, 2.0 A hold, 3.5 A trip, 8 V, 1812 (behind the overvoltage switch)",
            _two()),
    # --- passives ---
    _r0805("r330", "330", "330R", "Resistor 330 ohm 1% 0805: LED data series resistor"),
    _r0805("r10k", "10k", "10K", "Resistor 10 kohm 1% 0805"),
    _r0805("r4k7", "4.7k", "4K7", "Resistor 4.7 kohm 1% 0805: I2C pull-up"),
    _r0805("r100", "100", "100R", "Resistor 100 ohm 1% 0805: gate resistor"),
    _r0805("r56", "56", "56R", "Resistor 56 ohm 1% 0805: buzzer series resistor (peak 51 mA)"),
    _r0805("r22k", "22k", "22K", "Resistor 22 kohm 1% 0805: jack-sense divider"),
    _r0805("r33k", "33k", "33K", "Resistor 33 kohm 1% 0805: dividers"),
    _r0805("r56k2", "56.2k", "56K2", "Resistor 56.2 kohm 1% 0805: TPS2553 current limit (RILIM)"),
    _r0805("r470k", "470k", "470K", "Resistor 470 kohm 1% 0805: USB switch enable delay"),
    _r0805("r1m", "1M", "1M", "Resistor 1 Mohm 1% 0805: jack OV/UV divider"),
    _r0805("r100k", "100k", "100K", "Resistor 100 kohm 1% 0805: gate pull-down"),
    PartDef("rn10k", "R_Pack04", "RN", "4x10k", "Bourns", "CAT16-103J4LF",
            "Resistor_SMD:R_Array_Convex_4x1206", "Resistor array 4 x 10 kohm, isolated: column pull-ups",
            (("1", "R1.1", PAS), ("2", "R2.1", PAS), ("3", "R3.1", PAS), ("4", "R4.1", PAS),
             ("5", "R4.2", PAS), ("6", "R3.2", PAS), ("7", "R2.2", PAS), ("8", "R1.2", PAS))),
    PartDef("c100n", "C", "C", "100nF", "Samsung Electro-Mechanics", "CL21B104KBCNNNC",
            "Capacitor_SMD:C_0805_2012Metric", "Capacitor 100 nF 50 V X7R 0805: decoupling", _two()),
    PartDef("c10u", "C", "C", "10uF", "Samsung Electro-Mechanics", "CL21A106KAYNNNE",
            "Capacitor_SMD:C_0805_2012Metric", "Capacitor 10 uF 25 V X5R 0805: bulk decoupling", _two()),
    PartDef("c1u", "C", "C", "1uF", "Samsung Electro-Mechanics", "CL21B105KBFNNNE",
            "Capacitor_SMD:C_0805_2012Metric", "Capacitor 1 uF 50 V X7R 0805: enable delay", _two()),
    PartDef("c1000u", "CP", "C", "1000uF", "Panasonic", "EEU-FR1C102",
            "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
            "Electrolytic 1000 uF 16 V low ESR: LED supply bulk capacitor", _two("+", "-")),
    PartDef("c100u", "CP", "C", "100uF", "Panasonic", "EEU-FR1C101",
            "Capacitor_THT:CP_Radial_D6.3mm_P2.50mm",
            "Electrolytic 100 uF 16 V low ESR: LED supply on the cell board", _two("+", "-")),
    # --- electromechanical ---
    PartDef("jack", "Barrel_Jack", "J", "5V DC in", "CUI Devices", "PJ-063AH",
            "Connector_BarrelJack:BarrelJack_CUI_PJ-063AH_Horizontal",
            "DC barrel jack 2.0 mm pin (5.5/2.1 mm plug), 8 A 24 V, centre positive, 5 V in",
            (("1", "TIP", PAS), ("2", "SLEEVE", PAS))),
    PartDef("vh3", "Conn_01x03", "J", "LED 5V/DIN/GND", "JST", "B3P-VH",
            "Connector_JST:JST_VH_B3P-VH_1x03_P3.96mm_Vertical",
            "JST VH 3-pin header, 10 A a contact: LED power and data to the cell board",
            (("1", "+5V", PAS), ("2", "DIN", PAS), ("3", "GND", PAS))),
    PartDef("vh2", "Conn_01x02", "J", "LED 5V/GND", "JST", "B2P-VH",
            "Connector_JST:JST_VH_B2P-VH_1x02_P3.96mm_Vertical",
            "JST VH 2-pin header, 10 A a contact: second LED power feed (far end of the chain)",
            (("1", "+5V", PAS), ("2", "GND", PAS))),
    PartDef("idc20", "Conn_02x10", "J", "IDC 2x10", "Wurth Elektronik", "61202021621",
            "Connector_IDC:IDC-Header_2x10_P2.54mm_Vertical",
            "Box header 2x10 2.54 mm: 16 matrix lines and 4 grounds interleaved (20-way ribbon)",
            tuple((str(i), str(i), PAS) for i in range(1, 21))),
    *(PartDef(f"idc{2 * n}", f"Conn_02x{n:02d}", "J", f"IDC 2x{n}", "Wurth Elektronik", f"612{2 * n:03d}21621",
              f"Connector_IDC:IDC-Header_2x{n:02d}_P2.54mm_Vertical",
              f"Box header 2x{n} 2.54 mm: joins two tiles of a cell board (short {2 * n}-way ribbon)",
              tuple((str(i), str(i), PAS) for i in range(1, 2 * n + 1))) for n in (13, 17, 25)),
    PartDef("oled_hdr", "Conn_01x04_Socket", "J", "OLED GND/VCC/SCL/SDA", "Sullins", "PPPC041LFBN-RC",
            "Connector_PinSocket_2.54mm:PinSocket_1x04_P2.54mm_Vertical",
            "Socket 1x4 2.54 mm for a 0.96 in SSD1306 128x64 I2C OLED module",
            (("1", "GND", PAS), ("2", "VCC", PAS), ("3", "SCL", PAS), ("4", "SDA", PAS))),
    PartDef("jumper", "Jumper_2", "JP", "USB->LED", "Sullins", "PRPC002SAAN-RC",
            "Connector_PinHeader_2.54mm:PinHeader_1x02_P2.54mm_Vertical",
            "2-pin header + shunt (Sullins SPC02SYAN): fit to power the LEDs from USB", _two()),
    PartDef("button", "SW_Push", "SW", "B3F-1000", "Omron", "B3F-1000",
            "Button_Switch_THT:SW_PUSH_6mm", "Tactile switch 6x6 mm: control button", _two()),
    PartDef("buzzer", "Buzzer", "BZ", "CEM-1203(42)", "CUI Devices", "CEM-1203(42)",
            "Buzzer_Beeper:Buzzer_12x9.5RM7.6",
            "Magnetic transducer 5 V 42 ohm, external drive (PWM); loud down to the 147 Hz error tone, "
            "where a piezo is nearly silent",
            _two("+", "-")),
    # --- cell board ---
    PartDef("ws2812b", "SK6812MINI", "LED", "SK6812MINI", "OPSCO Optoelectronics", "SK6812MINI",
            "LED_SMD:LED_SK6812MINI_PLCC4_3.5x3.5mm_P1.75mm",
            "Addressable RGB LED 3535, 5 V, GRB, 800 kHz (WS2812B protocol), 0.2 W",
            (("1", "VDD", PWRIN), ("2", "DOUT", OUT), ("3", "VSS", PWRIN), ("4", "DIN", IN)),
            "https://cdn-shop.adafruit.com/product-files/2686/SK6812MINI_REV.01-1-2.pdf",
            power_pins=("VDD",), ground_pins=("VSS",)),
    PartDef("key", "SW_Push", "SW", "PTS645", "C&K", "PTS645SM43SMTR92 LFS",
            "Button_Switch_SMD:SW_SPST_PTS645", "Tactile switch 6x6 mm SMD: the key under a cell", _two()),
    PartDef("keydiode", "D", "D", "1N4148W", "onsemi", "1N4148WT1G",
            "Diode_SMD:D_SOD-123",
            "Switching diode SOD-123: one per key, cathode to the row (no ghosting)", _two("K", "A")),
]


def _with_lcsc(p):
    e = lcsc.LCSC.get(p.mpn)
    return replace(p, lcsc=e.number, lcsc_basic=e.basic, lcsc_source=e.source) if e else p


CATALOGUE = {p.key: _with_lcsc(p) for p in _CATALOGUE}

# The 20-way matrix ribbons: 16 signal wires with a ground wire every five or six, so every
# signal runs at most three wires from its return (the 16-way ribbons had no ground at all).
RIBBON_GROUND_PINS = (1, 7, 14, 20)
RIBBON_SIGNAL_PINS = tuple(p for p in range(1, 21) if p not in RIBBON_GROUND_PINS)


@dataclass(frozen=True)
class Extra:
    """A bill-of-materials line that is no part of a netlist (modules, cables, supplies)."""
    name: str
    manufacturer: str
    mpn: str
    description: str
    qty_controller: int = 0
    qty_cell_board: int = 0
    per_cell: int = 0
    per_second_feed: int = 0     # on game boards whose cell board has the second feed J4


EXTRAS = [
    Extra("OLED module", "(generic)", "SSD1306 0.96in 128x64 I2C, GND-VCC-SCL-SDA",
          "OLED display module, plugs into J5; address 0x3C", qty_controller=1),
    Extra("Pico headers", "Sullins", "PRPC020SAAN-RC",
          "1x20 male header, 2.54 mm, for the Pico (or solder the Pico H)", qty_controller=2),
    Extra("Jumper shunt", "Sullins", "SPC02SYAN", "Shunt for JP1", qty_controller=1),
    Extra("IDC socket 2x10", "Amphenol ICC", "71600-020LF",
          "20-way IDC ribbon socket; 2 per ribbon, 2 ribbons", qty_controller=4),
    Extra("Ribbon cable 20-way", "3M", "3302/20 300SF", "Flat cable 1.27 mm pitch, 20 way, 30 cm",
          qty_controller=2),
    Extra("VH housing 3-pin", "JST", "VHR-3N", "Cable housing for J2 / cell board J1", qty_controller=2),
    Extra("VH housing 2-pin", "JST", "VHR-2N", "Cable housing for J6 / cell board J4 (second feed)",
          per_second_feed=2),
    Extra("VH crimp", "JST", "SVH-21T-P1.1", "Crimp contacts for VHR housings, AWG 22-18",
          qty_controller=6, per_second_feed=4),
    Extra("Wire AWG 18", "Alpha Wire", "3055 BK005", "Hook-up wire 18 AWG for the LED power cables "
          "(30 cm a conductor; 5 A and more)", qty_controller=1),
    Extra("Keycap / plunger", "(3D printed)", "-", "Cap on each key under the overlay",
          per_cell=1),
    Extra("5 V power supply", "MEAN WELL", "GST25E05-P1J",
          "5 V 4 A adapter, 2.1 mm centre-positive plug (for led_budget_ma above 400)",
          qty_controller=1),
]
