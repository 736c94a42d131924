"""The part catalogue: every part used on the controller and the cell boards, made as SKiDL
parts (tool=SKIDL) from the pins given here. Each entry carries the manufacturer, the
manufacturer's part number and a KiCad footprint that resolves in KiCad 6's standard
footprint libraries (Debian's kicad-footprints) or in hardware/footprints/Knockboard.pretty
(tests/test_pcb.py checks every footprint and pad).

Pins are not typed here where KiCad knows the part: an entry names its KiCad 6 symbol
("Library:Name", Debian's kicad-symbols) and takes the pin numbers, names and electrical types
from it (hardware/parts/symbols.py). A pin the symbol leaves unnamed ("~", or a connector's
"Pin_N") is called by its number, or by the entry's label for it (a connector's function,
a capacitor's "+"). A part KiCad 6 lacks carries its pin table with the datasheet's page and
figure. tests/test_parts.py compares both, pin for pin, with the symbols as SKiDL's own
KiCad reader reads them, and each part's package (datasheet dimensions) with its footprint."""

from dataclasses import dataclass, field, replace
from functools import cached_property

from . import lcsc, symbols

# Pin functions by short name (SKiDL's Pin.types), resolved when the SKiDL part is made.
IN, OUT, BI, TRI, PAS, PWRIN, PWROUT = ("INPUT", "OUTPUT", "BIDIR", "TRISTATE", "PASSIVE", "PWRIN",
                                        "PWROUT")
# KiCad 6's electrical pin types as SKiDL's
KICAD_TYPES = {"input": IN, "output": OUT, "bidirectional": BI, "tri_state": TRI, "passive": PAS,
               "power_in": PWRIN, "power_out": PWROUT, "open_collector": "OPENCOLL",
               "open_emitter": "OPENEMIT", "unspecified": "UNSPEC", "no_connect": "NOCONNECT",
               "free": "FREE"}


@dataclass(frozen=True)
class Package:
    """A package's key dimensions (mm) as its datasheet gives them, for the footprint check
    (hardware/parts/package_fit.py): copper pads, the smallest lead pitch in a row, the terminal
    span (lead tip to tip across the rows, or the end terminals' outer edges of a chip) and
    the body (length, width)."""
    pads: int
    pitch: float | None = None
    span: float | None = None
    body: tuple | None = None
    source: str = ""          # the datasheet, page and figure or table


@dataclass(frozen=True)
class PartDef:
    key: str
    prefix: str           # reference prefix
    value: str
    manufacturer: str
    mpn: str
    footprint: str
    description: str
    symbol: str = ""      # KiCad 6 symbol "Library:Name": the pins come from it
    labels: tuple = ()    # (number, name) for pins the symbol leaves unnamed
    pin_table: tuple = () # (number, name, function): only for a part KiCad 6 lacks...
    pin_source: str = ""  # ...and where its datasheet gives them (page, figure)
    package: Package | None = None
    datasheet: str = ""
    power_pins: tuple = field(default=())   # names of supply pins (checked: power + decoupling)
    ground_pins: tuple = field(default=())
    name: str = ""        # symbol name of a part KiCad lacks
    # the LCSC number JLCPCB assembles this MPN by, where confirmed (hardware/parts/lcsc.py):
    # "" if not
    lcsc: str = ""
    lcsc_basic: object = None    # True basic part, False extended, None not known
    lcsc_source: str = ""        # where the number was read

    def __post_init__(self):
        if bool(self.symbol) == bool(self.pin_table):
            raise ValueError(f"{self.key}: give a KiCad symbol or a pin table, not both or neither")
        if self.pin_table and not self.pin_source:
            raise ValueError(f"{self.key}: a typed pin table needs its datasheet page and figure")
        if self.symbol and not self.name:
            object.__setattr__(self, "name", self.symbol.partition(":")[2])

    @cached_property
    def pins(self):
        """((number, name, SKiDL function), ...): the symbol's pins, or the datasheet's."""
        if self.pin_table:
            return self.pin_table
        labels = dict(self.labels)
        out = []
        for p in symbols.pins(self.symbol):
            name = symbols.plain_name(p.name)
            if unnamed(p.number, name):
                name = labels.pop(p.number, p.number)
            out.append((p.number, name, KICAD_TYPES[p.electrical]))
        if labels:
            raise ValueError(f"{self.key}: labels {labels} for pins {self.symbol} names or lacks")
        return tuple(out)


def pin_number(key, name):
    """The number of part `key`'s pin called `name`: for names SKiDL's pin lookup would read
    as a pattern (the 74AHC595's "QH'" also matches its "QH")."""
    (number,) = [n for n, nm, _ in CATALOGUE[key].pins if nm == name]
    return number


def unnamed(number, name):
    """Whether KiCad's symbol leaves a pin without a name of its own: "~", or a generic
    connector's "Pin_N" (its number again)."""
    return name in ("~", "", number, f"Pin_{number}")


def _r0805(key, value, code, description):
    """A Yageo RC0805 1 % resistor; `code` is the value part of its MPN (10K, 4K7, 56K2)."""
    return PartDef(key, "R", value, "Yageo", f"RC0805FR-07{code}L",
                   "Resistor_SMD:R_0805_2012Metric", description, symbol="Device:R",
                   package=P_0805_R)


def _conn(n, labels=()):
    return dict(symbol=f"Connector_Generic:Conn_01x{n:02d}", labels=labels)


# Packages (mm). JEDEC outlines as the vendors' package drawings give them.
P_0805_R = Package(2, span=2.0, body=(2.0, 1.25),
                   source="Yageo RC_L datasheet, 'Dimensions' table, RC0805: L 2.00 +-0.10, W "
                          "1.25 +-0.10")
P_0805_C = Package(2, span=2.0, body=(2.0, 1.25),
                   source="Samsung CL21 (0805) spec: L 2.0 +-0.1, W 1.25 +-0.1")
P_SOIC = {n: Package(n, pitch=1.27, span=6.0, body=(length, 3.9),
                     source=f"TI package drawing D{n:04d}A (SOIC-{n}), in the datasheet's "
                            f"mechanical pages: e 1.27, E 5.8-6.2, body {length} x 3.9")
          for n, length in ((14, 8.65), (16, 9.9))}
P_SOT23_6 = Package(6, pitch=0.95, span=2.8, body=(2.9, 1.6),
                    source="SOT-23-6 (DBV/6-lead): e 0.95, E 2.6-3.0, body 2.9 x 1.6")


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
    PartDef("pico", "U", "Raspberry Pi Pico", "Raspberry Pi", "SC0915",
            "Knockboard:RaspberryPi_Pico_THT",
            "RP2040 module, 2x20 pins at 2.54 mm; on-board 3.3 V buck-boost and decoupling",
            name="RaspberryPi_Pico", pin_table=_pico_pins(),
            pin_source="Raspberry Pi Pico datasheet, section 1, Figure 2 (the pinout), and "
                       "section 4.1 (pin descriptions)",
            package=Package(40, pitch=2.54, body=(51.0, 21.0),
                            source="Raspberry Pi Pico datasheet, chapter 2 'Mechanical "
                                   "specification', Figure 4: 51 x 21 mm, pins at 2.54 mm"),
            datasheet="https://datasheets.raspberrypi.com/pico/pico-datasheet.pdf",
            power_pins=("VSYS",), ground_pins=("GND", "AGND")),
    # KiCad 6 has no 74AHCT125 (its 74LS125 has the same pinout but leaves the gates' pins unnamed)
    PartDef("ahct125", "U", "74AHCT125", "Texas Instruments", "SN74AHCT125DR",
            "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm",
            "Quad buffer, 3-state, TTL inputs at 5 V: 3.3 V to 5 V level shifter for the LED data",
            name="74AHCT125",
            pin_table=(("1", "~1OE", IN), ("2", "1A", IN), ("3", "1Y", TRI), ("4", "~2OE", IN),
                       ("5", "2A", IN), ("6", "2Y", TRI), ("7", "GND", PWRIN), ("8", "3Y", TRI),
                       ("9", "3A", IN), ("10", "~3OE", IN), ("11", "4Y", TRI), ("12", "4A", IN),
                       ("13", "~4OE", IN), ("14", "VCC", PWRIN)),
            pin_source="TI SN74AHCT125 datasheet, 'Pin Configuration and Functions': D package "
                       "(top view) and the pin functions table, p. 3",
            package=P_SOIC[14],
            datasheet="https://www.ti.com/lit/ds/symlink/sn74ahct125.pdf",
            power_pins=("VCC",), ground_pins=("GND",)),
    # AHC, not HC: at 3.3 V the HC595 needs ~30-40 ns clock pulses (between its 2 V and 4.5 V
    # figures), longer than the firmware's back-to-back register writes; the AHC595 needs 5 ns
    # pulses, 3.5 ns set-up (pinmap.json matrix.rows.timing_ns, for the edge test on the emulated
    # RP2040).
    PartDef("ahc595", "U", "74AHC595", "Texas Instruments", "SN74AHC595DR",
            "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm",
            "8-bit shift register with output latches, AHC (5 ns pulses at 3.3 V): drives 8 "
            "key-matrix rows",
            symbol="74xx:74AHC595", package=P_SOIC[16],
            datasheet="https://www.ti.com/lit/ds/symlink/sn74ahc595.pdf",
            power_pins=("VCC",), ground_pins=("GND",)),
    PartDef("nmos", "Q", "2N7002", "Nexperia", "2N7002,215",
            "Package_TO_SOT_SMD:SOT-23", "N-channel MOSFET 60 V 300 mA, logic level: buzzer driver",
            symbol="Transistor_FET:2N7002",
            package=Package(3, pitch=1.9, span=2.4, body=(2.9, 1.3),
                            source="Nexperia 2N7002 datasheet, package outline SOT23 (TO-236AB): "
                                   "e1 1.9, HE 2.1-2.5, D 2.8-3.0, E 1.2-1.4")),
    PartDef("ltc4365", "U", "LTC4365", "Analog Devices", "LTC4365CTS8#TRMPBF",
            "Knockboard:TSOT-23-8_LTC4365",
            "Overvoltage, undervoltage and reverse-supply controller (-40 V to 60 V at VIN): "
            "drives back-to-back N-MOSFETs that disconnect the 5 V jack outside 4.3-5.7 V",
            symbol="Power_Management:LTC4365xTS8",
            package=Package(8, pitch=0.65, span=2.8, body=(2.9, 1.6),
                            source="LTC4365 datasheet, 'Package Description', TS8 (TSOT-23-8, "
                                   "05-08-1637): 0.65 BSC, 2.80 BSC, body 2.90 x 1.60"),
            datasheet="https://www.analog.com/media/en/technical-documentation/data-sheets/LTC4365.pdf",
            power_pins=("VIN",), ground_pins=("GND",)),
    # KiCad 6 has no AO4800; the generic Device:Q_Dual_NMOS_S1G1S2G2D2D2D1D1 draws the same
    # pinout with every drain named D
    PartDef("dualnfet", "Q", "AO4800", "Alpha & Omega Semiconductor", "AO4800",
            "Package_SO:SOIC-8_3.9x4.9mm_P1.27mm",
            "Dual N-MOSFET 30 V 6.9 A, 32 mohm at 4.5 V: the jack's back-to-back protection switch",
            name="Q_Dual_NMOS",
            pin_table=(("1", "S1", PAS), ("2", "G1", IN), ("3", "S2", PAS), ("4", "G2", IN),
                       ("5", "D2_5", PAS), ("6", "D2_6", PAS), ("7", "D1_7", PAS),
                       ("8", "D1_8", PAS)),
            pin_source="AOS AO4800 datasheet, p. 1, the SOIC-8 top-view pin diagram "
                       "(1 S1, 2 G1, 3 S2, 4 G2, 5-6 D2, 7-8 D1)",
            package=Package(8, pitch=1.27, span=6.0, body=(4.9, 3.9),
                            source="AOS AO4800 datasheet, SO-8 package outline: e 1.27, E 5.8-6.2, "
                                   "D 4.8-5.0, E1 3.8-4.0"),
            datasheet="https://www.aosmd.com/res/data_sheets/AO4800.pdf"),
    PartDef("tps2553", "U", "TPS2553", "Texas Instruments", "TPS2553DBVR",
            "Package_TO_SOT_SMD:SOT-23-6",
            "Current-limited power switch 2.5-6.5 V, limit set by RILIM, built-in soft start: "
            "USB VBUS to the LED rail, off at plug-in and while the jack feeds the board",
            name="TPS2553",
            pin_table=(("1", "IN", PWRIN), ("2", "GND", PWRIN), ("3", "EN", IN),
                       ("4", "~FAULT", OUT),
                       ("5", "ILIM", PAS), ("6", "OUT", PWROUT)),
            pin_source="TI TPS2552/TPS2553 datasheet, 'Pin Configuration and Functions': DBV "
                       "package (top view) and the pin functions table, p. 3 (EN active high on "
                       "the TPS2553)",
            package=P_SOT23_6,
            datasheet="https://www.ti.com/lit/ds/symlink/tps2553.pdf",
            power_pins=("IN",), ground_pins=("GND",)),
    PartDef("srv05", "U", "SRV05-4", "onsemi", "SRV05-4MR6T1G",
            "Package_TO_SOT_SMD:SOT-23-6",
            "4-line ESD protection array (rail clamp + 6 V TVS), IEC 61000-4-2: matrix lines at "
            "the ribbon headers",
            symbol="Power_Protection:SRV05-4", package=P_SOT23_6,
            datasheet="https://www.onsemi.com/pdf/datasheet/srv05-4-d.pdf"),
    # --- controller: diodes and protection ---
    # KiCad 6 has no MBR120VLSF: the generic Schottky, cathode pin 1 as on the SOD-123F footprint
    PartDef("schottky", "D", "MBR120VLSFT1G", "onsemi", "MBR120VLSFT1G",
            "Diode_SMD:D_SOD-123F",
            "Schottky diode 20 V 1 A, 0.34 V: power OR-ing into VSYS and +5V",
            symbol="Device:D_Schottky",
            package=Package(2, span=3.7, body=(2.7, 1.6),
                            source="onsemi MBR120VLSF datasheet, SOD-123FL package dimensions: "
                                   "HE 3.5-3.9, D 2.6-2.8 (body), E 1.5-1.7")),
    PartDef("flyback", "D", "1N4148W", "Diodes Incorporated", "1N4148W-7-F",
            "Diode_SMD:D_SOD-123",
            "Switching diode 75 V 150 mA: buzzer flyback, jack-sense blocking diode",
            symbol="Diode:1N4148W",
            package=Package(2, span=3.7, body=(2.7, 1.6),
                            source="Diodes Inc. 1N4148W datasheet, SOD-123 package outline: "
                                   "overall 3.55-3.85, body 2.55-2.85 x 1.40-1.70")),
    PartDef("polyfuse", "F", "2A hold", "Bourns", "MF-MSMF200-2",
            "Fuse:Fuse_1812_4532Metric",
            "PTC resettable fuse, 2.0 A hold, 3.5 A trip, 8 V, 1812 (behind the overvoltage "
            "switch)",
            symbol="Device:Polyfuse",
            package=Package(2, span=4.5, body=(4.5, 3.2),
                            source="Bourns MF-MSMF datasheet, product dimensions: 1812, "
                                   "A 4.37-4.73 (length), B 3.07-3.41 (width)")),
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
    # The CAT16-J4 is 3.2 x 1.6 mm with 0.8 mm pitch and concave terminals (Bourns: "CAT16 =
    # Concave Terminations, CAY16 = Convex"): KiCad's concave 4x0603 array (drawn for Vishay's
    # CRA06P, the same 3.2 x 1.6 mm, 0.8 mm pitch concave package, eight equal 0.4 mm pads),
    # not the 4x1206 (ROHM MNR34, 1.33 mm pitch) the boards had, which the part cannot be
    # soldered to, nor the convex 4x0603 (MNR14: wider corner pads, for a CAY16).
    PartDef("rn10k", "RN", "4x10k", "Bourns", "CAT16-103J4LF",
            "Resistor_SMD:R_Array_Concave_4x0603", "Resistor array 4 x 10 kohm, isolated, "
            "3.2 x 1.6 mm concave: column pull-ups",
            symbol="Device:R_Pack04",
            package=Package(8, pitch=0.8, span=1.6, body=(3.2, 1.6),
                            source="Bourns CAT16/CAY16 datasheet, p. 1, 'Product Dimensions', "
                                   "CAT16-J4: L 3.20 +-0.20, W 1.60 +-0.15, P 0.80 +-0.10"),
            datasheet="https://www.bourns.com/docs/Product-Datasheets/CATCAY.pdf"),
    PartDef("c100n", "C", "100nF", "Samsung Electro-Mechanics", "CL21B104KBCNNNC",
            "Capacitor_SMD:C_0805_2012Metric", "Capacitor 100 nF 50 V X7R 0805: decoupling",
            symbol="Device:C", package=P_0805_C),
    PartDef("c10u", "C", "10uF", "Samsung Electro-Mechanics", "CL21A106KAYNNNE",
            "Capacitor_SMD:C_0805_2012Metric", "Capacitor 10 uF 25 V X5R 0805: bulk decoupling",
            symbol="Device:C", package=P_0805_C),
    PartDef("c1u", "C", "1uF", "Samsung Electro-Mechanics", "CL21B105KBFNNNE",
            "Capacitor_SMD:C_0805_2012Metric", "Capacitor 1 uF 50 V X7R 0805: enable delay",
            symbol="Device:C", package=P_0805_C),
    PartDef("c1000u", "C", "1000uF", "Panasonic", "EEU-FR1C102",
            "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
            "Electrolytic 1000 uF 16 V low ESR: LED supply bulk capacitor",
            symbol="Device:C_Polarized", labels=(("1", "+"), ("2", "-")),
            package=Package(2, pitch=5.0, body=(10.0, 10.0),
                            source="Panasonic FR series datasheet, dimensions table, case D 10: F "
                                   "(lead space) 5.0")),
    PartDef("c100u", "C", "100uF", "Panasonic", "EEU-FR1C101",
            "Capacitor_THT:CP_Radial_D6.3mm_P2.50mm",
            "Electrolytic 100 uF 16 V low ESR: LED supply on the cell board",
            symbol="Device:C_Polarized", labels=(("1", "+"), ("2", "-")),
            package=Package(2, pitch=2.5, body=(6.3, 6.3),
                            source="Panasonic FR series datasheet, dimensions table, case D 6.3: "
                                   "F (lead space) 2.5")),
    # --- electromechanical ---
    PartDef("jack", "J", "5V DC in", "CUI Devices", "PJ-063AH",
            "Connector_BarrelJack:BarrelJack_CUI_PJ-063AH_Horizontal",
            "DC barrel jack 2.0 mm pin (5.5/2.1 mm plug), 8 A 24 V, centre positive, 5 V in",
            symbol="Connector:Barrel_Jack", labels=(("1", "TIP"), ("2", "SLEEVE"))),
    PartDef("vh3", "J", "LED 5V/DIN/GND", "JST", "B3P-VH",
            "Connector_JST:JST_VH_B3P-VH_1x03_P3.96mm_Vertical",
            "JST VH 3-pin header, 10 A a contact: LED power and data to the cell board",
            **_conn(3, (("1", "+5V"), ("2", "DIN"), ("3", "GND"))),
            package=Package(3, pitch=3.96, source="JST VH catalogue, B*P-VH header: pitch 3.96")),
    PartDef("vh2", "J", "LED 5V/GND", "JST", "B2P-VH",
            "Connector_JST:JST_VH_B2P-VH_1x02_P3.96mm_Vertical",
            "JST VH 2-pin header, 10 A a contact: second LED power feed (far end of the chain)",
            **_conn(2, (("1", "+5V"), ("2", "GND"))),
            package=Package(2, pitch=3.96, source="JST VH catalogue, B*P-VH header: pitch 3.96")),
    *(PartDef(f"idc{2 * n}", "J", f"IDC 2x{n}", "Wurth Elektronik", f"612{2 * n:03d}21621",
              f"Connector_IDC:IDC-Header_2x{n:02d}_P2.54mm_Vertical",
              (f"Box header 2x{n} 2.54 mm: 16 matrix lines and 4 grounds interleaved (20-way "
               "ribbon)"
               if n == 10 else
               f"Box header 2x{n} 2.54 mm: joins two tiles of a cell board (short {2 * n}-way "
               "ribbon)"),
              symbol=f"Connector_Generic:Conn_02x{n:02d}_Odd_Even",
              package=Package(2 * n, pitch=2.54,
                              source="Wurth WR-BHD 2.54 mm box header datasheet: pitch 2.54"))
      for n in (10, 13, 17, 25)),
    PartDef("oled_hdr", "J", "OLED GND/VCC/SCL/SDA", "Sullins", "PPPC041LFBN-RC",
            "Connector_PinSocket_2.54mm:PinSocket_1x04_P2.54mm_Vertical",
            "Socket 1x4 2.54 mm for a 0.96 in SSD1306 128x64 I2C OLED module",
            symbol="Connector:Conn_01x04_Female",
            labels=(("1", "GND"), ("2", "VCC"), ("3", "SCL"), ("4", "SDA")),
            package=Package(4, pitch=2.54,
                            source="Sullins PPPC female header datasheet: pitch 2.54")),
    PartDef("jumper", "JP", "USB->LED", "Sullins", "PRPC002SAAN-RC",
            "Connector_PinHeader_2.54mm:PinHeader_1x02_P2.54mm_Vertical",
            "2-pin header + shunt (Sullins SPC02SYAN): fit to power the LEDs from USB",
            symbol="Jumper:Jumper_2_Open",
            package=Package(2, pitch=2.54,
                            source="Sullins PRPC male header datasheet: pitch 2.54")),
    PartDef("button", "SW", "B3F-1000", "Omron", "B3F-1000",
            "Button_Switch_THT:SW_PUSH_6mm", "Tactile switch 6x6 mm: control button",
            symbol="Switch:SW_Push",
            package=Package(4, pitch=4.5, body=(6.0, 6.0),
                            source="Omron B3F datasheet, dimensions, B3F-1000: 6 x 6 body, "
                                   "terminals 6.5 x 4.5 apart")),
    # KiCad 6's Device:Buzzer numbers "-" as pin 1, while its Buzzer_12x9.5RM7.6 footprint
    # marks "+" at pad 1: following the symbol would put the coil's + lead on the - net.
    PartDef("buzzer", "BZ", "CEM-1203(42)", "CUI Devices", "CEM-1203(42)",
            "Buzzer_Beeper:Buzzer_12x9.5RM7.6",
            "Magnetic transducer 5 V 42 ohm, external drive (PWM); loud down to the 147 Hz error "
            "tone, where a piezo is nearly silent",
            name="Buzzer", pin_table=(("1", "+", PAS), ("2", "-", PAS)),
            pin_source="CUI CEM-1203(42) datasheet, p. 2, dimensions drawing (the + terminal "
                       "marked); pad 1 is the footprint's '+' silkscreen mark",
            package=Package(2, pitch=7.6, body=(12.0, 12.0),
                            source="CUI CEM-1203(42) datasheet, p. 2: 12 mm diameter, terminals "
                                   "7.6 apart")),
    # --- cell board ---
    PartDef("sk6812mini", "LED", "SK6812MINI", "OPSCO Optoelectronics", "SK6812MINI",
            "LED_SMD:LED_SK6812MINI_PLCC4_3.5x3.5mm_P1.75mm",
            "Addressable RGB LED 3535, 5 V, GRB, 800 kHz (WS2812B protocol), 0.2 W",
            symbol="LED:SK6812MINI",
            package=Package(4, pitch=1.75, span=3.5, body=(3.5, 3.5),
                            source="SK6812MINI datasheet REV.01, p. 2, mechanical dimensions: "
                                   "3.5 x 3.5 body, pins 1.75 apart at the body's edge"),
            datasheet="https://cdn-shop.adafruit.com/product-files/2686/SK6812MINI_REV.01-1-2.pdf",
            power_pins=("VDD",), ground_pins=("VSS",)),
    PartDef("key", "SW", "PTS645", "C&K", "PTS645SM43SMTR92 LFS",
            "Button_Switch_SMD:SW_SPST_PTS645", "Tactile switch 6x6 mm SMD: the key under a cell",
            symbol="Switch:SW_Push", package=Package(4, body=(6.0, 6.0),
                                                     source="C&K PTS645 datasheet, p. 2: 6 x 6 "
                                                            "body, 4 SMD terminals")),
    PartDef("keydiode", "D", "1N4148W", "onsemi", "1N4148WT1G",
            "Diode_SMD:D_SOD-123",
            "Switching diode SOD-123: one per key, cathode to the row (no ghosting)",
            symbol="Diode:1N4148W",
            package=Package(2, span=3.7, body=(2.7, 1.6),
                            source="onsemi 1N4148W datasheet, SOD-123 case 425: HE 3.55-3.85, "
                                   "D 2.55-2.85, E 1.40-1.70")),
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
    Extra("VH housing 3-pin", "JST", "VHR-3N", "Cable housing for J2 / cell board J1",
          qty_controller=2),
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
