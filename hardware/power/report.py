"""The power section of docs/build.md and hardware/out/power.md: the budget per board,
the supplies' ratings against it, and the rails as measured on the routed copper."""

from ..inputs.pinmap import load_pinmap
from ..inputs.power_budget import (
    CONTROLLER,
    FUSE_MARGIN,
    MAX_RAIL_DROP_V,
    POLYFUSE_HOLD_MA,
    POLYFUSE_TRIP_MA,
    RAIL_WIDTH_MM,
    RATINGS_MA,
    USB_PLUGIN_UF,
    USB_PORT_MA,
    USB_SWITCH_LIMIT_MA,
    board_vbus_uf_text,
    ov_v,
    uv_v,
)


def markdown(budgets, pm=None, measured=None):
    """The power section of docs/build.md; `measured`: the routed boards' rails
    (hardware/rails.load())."""
    pm = pm or load_pinmap()
    p = pm["power"]
    out = [
        f"LED model (firmware/power.py): {p['ma_idle']} mA per LED dark plus {p['ma_per_channel']} "
        "mA per colour channel at full drive (SK6812MINI: 0.2 W at 5 V, 40 mA a LED at full "
        "white, 1 mA of it the chip's own). The firmware lowers the brightness of a scene until "
        "its estimate fits the budget of the supply it finds (firmware/supply.py): "
        f"**{p['led_budget_ma']} mA** on USB alone (`led_budget_ma`), **{p['jack_budget_ma']} mA** "
        "with the 5 V supply on J1 (`jack_budget_ma`), both in firmware/pinmap.json; a board.json "
        "`led_budget_ma` (`knockboard flash --budget-ma`) can only lower them. Figures in mA.",
        "",
        "| board | LEDs | all dark | typical (move prompt) | worst, no limit (all white) | worst, "
        "USB | controller typ / max | **total typical** | **total worst, USB** | total worst, "
        "jack |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for b in budgets:
        out.append(
            f"| {b['board']} | {b['leds']} | {b['led_dark_ma']} | {b['led_typical_ma']} | "
            f"{b['led_worst_unlimited_ma']} | {b['led_worst_limited_ma']} (white at "
            f"{b['white_brightness_at_default']}/255) | {b['controller_typical_ma']} / "
            f"{b['controller_max_ma']} | {b['total_typical_ma']} | {b['total_worst_default_ma']} | "
            f"{b['total_worst_jack_ma']} (white at {b['white_brightness_at_jack']}/255) |")
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
        "Which supply (the firmware reads GP15, the jack's voltage at Q2's source tie through D4 "
        "and R10/R11, high only while U5 passes the jack, and the Pico's VBUS detect on GP24, and "
        "picks the budget itself, firmware/supply.py):",
        "",
        "- **USB only** (JP1 fitted): the LED rail is fed by U6 (TPS2553), current-limited to "
        f"about {USB_SWITCH_LIMIT_MA} mA. Typical play draws "
        f"{min(b['total_typical_ma'] for b in budgets)}-"
        f"{max(b['total_typical_ma'] for b in budgets)} mA, the "
        f"worst case by the model {worst_usb} mA against the {USB_PORT_MA} mA of a USB 2.0 port. "
        "Without JP1 the LEDs stay dark on USB (the Pico, OLED and buzzer still work). "
        "Open point: the MicroPython 1.27 image declares 250 mA in its USB configuration "
        "(bMaxPower 0x7D in rp2040-image/), and the worst case above is more than that: "
        "ordinary PC ports supply it, but a strict hub may not. Building the image with "
        "500 mA declared (TinyUSB's USBD_MAX_POWER_MA) closes it; the 5 V supply avoids it.",
        "- **5 V supply on J1** (MEAN WELL GST25E05-P1J, 5 V 4 A; JP1 may stay fitted: Q3, "
        "reading the jack ahead of F1, turns U6 off while the jack feeds the board): worst case "
        f"{worst_jack} mA. F1 holds {POLYFUSE_HOLD_MA} mA (>= {FUSE_MARGIN} x the worst case, the "
        f"allowance for a warm case) and trips at {POLYFUSE_TRIP_MA} mA, below every rating in its "
        "path:",
        "",
        "| in the jack's path | rated mA |",
        "| --- | ---: |",
    ]
    out += [f"| {what} | {ma} |" for what, ma in RATINGS_MA.items()]
    out += [
        "",
        "Input protection (U5 LTC4365 with Q2, thresholds from R7/R8/R9): the jack reaches the "
        f"board only between {uv_v():.2f} V and {ov_v():.2f} V. A 12 V adapter: U5 keeps Q2 off "
        "(and turns it off within microseconds if the voltage rises while running), the board "
        "stays unpowered from J1 and runs from USB if USB is there. A reversed plug: U5 (rated to "
        "-40 V) holds Q2's gates at the negative input, Q2's back-to-back body diodes block, "
        "nothing downstream sees the reversed voltage.",
        "",
        "USB at plug-in: U6 is off until R13/C10 have charged (~0.1 s) and stays off while the "
        f"jack is present, so VBUS sees the Pico's own input and {board_vbus_uf_text()} of this "
        f"board (C6 on VSYS, C9 at U6's input) against USB's {USB_PLUGIN_UF:g} uF allowance; U6 "
        "then charges the LED rail's 1.2 mF within its current limit.",
        "",
        "The cell board's rails. Whether a board has a second feed (cell board J4, at its cell "
        "farthest from J1, from controller J6) is decided before routing, by a rule of thumb: "
        "+5V and GND "
        f"as {RAIL_WIDTH_MM} mm traces in 1 oz copper along the LED chain, the jack budget's LED "
        "current spread along them, a second feed when one would let them drop more than "
        f"{MAX_RAIL_DROP_V} V together (the far LED still sees 4.5 V or more):",
        "",
        "| board | chain mm | LEDs at jack budget, mA | rule, one feed | feeds | rule |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    out += [f"| {b['board']} | {b['chain_mm']} | {b['led_worst_jack_ma']} | "
            f"{b['rail_drop_one_feed_v']:.2f} V | {b['feeds']} | {b['rail_drop_v']:.2f} V |"
            for b in budgets]
    if measured:
        from ..schematic import led_current
        from .rails import PLATING_UM, RISE_C
        from .rails import markdown as rails_markdown
        out += [
            "",
            "The routed boards do not follow that rule's picture: the router draws +5V as "
            f"{led_current.TRACK_MM:g} mm tracks (hardware/schematic/led_current.py: "
            "IPC-2221's width for F1's "
            "hold current) in a tree of its own, and GND is a pour on the bottom layer. "
            "What they really do, measured from their copper (`python3 -m hardware.power.rails`, "
            "hardware/power/rails.py: KiCad's tracks, vias, pads and filled pours of the net as "
            "a resistor "
            f"network in 1 oz copper, vias with {PLATING_UM} um of plating, each LED drawing its "
            "share "
            "of the jack budget at its pad, fed at J1 and J4; a board in tiles is solved as one "
            "network through its join ribbon; from the J1 and J4 pads on, the supply wires and "
            "connector contacts come on top, about 20 mV a feed at 1 A through 0.5 m of 18 AWG). "
            "The limit is the same "
            f"{MAX_RAIL_DROP_V} V together; a track's current is held against IPC-2221's figure "
            f"for an outer-layer track of its width at a {RISE_C} C rise:",
            "",
            rails_markdown(measured).rstrip("\n"),
        ]
    return "\n".join(out) + "\n"
