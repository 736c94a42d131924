"""The power budget per game board, from the firmware's own LED current model and limiter
(firmware/power.py, with the figures in firmware/pinmap.json "power") and the controller's
other loads."""

import importlib.util
import os

from .controller import ROOT, load_pinmap

# Controller loads besides the LEDs, mA: (typical, maximum, basis)
BUZZER_COIL_OHM = 42         # CUI CEM-1203(42)
BUZZER_SERIES_OHM = 56       # R14
BUZZER_PEAK_MA = round(5000 / (BUZZER_COIL_OHM + BUZZER_SERIES_OHM))
CONTROLLER = [
    ("Raspberry Pi Pico", 25, 50, "RP2040 at 125 MHz running MicroPython with USB (Pico datasheet, power consumption); max with every peripheral busy"),
    ("OLED SSD1306 128x64", 10, 25, "a few lines of text typical; every pixel lit maximum"),
    ("Buzzer CEM-1203(42) + R14", 0, BUZZER_PEAK_MA,
     f"silent most of the time; peak 5 V / ({BUZZER_COIL_OHM} + {BUZZER_SERIES_OHM}) ohm while the transistor conducts "
     "(the coil's inductance only lowers it, most at the 2.4 kHz resonance), the same for every tone"),
    ("Logic, pull-ups, protection", 1, 8, "74AHC595 x2, 74AHCT125, 10 k column pull-ups with keys held, LTC4365, TPS2553, dividers"),
]
USB_PORT_MA = 500            # USB 2.0 port
EXTERNAL_SUPPLY_MA = 4000    # MEAN WELL GST25E05-P1J, 5 V 4 A
POLYFUSE_HOLD_MA = 2000      # F1, Bourns MF-MSMF200-2 at 23 C
POLYFUSE_TRIP_MA = 3500
FUSE_MARGIN = 1.2            # hold >= 1.2 x the worst draw: a PTC holds less in a warm case
USB_SWITCH_LIMIT_MA = 470    # U6 TPS2553 with RILIM 56.2 k (typical, the datasheet's RILIM equation)
# Current ratings of what the jack's current passes through, mA (manufacturers' datasheets)
RATINGS_MA = {
    "5 V supply (MEAN WELL GST25E05-P1J)": EXTERNAL_SUPPLY_MA,
    "J1 barrel jack (CUI PJ-063AH)": 8000,
    "J2, J6 LED connectors (JST VH, a contact)": 10000,
    "cell board J1, J4 (JST VH, a contact)": 10000,
}
# Whether a cell board gets a second feed (J4, at the chain's far end) is decided before any
# routing, from a rule of thumb: +5V and GND as traces of this width in 1 oz copper along the
# LED chain, the LEDs' current spread evenly along them. It decides the netlist only; the
# routed boards' real drops are measured from their copper by hardware/rails.py
# (hardware/pcb/rails.json) and checked against MAX_RAIL_DROP_V in tests/test_pcb.py.
RAIL_WIDTH_MM = 2.5
COPPER_UM = 35
COPPER_OHM_M = 1.72e-8
MAX_RAIL_DROP_V = 0.3        # +5V and GND together: the far LED still sees >= 4.5 V
# USB 2.0 (7.2.4.1): at most 10 uF (in parallel with 44 ohm) may appear on VBUS at attach.
USB_PLUGIN_UF = 10.0


def rail_ohm_per_mm():
    return COPPER_OHM_M / (RAIL_WIDTH_MM * 1e-3 * COPPER_UM * 1e-6) / 1000


def rail_drop_v(length_mm, current_ma, feeds=1):
    """Drop of +5V plus GND at the worst LED for `current_ma` spread evenly along a rail of
    `length_mm`: fed at one end the worst point is the far end (I R L / 2 a conductor); fed at
    both ends it is the middle (I R L / 8)."""
    per_conductor = current_ma / 1000 * rail_ohm_per_mm() * length_mm / (2 if feeds == 1 else 8)
    return 2 * per_conductor


def needs_second_feed(length_mm, pm=None):
    """A second feed at the chain's far end when one feed lets the rails drop more than
    MAX_RAIL_DROP_V at the jack's LED budget."""
    pm = pm or load_pinmap()
    return rail_drop_v(length_mm, pm["power"]["jack_budget_ma"]) > MAX_RAIL_DROP_V


def _limiter_class():
    spec = importlib.util.spec_from_file_location("fw_power", os.path.join(ROOT, "firmware", "power.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.PowerLimiter


def board_budget(name, n, pm=None, chain_mm=0.0):
    pm = pm or load_pinmap()
    p = pm["power"]
    Limiter = _limiter_class()
    lim = Limiter(n, p["led_budget_ma"], p["ma_per_channel"], p["ma_idle"])
    full = 255
    # typical: a move prompt, the selected piece white and six targets in one full colour
    typical_sum = 3 * full + 6 * full
    b_typ = lim.limit(typical_sum, full)
    typical = lim.estimate_ma(typical_sum, b_typ)
    # the worst scene: every cell full white
    white_sum = n * 3 * full
    unlimited = lim.estimate_ma(white_sum, full)
    b_white = lim.limit(white_sum, full)
    limited = lim.estimate_ma(white_sum, b_white)
    jack = Limiter(n, p["jack_budget_ma"], p["ma_per_channel"], p["ma_idle"])
    b_jack = jack.limit(white_sum, full)
    jack_leds = jack.estimate_ma(white_sum, b_jack)
    ctl_typ = sum(t for _, t, _, _ in CONTROLLER)
    ctl_max = sum(m for _, _, m, _ in CONTROLLER)
    feeds = 2 if needs_second_feed(chain_mm, pm) else 1
    return {
        "board": name, "leds": n,
        "led_dark_ma": n * p["ma_idle"],
        "led_typical_ma": typical,
        "led_worst_unlimited_ma": unlimited,
        "led_worst_limited_ma": limited,
        "white_brightness_at_default": b_white,
        "white_brightness_at_jack": b_jack,
        "controller_typical_ma": ctl_typ,
        "controller_max_ma": ctl_max,
        "total_typical_ma": typical + ctl_typ,
        "total_worst_default_ma": limited + ctl_max,
        "led_worst_jack_ma": jack_leds,
        "total_worst_jack_ma": jack_leds + ctl_max,
        "default_budget_ma": p["led_budget_ma"],
        "jack_budget_ma": p["jack_budget_ma"],
        "chain_mm": round(chain_mm),
        "rail_drop_one_feed_v": round(rail_drop_v(chain_mm, jack_leds), 3),
        "feeds": feeds,
        "rail_drop_v": round(rail_drop_v(chain_mm, jack_leds, feeds), 3),
    }


def all_budgets(boards, pm=None):
    from .cellboard import chain_length_mm
    return [board_budget(name, boards[name]["cells"], pm, chain_length_mm(name, boards))
            for name in sorted(boards)]


def markdown(budgets, pm=None, measured=None):
    """The power section of docs/build.md; `measured`: the routed boards' rails
    (hardware/rails.load())."""
    pm = pm or load_pinmap()
    p = pm["power"]
    out = [
        f"LED model (firmware/power.py): {p['ma_idle']} mA per LED dark plus {p['ma_per_channel']} mA per colour "
        "channel at full drive (SK6812MINI: 0.2 W at 5 V, 40 mA a LED at full white, 1 mA of it the "
        "chip's own). The firmware lowers the brightness of a scene until its estimate fits the budget "
        "of the supply it finds (firmware/supply.py): "
        f"**{p['led_budget_ma']} mA** on USB alone (`led_budget_ma`), **{p['jack_budget_ma']} mA** with the "
        "5 V supply on J1 (`jack_budget_ma`), both in firmware/pinmap.json; a board.json "
        "`led_budget_ma` (`knockboard flash --budget-ma`) can only lower them. Figures in mA.",
        "",
        "| board | LEDs | all dark | typical (move prompt) | worst, no limit (all white) | worst, USB | "
        "controller typ / max | **total typical** | **total worst, USB** | total worst, jack |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for b in budgets:
        out.append(
            f"| {b['board']} | {b['leds']} | {b['led_dark_ma']} | {b['led_typical_ma']} | "
            f"{b['led_worst_unlimited_ma']} | {b['led_worst_limited_ma']} (white at {b['white_brightness_at_default']}/255) | "
            f"{b['controller_typical_ma']} / {b['controller_max_ma']} | {b['total_typical_ma']} | "
            f"{b['total_worst_default_ma']} | {b['total_worst_jack_ma']} (white at {b['white_brightness_at_jack']}/255) |")
    worst_usb = max(b["total_worst_default_ma"] for b in budgets)
    worst_jack = max(b["total_worst_jack_ma"] for b in budgets)
    out += [
        "",
        "Typical = the selected piece lit white and six legal targets lit in one full colour, all "
        "other cells dark. Controller loads:",
        "",
        "| load | typical | max | basis |",
        "| --- | ---: | ---: | --- |",
    ]
    out += [f"| {n} | {t} | {m} | {why} |" for n, t, m, why in CONTROLLER]
    out += [
        "",
        "Which supply (the firmware reads GP15, the jack's voltage at Q2's source tie through D4 and "
        "R10/R11, high only while U5 passes the jack, and the Pico's VBUS detect on GP24, and picks "
        "the budget itself, firmware/supply.py):",
        "",
        f"- **USB only** (JP1 fitted): the LED rail is fed by U6 (TPS2553), current-limited to about "
        f"{USB_SWITCH_LIMIT_MA} mA. Typical play draws "
        f"{min(b['total_typical_ma'] for b in budgets)}-{max(b['total_typical_ma'] for b in budgets)} mA, the "
        f"worst case by the model {worst_usb} mA against the {USB_PORT_MA} mA of a USB 2.0 port. "
        "Without JP1 the LEDs stay dark on USB (the Pico, OLED and buzzer still work). "
        "Open point: the MicroPython 1.27 image declares 250 mA in its USB configuration "
        "(bMaxPower 0x7D in rp2040-image/), and the worst case above is more than that: "
        "ordinary PC ports supply it, but a strict hub may not. Building the image with "
        "500 mA declared (TinyUSB's USBD_MAX_POWER_MA) closes it; the 5 V supply avoids it.",
        f"- **5 V supply on J1** (MEAN WELL GST25E05-P1J, 5 V 4 A; JP1 may stay fitted: Q3, reading the "
        f"jack ahead of F1, turns U6 off while the jack feeds the board): worst case {worst_jack} mA. F1 holds {POLYFUSE_HOLD_MA} mA "
        f"(>= {FUSE_MARGIN} x the worst case, the allowance for a warm case) and trips at "
        f"{POLYFUSE_TRIP_MA} mA, below every rating in its path:",
        "",
        "| in the jack's path | rated mA |",
        "| --- | ---: |",
    ]
    out += [f"| {what} | {ma} |" for what, ma in RATINGS_MA.items()]
    out += [
        "",
        "Input protection (U5 LTC4365 with Q2, thresholds from R7/R8/R9): the jack reaches the board "
        f"only between {uv_v():.2f} V and {ov_v():.2f} V. A 12 V adapter: U5 keeps Q2 off (and turns it off "
        "within microseconds if the voltage rises while running), the board stays unpowered from J1 and "
        "runs from USB if USB is there. A reversed plug: U5 (rated to -40 V) holds Q2's gates at the "
        "negative input, Q2's back-to-back body diodes block, nothing downstream sees the reversed voltage.",
        "",
        f"USB at plug-in: U6 is off until R13/C10 have charged (~0.1 s) and stays off while the jack is "
        f"present, so VBUS sees the Pico's own input and {board_vbus_uf_text()} of this board "
        f"(C6 on VSYS, C9 at U6's input) against USB's {USB_PLUGIN_UF:g} uF allowance; U6 then charges the "
        "LED rail's 1.2 mF within its current limit.",
        "",
        "The cell board's rails. Whether a board has a second feed at the chain's far end (cell "
        "board J4 from controller J6) is decided before routing, by a rule of thumb: +5V and GND "
        f"as {RAIL_WIDTH_MM} mm traces in 1 oz copper along the LED chain, the jack budget's LED current "
        f"spread along them, a second feed when one would let them drop more than {MAX_RAIL_DROP_V} V "
        "together (the far LED still sees 4.5 V or more):",
        "",
        "| board | chain mm | LEDs at jack budget, mA | rule, one feed | feeds | rule |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    out += [f"| {b['board']} | {b['chain_mm']} | {b['led_worst_jack_ma']} | {b['rail_drop_one_feed_v']:.2f} V | "
            f"{b['feeds']} | {b['rail_drop_v']:.2f} V |" for b in budgets]
    if measured:
        from .rails import PLATING_UM, RISE_C, markdown as rails_markdown
        out += [
            "",
            "The routed boards do not follow that rule's picture: the router draws +5V as 0.6 mm "
            "tracks (fab.POWER_TRACK) in a tree of its own, and GND is a pour on the bottom layer. "
            "What they really do, measured from their copper (`python3 -m hardware.rails`, "
            "hardware/rails.py: KiCad's tracks, vias, pads and filled pours of the net as a resistor "
            f"network in 1 oz copper, vias with {PLATING_UM} um of plating, each LED drawing its share "
            "of the jack budget at its pad, fed at J1 and J4; a board in tiles is solved as one "
            "network through its join ribbon; from the J1 and J4 pads on, the supply wires and "
            "connector contacts come on top, about 20 mV a feed at 1 A through 0.5 m of 18 AWG). The limit is the same "
            f"{MAX_RAIL_DROP_V} V together; a track's current is held against IPC-2221's figure for "
            f"an outer-layer track of its width at a {RISE_C} C rise:",
            "",
            rails_markdown(measured).rstrip("\n"),
        ]
    return "\n".join(out) + "\n"


# U5's thresholds: UV and OV compare with 0.5 V (LTC4365 datasheet) on the R7/R8/R9 ladder
LADDER_OHM = (1_000_000, 33_000, 100_000)
LTC4365_REF_V = 0.5


def uv_v():
    r7, r8, r9 = LADDER_OHM
    return LTC4365_REF_V * (r7 + r8 + r9) / (r8 + r9)


def ov_v():
    r7, r8, r9 = LADDER_OHM
    return LTC4365_REF_V * (r7 + r8 + r9) / r9


BOARD_VBUS_UF = 0.2          # C6 + C9, checked against the netlist by checks.vbus_plugin_uf


def board_vbus_uf_text():
    return f"{BOARD_VBUS_UF:g} uF"
