"""The power budget per game board, from the firmware's own LED current model and limiter
(firmware/power.py, with the figures in firmware/pinmap.json "power") and the controller's
other loads."""

import importlib.util
import os

from .controller import ROOT, load_pinmap

# Controller loads besides the LEDs, mA: (typical, maximum, basis)
CONTROLLER = [
    ("Raspberry Pi Pico", 25, 50, "RP2040 at 125 MHz running MicroPython with USB (Pico datasheet, power consumption); max with every peripheral busy"),
    ("OLED SSD1306 128x64", 10, 25, "a few lines of text typical; every pixel lit maximum"),
    ("Buzzer CEM-1203(42)", 0, 30, "silent most of the time; rated current while sounding"),
    ("Logic and pull-ups", 1, 8, "74AHC595 x2, 74AHCT125, 10 k column pull-ups with keys held"),
]
USB_PORT_MA = 500            # USB 2.0 port
EXTERNAL_SUPPLY_MA = 4000    # MEAN WELL GST25E05-P1J, 5 V 4 A
POLYFUSE_HOLD_MA = 2500      # F1, Bourns MF-MSMF250/16X-2
EXTERNAL_BUDGET_MA = 2000    # led_budget_ma advised with the external supply


def _limiter_class():
    spec = importlib.util.spec_from_file_location("fw_power", os.path.join(ROOT, "firmware", "power.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.PowerLimiter


def board_budget(name, n, pm=None):
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
    ext = Limiter(n, EXTERNAL_BUDGET_MA, p["ma_per_channel"], p["ma_idle"])
    b_ext = ext.limit(white_sum, full)
    ctl_typ = sum(t for _, t, _, _ in CONTROLLER)
    ctl_max = sum(m for _, _, m, _ in CONTROLLER)
    return {
        "board": name, "leds": n,
        "led_dark_ma": n * p["ma_idle"],
        "led_typical_ma": typical,
        "led_worst_unlimited_ma": unlimited,
        "led_worst_limited_ma": limited,
        "white_brightness_at_default": b_white,
        "white_brightness_at_external": b_ext,
        "controller_typical_ma": ctl_typ,
        "controller_max_ma": ctl_max,
        "total_typical_ma": typical + ctl_typ,
        "total_worst_default_ma": limited + ctl_max,
        "total_worst_external_ma": ext.estimate_ma(white_sum, b_ext) + ctl_max,
        "default_budget_ma": p["led_budget_ma"],
    }


def all_budgets(boards, pm=None):
    return [board_budget(name, boards[name]["cells"], pm) for name in sorted(boards)]


def markdown(budgets, pm=None):
    pm = pm or load_pinmap()
    p = pm["power"]
    out = [
        f"LED model (firmware/power.py): {p['ma_idle']} mA per LED dark plus {p['ma_per_channel']} mA per colour "
        f"channel at full drive; the firmware lowers the brightness of a scene until its estimate fits "
        f"`led_budget_ma` (default **{p['led_budget_ma']} mA**, set in firmware/pinmap.json, overridden per board "
        "in board.json or with `knockboard flash --budget-ma`). Figures in mA.",
        "",
        "| board | LEDs | all dark | typical (move prompt) | worst, no limit (all white) | worst at default limit | "
        "controller typ / max | **total typical** | **total worst, default** | total worst, 2000 mA budget |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for b in budgets:
        out.append(
            f"| {b['board']} | {b['leds']} | {b['led_dark_ma']} | {b['led_typical_ma']} | "
            f"{b['led_worst_unlimited_ma']} | {b['led_worst_limited_ma']} (white at {b['white_brightness_at_default']}/255) | "
            f"{b['controller_typical_ma']} / {b['controller_max_ma']} | {b['total_typical_ma']} | "
            f"{b['total_worst_default_ma']} | {b['total_worst_external_ma']} (white at {b['white_brightness_at_external']}/255) |")
    worst_default = max(b["total_worst_default_ma"] for b in budgets)
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
        "Which supply:",
        "",
        f"- **USB only** (JP1 fitted, default `led_budget_ma` {p['led_budget_ma']}): typical play draws about "
        f"{min(b['total_typical_ma'] for b in budgets)}-{max(b['total_typical_ma'] for b in budgets)} mA. "
        f"The worst case by the model is {worst_default} mA against the {USB_PORT_MA} mA of a USB 2.0 port: "
        "over it only while the LEDs sit at their full budget, the buzzer sounds and every OLED pixel is "
        "lit at once, and the model is conservative (WS2812B draw nearer 12-17 mA per channel than 20). "
        "On a port that is strictly limited, set `led_budget_ma` to 350. "
        "A full-white board is dim at this budget (the brightness column); normal play looks normal.",
        f"- **External 5 V supply** (J1, MEAN WELL GST25E05-P1J 5 V 4 A; remove JP1): set "
        f"`led_budget_ma` to {EXTERNAL_BUDGET_MA} (`knockboard flash --board NAME --budget-ma {EXTERNAL_BUDGET_MA}`). "
        f"The polyfuse F1 holds {POLYFUSE_HOLD_MA} mA, so {EXTERNAL_BUDGET_MA} mA of LEDs plus the controller "
        "stays under it with margin. Full brightness of every LED at once (the no-limit column) "
        "is never reached: the firmware's limiter is what keeps the supply, F1 and the cell board's "
        "copper within their ratings.",
    ]
    return "\n".join(out) + "\n"
