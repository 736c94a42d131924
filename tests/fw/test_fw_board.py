# Board configuration: the four boards, pin map consistency, bad board.json.
import fwpaths
from fwpaths import make_cfg
import json

import board as B


def read(name):
    with open(fwpaths.FW + name) as f:
        return json.load(f)


def test_four_boards_with_their_cell_counts():
    want = {"knockabout": 127, "dodgeball": 64, "ko": 81, "knockoff": 52}
    for name, cells in want.items():
        cfg = make_cfg(name)
        assert cfg.cells == cells
        assert cfg.rows * cfg.cols >= cells
        assert cfg.rows <= 16 and cfg.cols <= 16


def test_default_board_and_budget_override():
    boards, pins = read("boards.json"), read("pinmap.json")
    cfg = B.make(boards, pins, {})
    assert cfg.board_id == "knockabout" and cfg.budget_ma == pins["power"]["led_budget_ma"]
    cfg = B.make(boards, pins, {"board": "ko", "led_budget_ma": 1500})
    assert cfg.board_id == "ko" and cfg.budget_ma == 1500


def expect_error(local, words):
    try:
        B.make(read("boards.json"), read("pinmap.json"), local)
    except B.ConfigError as e:
        for w in words:
            assert w in str(e), (str(e), w)
        return
    assert False, "accepted %r" % (local,)


def test_bad_board_json_is_explained():
    expect_error({"board": "chess"}, ("unknown board", "chess", "knockabout"))
    expect_error({"board": "ko", "led_budget_ma": -5}, ("led_budget_ma",))
    expect_error({"board": "ko", "debounce_ms": 30}, ("debounce_ms", "5..10"))
    expect_error([1, 2], ("expected an object",))


def test_a_budget_the_idle_leds_alone_use_up_is_refused():
    # 127 LEDs draw ~127 mA dark: a budget at or below that leaves the power limiter no
    # current for light, and the board would stay dark without a word.
    expect_error({"board": "knockabout", "led_budget_ma": 127}, ("led_budget_ma", "127"))
    expect_error({"board": "knockoff", "led_budget_ma": 40}, ("led_budget_ma", "52"))
    assert make_cfg("knockoff", led_budget_ma=53).budget_ma == 53


def test_pin_map_uses_each_gpio_once_and_only_real_ones():
    pins = read("pinmap.json")
    m = pins["matrix"]
    used = list(range(m["cols"]["first"], m["cols"]["first"] + m["cols"]["count"]))
    r = m["rows"]
    used += [r["data"], r["clock"], r["latch"]]
    used += [pins["controls"][k] for k in ("ok", "back", "menu")]
    used += [pins["leds"]["data"], pins["buzzer"]["pin"], pins["oled"]["sda"],
             pins["oled"]["scl"]]
    assert len(used) == len(set(used)), sorted(used)
    pico_gpio = set(range(0, 23)) | {26, 27, 28}  # GP23-25 and GP29 are not on the header
    assert set(used) <= pico_gpio
    # I2C1 can use GP26/GP27 (SDA/SCL) on the RP2040
    assert (pins["oled"]["bus"], pins["oled"]["sda"] % 4, pins["oled"]["scl"] % 4) == (1, 2, 3)
    assert pins["safe_boot"] in pins["controls"]
