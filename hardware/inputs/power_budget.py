"""The power budget per game board, from the firmware's own LED current model and limiter
(firmware/power.py, with the figures in firmware/pinmap.json "power") and the controller's
other loads."""

import importlib.util
import os

from .pinmap import ROOT, load_pinmap

# Controller loads besides the LEDs, mA: (typical, maximum, basis)
BUZZER_COIL_OHM = 42         # CUI CEM-1203(42)
BUZZER_SERIES_OHM = 56       # R14
BUZZER_PEAK_MA = round(5000 / (BUZZER_COIL_OHM + BUZZER_SERIES_OHM))
CONTROLLER = [
    ("Raspberry Pi Pico", 25, 50,
     "RP2040 at 125 MHz running MicroPython with USB (Pico datasheet, power consumption); max "
     "with every peripheral busy"),
    ("OLED SSD1306 128x64", 10, 25, "a few lines of text typical; every pixel lit maximum"),
    ("Buzzer CEM-1203(42) + R14", 0, BUZZER_PEAK_MA,
     f"silent most of the time; peak 5 V / ({BUZZER_COIL_OHM} + {BUZZER_SERIES_OHM}) ohm while the "
     "transistor conducts (the coil's inductance only lowers it, most at the 2.4 kHz resonance), "
     "the same for every tone"),
    ("Logic, pull-ups, protection", 1, 8,
     "74AHC595 x2, 74AHCT125, 10 k column pull-ups with keys held, LTC4365, TPS2553, dividers"),
]
USB_PORT_MA = 500            # USB 2.0 port
EXTERNAL_SUPPLY_MA = 4000    # MEAN WELL GST25E05-P1J, 5 V 4 A
POLYFUSE_HOLD_MA = 2000      # F1, Bourns MF-MSMF200-2 at 23 C
POLYFUSE_TRIP_MA = 3500
FUSE_MARGIN = 1.2            # hold >= 1.2 x the worst draw: a PTC holds less in a warm case
# U6 TPS2553 with RILIM 56.2 k (typical, the datasheet's RILIM equation)
USB_SWITCH_LIMIT_MA = 470
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
# routed boards' real drops are measured from their copper by hardware/power/rails.py
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
    spec = importlib.util.spec_from_file_location("fw_power",
                                                  os.path.join(ROOT, "firmware", "power.py"))
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
    from .game_layouts import chain_length_mm
    return [board_budget(name, boards[name]["cells"], pm, chain_length_mm(name, boards))
            for name in sorted(boards)]


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
