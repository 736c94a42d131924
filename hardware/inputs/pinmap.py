"""The firmware's pin map (firmware/pinmap.json): which GPIO drives which signal, checked
against the Pico's pads and the ribbon's pins."""

import json
import math
import os

from ..parts.catalogue import PICO_GPIO_PAD, RIBBON_SIGNAL_PINS

# the repository
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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
            ("oled.scl", pm["oled"]["scl"], "I2C_SCL"),
            ("supply.jack_sense", pm["supply"]["jack_sense"], "JACK_SENSE")]
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
        problems.append("matrix.rows.max must be 1..16 (one 20-way row connector)")
    if not 1 <= m["cols"]["count"] <= 16:
        problems.append("matrix.cols.count must be 1..16 (one 20-way column connector)")
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
        "JACK_SENSE": [("R10", "2"), ("R11", "1")],
        "I2C_SDA": [("J5", "SDA"), ("R5", "1")],
        "I2C_SCL": [("J5", "SCL"), ("R6", "1")],
    }
    for i in range(pm["matrix"]["cols"]["count"]):
        ep[f"COL{i}"] = [("J4", str(RIBBON_SIGNAL_PINS[i])), (f"RN{1 + i // 4}", f"R{1 + i % 4}.1")]
    return ep
