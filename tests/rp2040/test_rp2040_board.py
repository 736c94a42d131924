"""The committed MicroPython image with the project's firmware (the UF2 of `knockboard uf2`)
on an emulated RP2040, reached by the unmodified host through a pseudo-terminal. What comes
out of the chip's pins is compared with the simulator (the same firmware core on CPython)
given the same commands."""

import json
import subprocess
import sys
import time

import pytest

from emulated import PINMAP, REALTIME_MHZ, EmulatedBoard
from knockboard.device import protocol as P
from knockboard.device.board import Board
from knockboard.device.flash import (MPY_ARCH_ARMV6M, check_mpy_compatible, firmware_version,
                                     mpy_cross_version)
from knockboard.sim import VirtualBoard

ROWS, COLS, CELLS = 12, 11, 127


@pytest.fixture(scope="module")
def emulated(knockabout_uf2):
    with EmulatedBoard(knockabout_uf2, ROWS, COLS, CELLS, cpu_mhz=REALTIME_MHZ) as eb:
        port = eb.open_pty()
        eb.wait(lambda e: e["ev"] == "usb", 60)
        with Board.open(port, handshake_timeout=30) as board:
            yield eb, board


@pytest.fixture
def sim():
    vb = VirtualBoard("knockabout")
    board = vb.connect()
    yield vb, board
    board.close()


def collect(board, seconds):
    return [e for e in board.events(timeout=seconds) if isinstance(e, P.KeyEvent)]


def test_the_image_boots_and_the_firmware_reports_itself(emulated):
    eb, board = emulated
    info = board.info
    assert (info.firmware, info.board, info.cells, info.rows, info.cols) == (
        firmware_version(), "knockabout", CELLS, ROWS, COLS)


def test_a_held_key_arrives_once_after_debounce(emulated):
    eb, board = emulated
    list(board.events(timeout=0.3))
    eb.key(40, True)
    pressed = collect(board, 3.0)
    assert pressed == [P.KeyEvent(pressed=True, control=False, index=40)]
    eb.key(40, False)
    events = collect(board, 3.0)
    eb.control(0, True)
    events += collect(board, 3.0)
    eb.control(0, False)
    events += collect(board, 3.0)
    assert events == [P.KeyEvent(pressed=False, control=False, index=40),
                      P.KeyEvent(pressed=True, control=True, index=0),
                      P.KeyEvent(pressed=False, control=True, index=0)]


def test_a_scene_comes_out_of_the_led_pin_as_the_simulator_lights_it(emulated, sim):
    eb, board = emulated
    vb, sboard = sim
    scene = P.solid([(i, 2 * i % 256, 255 - i) for i in range(CELLS)])
    sboard.set_scene(scene)
    sboard.flush()
    vb.advance(100)
    n = len(eb.events)
    board.set_scene(scene)
    assert board.flush(10)
    frame = eb.wait(lambda e: e["ev"] == "leds" and any(map(any, e["rgb"])), 20, n)
    # every bit's high and low times within the WS2812B windows, 24 bits a LED, in chain
    # order (cell index), the colours the simulator's firmware core computes
    assert frame["errors"] == []
    assert [tuple(c) for c in frame["rgb"]] == vb.leds()
    with open(PINMAP) as f:
        power = json.load(f)["power"]
    drawn = sum(map(sum, frame["rgb"])) * power["ma_per_channel"] / 255 \
        + CELLS * power["ma_idle"]
    assert drawn <= power["led_budget_ma"]
    assert max(max(c) for c in frame["rgb"]) < 255  # the limiter had to act on this scene


def test_dice_sent_by_the_host_appear_in_the_oled_framebuffer(emulated, sim):
    eb, board = emulated
    vb, sboard = sim
    display = P.Display(lines=("Red to move",), dice=(3, 5), kind=6)
    sboard.show(display)
    sboard.flush()
    vb.advance(200)
    expected = vb.oled().frame
    board.show(display)
    assert board.flush(10)
    deadline = time.monotonic() + 20
    while True:
        oled = eb.query("oled")
        if bytes.fromhex(oled["ram"]) == expected or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert oled["on"] and bytes.fromhex(oled["ram"]) == expected, vb.oled().art()


def start_session(eb, session=0x4B42):
    """The host's side of the handshake, framed by the host's protocol module, for the
    tests that run the chip at its full 125 MHz (slower than real time, so the host's
    real-second link timeouts cannot hold)."""
    eb.wait(lambda e: e["ev"] == "usb", 60)
    eb.write(P.encode_frame(P.H_HELLO, 0, P.hello_payload(session)))
    dec = P.Decoder()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        frames = dec.feed(bytes(eb.serial))
        dec = P.Decoder()
        if any(f.type == P.D_INFO for f in frames):
            return
        time.sleep(0.2)
    raise AssertionError("no INFO: %r" % bytes(eb.serial)[-200:])


def test_the_buzzer_plays_the_pattern_the_host_asked_for(knockabout_uf2, sim):
    vb, sboard = sim
    vb.take_tones()
    sboard.sound("ok")
    sboard.flush()
    vb.advance(400)
    expected = vb.take_tones()
    with EmulatedBoard(knockabout_uf2, ROWS, COLS, CELLS, free_run=True) as eb:
        start_session(eb)
        eb.wait(lambda e: e["ev"] == "tone" and e["freq"] == 0, 60)  # the hello sound
        n = len(eb.events)
        eb.write(P.encode_frame(P.H_SOUND, 1, bytes((P.SOUNDS["ok"],))))
        eb.wait(lambda e: e["ev"] == "tone" and e["freq"] == 2093, 60, n)
        eb.wait(lambda e: e["ev"] == "tone" and e["freq"] == 0, 60, len(eb.events) - 1)
        tones = [e for e in eb.events[n:] if e["ev"] == "tone"]
    assert len(tones) == len(expected) == 4
    for e, (_, want) in zip(tones, expected):  # the PWM divider's nearest frequency
        assert abs(e["freq"] - want) <= want * 0.005
        assert e["duty"] == (0.5 if want else 0)
    lengths = [(b["t"] - a["t"]) / 1e6 for a, b in zip(tones, tones[1:])]
    want_lengths = [b - a for (a, _), (b, _) in zip(expected, expected[1:])]  # 60, 20, 90
    for got, want in zip(lengths, want_lengths):  # within a main-loop pass
        assert abs(got - want) <= 3, (lengths, want_lengths)


def repl(eb, line, marker, timeout=30):
    """Types `line` at the friendly REPL and returns what it printed after `marker`."""
    start = len(eb.serial)
    eb.write(line.encode() + b"\r")
    end = eb.wait_serial(marker.encode(), timeout, start)
    return bytes(eb.serial[end:eb.wait_serial(b"\r\n", timeout, end) - 2]).decode()


def test_the_flash_takeover_reaches_the_repl_while_the_firmware_runs(knockabout_uf2):
    with EmulatedBoard(knockabout_uf2, ROWS, COLS, CELLS, cpu_mhz=REALTIME_MHZ) as eb:
        port = eb.open_pty()
        eb.wait(lambda e: e["ev"] == "usb", 60)
        with Board.open(port, handshake_timeout=30) as board:
            assert board.info.board == "knockabout"
        # mpremote, as `knockboard flash` runs it: CR Ctrl-C stops the firmware, then the
        # raw REPL runs the command
        proc = subprocess.run(
            [sys.executable, "-m", "mpremote", "connect", port, "exec",
             "import sys; print('fw', sys.implementation._mpy)"],
            capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        word, board_mpy = proc.stdout.split()
        assert word == "fw" and int(board_mpy) >> 10 == MPY_ARCH_ARMV6M
        check_mpy_compatible(int(board_mpy), mpy_cross_version())  # what flash checks
        assert b"knockboard: stopped (Ctrl-C), REPL free" in eb.serial


def test_a_stuck_loop_is_reset_by_the_watchdog_and_the_firmware_comes_back(knockabout_uf2):
    with EmulatedBoard(knockabout_uf2, ROWS, COLS, CELLS, cpu_mhz=REALTIME_MHZ) as eb:
        port = eb.open_pty()
        eb.wait(lambda e: e["ev"] == "usb", 60)
        with Board.open(port, handshake_timeout=30):
            pass  # the app runs
        eb.write(b"\r\x03")  # the takeover: the firmware stops, the REPL is free
        eb.wait_serial(b"REPL free", 30)
        eb.wait_serial(b">>> ", 30)
        # the firmware's watchdog setting, then a loop that never feeds it
        n = len(eb.events)
        eb.write(b"import machine, hal_rp2; w = machine.WDT(timeout=hal_rp2.WDT_MS)\r")
        eb.write(b"while True: pass\r\r")
        reset = eb.wait(lambda e: e["ev"] == "reset", 60, n)
        assert reset["reason"] == "watchdog"
        eb.wait(lambda e: e["ev"] == "usb" and e["boot"] == 2, 60, n)
        with Board.open(port, handshake_timeout=30) as board:
            assert board.info.firmware == firmware_version()


def test_back_held_at_power_up_skips_the_app(knockabout_uf2):
    with EmulatedBoard(knockabout_uf2, ROWS, COLS, CELLS, cpu_mhz=REALTIME_MHZ,
                       hold=("back",)) as eb:
        eb.wait(lambda e: e["ev"] == "usb", 60)
        eb.write(b"\r")
        eb.wait_serial(b">>> ", 30)
        assert b"knockboard: safe boot, app skipped" in eb.serial
        assert repl(eb, "import sys; print('=', 'app' in sys.modules, 'hal_rp2' in "
                        "sys.modules)", "= ") == "False False"
        # the same query on a board whose app ran and was stopped
    with EmulatedBoard(knockabout_uf2, ROWS, COLS, CELLS, cpu_mhz=REALTIME_MHZ) as eb:
        port = eb.open_pty()
        eb.wait(lambda e: e["ev"] == "usb", 60)
        with Board.open(port, handshake_timeout=30):
            pass  # the app runs
        eb.write(b"\r\x03")
        eb.wait_serial(b"REPL free", 30)
        eb.wait_serial(b">>> ", 30)
        assert repl(eb, "import sys; print('=', 'app' in sys.modules, 'hal_rp2' in "
                        "sys.modules)", "= ") == "True True"
