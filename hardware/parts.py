"""The part catalogue: every part used on the controller and the cell boards, defined in SKiDL
itself (tool=SKIDL, explicit pins), so no KiCad symbol library is needed. Each entry carries
the manufacturer, the manufacturer's part number and a KiCad footprint that resolves in KiCad 6's
standard footprint libraries (Debian's kicad-footprints) or, for the Pico module KiCad 6 lacks,
in hardware/footprints/Knockboard.pretty (tests/test_pcb.py checks every footprint and pad)."""

from dataclasses import dataclass, field

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


def _two(n1="1", n2="2"):
    return (("1", n1, PAS), ("2", n2, PAS))


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
    PartDef("hc595", "74HC595", "U", "74HC595", "Texas Instruments", "SN74HC595DR",
            "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm",
            "8-bit shift register with output latches: drives 8 key-matrix rows",
            (("1", "QB", TRI), ("2", "QC", TRI), ("3", "QD", TRI), ("4", "QE", TRI),
             ("5", "QF", TRI), ("6", "QG", TRI), ("7", "QH", TRI), ("8", "GND", PWRIN),
             ("9", "QHS", OUT), ("10", "~SRCLR", IN), ("11", "SRCLK", IN), ("12", "RCLK", IN),
             ("13", "~OE", IN), ("14", "SER", IN), ("15", "QA", TRI), ("16", "VCC", PWRIN)),
            "https://www.ti.com/lit/ds/symlink/sn74hc595.pdf",
            power_pins=("VCC",), ground_pins=("GND",)),
    PartDef("nmos", "2N7002", "Q", "2N7002", "Nexperia", "2N7002,215",
            "Package_TO_SOT_SMD:SOT-23", "N-channel MOSFET 60 V 300 mA, logic level: buzzer driver",
            (("1", "G", IN), ("2", "S", PAS), ("3", "D", PAS))),
    # --- controller: diodes and protection ---
    PartDef("schottky", "D_Schottky", "D", "MBR120VLSFT1G", "onsemi", "MBR120VLSFT1G",
            "Diode_SMD:D_SOD-123F", "Schottky diode 20 V 1 A, 0.34 V: power OR-ing into VSYS and +5V",
            _two("K", "A")),
    PartDef("flyback", "D", "D", "1N4148W", "Diodes Incorporated", "1N4148W-7-F",
            "Diode_SMD:D_SOD-123", "Switching diode 75 V 150 mA: buzzer flyback", _two("K", "A")),
    PartDef("polyfuse", "Polyfuse", "F", "2.5A hold", "Bourns", "MF-MSMF250/16X-2",
            "Fuse:Fuse_1812_4532Metric", "PTC resettable fuse, 2.5 A hold, 5 A trip, 16 V, 1812",
            _two()),
    # --- passives ---
    PartDef("r330", "R", "R", "330", "Yageo", "RC0805FR-07330RL", "Resistor_SMD:R_0805_2012Metric",
            "Resistor 330 ohm 1% 0805: LED data series resistor", _two()),
    PartDef("r10k", "R", "R", "10k", "Yageo", "RC0805FR-0710KL", "Resistor_SMD:R_0805_2012Metric",
            "Resistor 10 kohm 1% 0805", _two()),
    PartDef("r4k7", "R", "R", "4.7k", "Yageo", "RC0805FR-074K7L", "Resistor_SMD:R_0805_2012Metric",
            "Resistor 4.7 kohm 1% 0805: I2C pull-up", _two()),
    PartDef("r100", "R", "R", "100", "Yageo", "RC0805FR-07100RL", "Resistor_SMD:R_0805_2012Metric",
            "Resistor 100 ohm 1% 0805: gate resistor", _two()),
    PartDef("r100k", "R", "R", "100k", "Yageo", "RC0805FR-07100KL", "Resistor_SMD:R_0805_2012Metric",
            "Resistor 100 kohm 1% 0805: gate pull-down", _two()),
    PartDef("rn10k", "R_Pack04", "RN", "4x10k", "Bourns", "CAT16-103J4LF",
            "Resistor_SMD:R_Array_Convex_4x1206", "Resistor array 4 x 10 kohm, isolated: column pull-ups",
            (("1", "R1.1", PAS), ("2", "R2.1", PAS), ("3", "R3.1", PAS), ("4", "R4.1", PAS),
             ("5", "R4.2", PAS), ("6", "R3.2", PAS), ("7", "R2.2", PAS), ("8", "R1.2", PAS))),
    PartDef("c100n", "C", "C", "100nF", "Samsung Electro-Mechanics", "CL21B104KBCNNNC",
            "Capacitor_SMD:C_0805_2012Metric", "Capacitor 100 nF 50 V X7R 0805: decoupling", _two()),
    PartDef("c10u", "C", "C", "10uF", "Samsung Electro-Mechanics", "CL21A106KAYNNNE",
            "Capacitor_SMD:C_0805_2012Metric", "Capacitor 10 uF 25 V X5R 0805: bulk decoupling", _two()),
    PartDef("c1000u", "CP", "C", "1000uF", "Panasonic", "EEU-FR1C102",
            "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
            "Electrolytic 1000 uF 16 V low ESR: LED supply bulk capacitor", _two("+", "-")),
    PartDef("c100u", "CP", "C", "100uF", "Panasonic", "EEU-FR1C101",
            "Capacitor_THT:CP_Radial_D6.3mm_P2.50mm",
            "Electrolytic 100 uF 16 V low ESR: LED supply on the cell board", _two("+", "-")),
    # --- electromechanical ---
    PartDef("jack", "Barrel_Jack_Switch", "J", "5V DC in", "CUI Devices", "PJ-102AH",
            "Connector_BarrelJack:BarrelJack_CUI_PJ-102AH_Horizontal",
            "DC barrel jack 2.1 mm, centre positive, 5 V in",
            (("1", "TIP", PAS), ("2", "SLEEVE", PAS), ("3", "SWITCH", PAS))),
    PartDef("xh3", "Conn_01x03", "J", "LED 5V/DIN/GND", "JST", "B3B-XH-A",
            "Connector_JST:JST_XH_B3B-XH-A_1x03_P2.50mm_Vertical",
            "JST XH 3-pin header, 3 A: LED power and data to the cell board",
            (("1", "+5V", PAS), ("2", "DIN", PAS), ("3", "GND", PAS))),
    PartDef("idc16", "Conn_02x08", "J", "IDC 2x8", "Wurth Elektronik", "61201621621",
            "Connector_IDC:IDC-Header_2x08_P2.54mm_Vertical",
            "Box header 2x8 2.54 mm: 16 matrix lines to the cell board (16-way ribbon)",
            tuple((str(i), str(i), PAS) for i in range(1, 17))),
    *(PartDef(f"idc{2 * n}", f"Conn_02x{n:02d}", "J", f"IDC 2x{n}", "Wurth Elektronik", f"612{2 * n:03d}21621",
              f"Connector_IDC:IDC-Header_2x{n:02d}_P2.54mm_Vertical",
              f"Box header 2x{n} 2.54 mm: joins two tiles of a cell board (short {2 * n}-way ribbon)",
              tuple((str(i), str(i), PAS) for i in range(1, 2 * n + 1))) for n in (10, 13, 17, 20, 25)),
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
            "Buzzer_Beeper:Buzzer_12x9.5RM7.6", "Magnetic transducer 5 V 42 ohm, external drive (PWM)",
            _two("+", "-")),
    # --- cell board ---
    PartDef("sk6812mini", "SK6812MINI", "LED", "SK6812MINI", "Opsco / Worldsemi class", "SK6812MINI",
            "LED_SMD:LED_SK6812MINI_PLCC4_3.5x3.5mm_P1.75mm",
            "Addressable RGB LED 3.5x3.5 mm, 5 V, GRB, 800 kHz (WS2812B protocol), beside the key",
            (("1", "VDD", PWRIN), ("2", "DOUT", OUT), ("3", "VSS", PWRIN), ("4", "DIN", IN)),
            "https://cdn-shop.adafruit.com/product-files/2686/SK6812MINI_REV.01-1-2.pdf",
            power_pins=("VDD",), ground_pins=("VSS",)),
    PartDef("c100n_cell", "C", "C", "100nF", "Samsung Electro-Mechanics", "CL10B104KB8NNNC",
            "Capacitor_SMD:C_0603_1608Metric", "Capacitor 100 nF 50 V X7R 0603: the LED's decoupling",
            _two()),
    PartDef("key", "SW_Push", "SW", "PTS645", "C&K", "PTS645SM43SMTR92LFS",
            "Button_Switch_SMD:SW_SPST_PTS645", "Tactile switch 6x6 mm SMD, 4.3 mm: the key under a cell",
            _two()),
    PartDef("keydiode", "D", "D", "1N4148W", "Diodes Incorporated", "1N4148W-7-F",
            "Diode_SMD:D_SOD-123",
            "Switching diode SOD-123: one per key, cathode to the row (no ghosting)", _two("K", "A")),
]

CATALOGUE = {p.key: p for p in _CATALOGUE}


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


EXTRAS = [
    Extra("OLED module", "(generic)", "SSD1306 0.96in 128x64 I2C, GND-VCC-SCL-SDA",
          "OLED display module, plugs into J5; address 0x3C", qty_controller=1),
    Extra("Pico headers", "Sullins", "PRPC020SAAN-RC",
          "1x20 male header, 2.54 mm, for the Pico (or solder the Pico H)", qty_controller=2),
    Extra("Jumper shunt", "Sullins", "SPC02SYAN", "Shunt for JP1", qty_controller=1),
    Extra("IDC socket 2x8", "Amphenol ICC", "71600-016LF",
          "16-way IDC ribbon socket; 2 per ribbon, 2 ribbons", qty_controller=4),
    Extra("Ribbon cable 16-way", "3M", "3302/16 300SF", "Flat cable 1.27 mm pitch, 16 way, 30 cm",
          qty_controller=2),
    Extra("XH housing 3-pin", "JST", "XHP-3", "Cable housing for J2 / cell board J1", qty_controller=2),
    Extra("XH crimp", "JST", "SXH-001T-P0.6", "Crimp contacts for XHP-3", qty_controller=6),
    Extra("Keycap / plunger", "(3D printed)", "-", "Translucent cap over each cell's key and LED, under the overlay",
          per_cell=1),
    Extra("5 V power supply", "MEAN WELL", "GST25E05-P1J",
          "5 V 4 A adapter, 2.1 mm centre-positive plug (for led_budget_ma above 400)",
          qty_controller=1),
]
