# The supply the firmware finds and the LED budget it picks: USB alone, the 5 V jack, both,
# neither; a board.json budget only lowers it; a pulled jack lowers the scene's brightness
# within a poll period, before the USB switch can feed the LED rail.
from fwpaths import make_cfg

import app
import supply as S
from fakehal import FakeHal


def test_which_supply_from_the_sense_bits():
    assert S.which(0) == S.NONE
    assert S.which(S.USB_BIT) == S.USB
    assert S.which(S.JACK_BIT) == S.JACK
    assert S.which(S.USB_BIT | S.JACK_BIT) == S.JACK  # the jack feeds the rail, U6 is off
    assert S.NAMES[S.JACK] == "5V jack"


def test_budget_by_supply_and_the_board_json_cap():
    assert S.budget_ma(S.USB, 350, 1500, None) == 350
    assert S.budget_ma(S.JACK, 350, 1500, None) == 1500
    assert S.budget_ma(S.NONE, 350, 1500, None) == 350  # unknown: the safe one
    assert S.budget_ma(S.JACK, 350, 1500, 2000) == 1500  # a cap never raises it
    assert S.budget_ma(S.JACK, 350, 1500, 900) == 900
    assert S.budget_ma(S.USB, 350, 1500, 2000) == 350  # flashed "for the jack", run on USB


def test_config_carries_both_budgets_from_the_pinmap():
    cfg = make_cfg("ko")
    p = cfg.pins["power"]
    assert (cfg.usb_budget_ma, cfg.jack_budget_ma, cfg.budget_cap_ma) == \
        (p["led_budget_ma"], p["jack_budget_ma"], None)
    assert cfg.jack_budget_ma > cfg.usb_budget_ma
    assert make_cfg("ko", led_budget_ma=900).budget_cap_ma == 900


WHITE = 255


def white_scene(dev, n):
    p = bytearray([WHITE, n >> 8, n & 0xFF]) + bytes([WHITE, WHITE, WHITE, 0]) * n
    dev.scene.set(p)


def test_device_follows_the_supply():
    cfg = make_cfg("knockabout", led_budget_ma=2000)  # flashed as if for the jack
    hal = FakeHal(cfg, t0=1000)
    hal.plug(usb=True, jack=False)
    dev = app.Device(hal, cfg)
    lim = dev.scene.limiter
    assert lim.budget == cfg.usb_budget_ma  # USB alone: never the 2000 of board.json
    white_scene(dev, cfg.cells)
    usb_level = dev.scene.level
    assert lim.estimate_ma(3 * WHITE * cfg.cells, usb_level) <= cfg.usb_budget_ma

    hal.plug(usb=True, jack=True)  # the jack comes in: brighter within a poll period
    for _ in range(S.POLL_MS + 1):
        dev.step(hal.now)
        hal.now += 1
    assert lim.budget == cfg.jack_budget_ma and dev.supply.name() == "5V jack"
    assert dev.scene.level > usb_level
    assert lim.estimate_ma(3 * WHITE * cfg.cells, dev.scene.level) <= cfg.jack_budget_ma

    hal.plug(usb=True, jack=False)  # pulled: back to the USB budget at the next poll
    for _ in range(S.POLL_MS + 1):
        dev.step(hal.now)
        hal.now += 1
    assert lim.budget == cfg.usb_budget_ma and dev.scene.level == usb_level


def test_no_rereading_between_polls():
    cfg = make_cfg("ko")
    hal = FakeHal(cfg, t0=0)
    dev = app.Device(hal, cfg)
    watch = dev.supply
    hal.plug(usb=True, jack=True)
    assert not watch.poll(hal.now + S.POLL_MS - 1)  # too soon: not read yet
    assert watch.poll(hal.now + S.POLL_MS)
    assert not watch.poll(hal.now + 3 * S.POLL_MS)  # read, nothing changed
