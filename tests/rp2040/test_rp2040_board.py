"""The committed MicroPython image with the project's firmware (the UF2 of `knockboard uf2`)
on an emulated RP2040, reached by the unmodified host through a pseudo-terminal. What comes
out of the chip's pins is compared with the simulator (the same firmware core on CPython)
given the same commands."""

import json
import os
import re
import subprocess
import sys
import time

import pytest

from knockboard.sim.rp2040 import PINMAP, REALTIME_MHZ, WALL_NET, EmulatedBoard, raw_exec
from knockboard.device import protocol as P
from knockboard.device.board import Board
from knockboard.device.flash import (FIRMWARE_DIR, MPY_ARCH_ARMV6M, check_mpy_compatible,
                                     firmware_version, mpy_cross_version)
from knockboard.sim import VirtualBoard


def firmware_const(module, name):
    with open(os.path.join(FIRMWARE_DIR, module)) as f:
        return int(re.search(rf"^{name} = const\((\d+)\)", f.read(), re.M).group(1))


WDT_MS = firmware_const("hal_rp2.py", "WDT_MS")
SUPPLY_POLL_MS = firmware_const("supply.py", "POLL_MS")
CLOCK_US = 1000  # the emulator's clock events, for the host's clock and emulated-time bounds
ROWS, COLS, CELLS = 12, 11, 127
# The watchdog's and the held bus's CPU clock: the paced tests' 32 MHz rather than the Pico's
# 125. The emulator runs a fixed number of instructions a wall second, so an emulated second
# of their waits costs about a quarter of the wall time; the firmware's passes only get
# slower, which leaves the watchdog less room, not more. (Not the buzzer's: its notes are
# timed by the loop, and at 32 MHz they come out 4 ms short of 60.)
SLOW_MHZ = REALTIME_MHZ


@pytest.fixture(scope="module")
def emulated(knockabout_uf2):
    """The emulated board, paced to real time, and the unmodified host on its pty. The
    host's clock is the emulated one: on a loaded machine the emulator falls behind real
    time, and a host counting wall seconds would take the slow board for a dead one (its
    3 s silence timeout) and flood it with retransmissions; its timeouts count the chip's
    time, as they would next to a real board, and every `timeout` below is emulated."""
    with EmulatedBoard(knockabout_uf2, ROWS, COLS, CELLS, cpu_mhz=REALTIME_MHZ,
                       clock_us=CLOCK_US) as eb:
        port = eb.open_pty()
        eb.wait(lambda e: e["ev"] == "usb", WALL_NET, within=60)
        with Board.open(port, clock=eb.clock, handshake_timeout=30) as board:
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


DEBOUNCE_MS = 8  # the firmware's default (board.json debounce_ms)


def bounce_train(rng, start_us, length_us, closed_first):
    """A contact moving: it reads `closed_first` from start_us, flips at random moments
    20-900 us apart for length_us, and ends in that same position. [us, down] pairs."""
    out, t, level = [], start_us, closed_first
    while True:
        out.append([t, level])
        t += rng.randint(20, 900)
        if t >= start_us + length_us:
            break
        level = not level
    if level != closed_first:
        out.append([start_us + length_us, closed_first])
    return out


def test_bounce_trains_up_to_the_debounce_time_give_one_press_and_one_release(emulated):
    """On the chip: for each bounce length 0..debounce_ms (ms) a press that bounces that
    long, a 30 ms hold, a release that bounces as long: one press and one release each."""
    import random
    eb, board = emulated
    list(board.events(timeout=0.3))
    rng = random.Random(32)
    cell, at, t = 57, [], 0
    for length_ms in range(DEBOUNCE_MS + 1):
        at += [[us, cell, down] for us, down in bounce_train(rng, t, length_ms * 1000, True)]
        t += length_ms * 1000 + 30_000
        at += [[us, cell, down] for us, down in bounce_train(rng, t, length_ms * 1000, False)]
        t += length_ms * 1000 + 30_000
    n = len(eb.events)
    eb.schedule(at)
    eb.wait(lambda e: e["ev"] == "key" and e["t"] and e is eb.events[-1]
            and len([k for k in eb.events[n:] if k["ev"] == "key"]) == len(at), 60, n)
    events = collect(board, 1.0)
    assert events == [P.KeyEvent(pressed=p, control=False, index=cell)
                      for _ in range(DEBOUNCE_MS + 1) for p in (True, False)]


def test_single_scan_glitches_on_the_columns_give_no_press(emulated):
    eb, board = emulated
    list(board.events(timeout=0.3))
    cells = list(range(0, CELLS, 7))
    n = len(eb.events)
    for cell in cells:
        eb.glitch(cell)
    seen = [eb.wait(lambda e, c=c: e["ev"] == "glitch" and e["cell"] == c, 20, n)
            for c in cells]
    assert len(seen) == len(cells)  # every glitch was in front of a scan's reading
    assert collect(board, 0.5) == []
    eb.key(cells[1], True)  # the same cells still answer a real press
    assert collect(board, 1.0) == [P.KeyEvent(pressed=True, control=False, index=cells[1])]
    eb.key(cells[1], False)
    assert collect(board, 1.0) == [P.KeyEvent(pressed=False, control=False, index=cells[1])]


def shift_register_timing_ns():
    """The row driver's minimum pulse widths and set-up times at 3.3 V: the larger of the
    part's in pinmap.json (matrix.rows.timing_ns, the schematic's choice) and the plain
    SN74HC595's, which a maker may fit instead (TI SCLS041, -40..85 C, interpolated between
    2 V and 4.5 V: tw 100/20 ns, tsu 125/25 ns, SRCLK before RCLK 94/19 ns; rounded up)."""
    with open(PINMAP) as f:
        rows = json.load(f)["matrix"]["rows"]
    need = {"clock_high": 60, "clock_low": 60, "latch_high": 60, "setup": 75,
            "clock_to_latch": 75}
    for k, v in rows.get("timing_ns", {}).items():
        need[k] = max(need.get(k, 0), v)
    return need


def test_the_row_walk_meets_the_shift_register_timing_at_125_mhz(emulated):
    """The 74HC595's clock, latch and data edges of the viper row walk, measured on the
    emulated chip in CPU cycles (the emulator counts each instruction's) and taken at the
    Pico's 125 MHz (8 ns a cycle), against the part's minimums."""
    eb, board = emulated
    eb.query("rowtiming")  # from here on
    list(board.events(timeout=0.3))
    got = eb.query("rowtiming")
    assert got["clocks"] > 100 and got["latches"] > 100  # the main loop's scans
    need = shift_register_timing_ns()
    ns = {k: got[k] * 8 for k in ("clockHigh", "clockLow", "latchHigh", "setup",
                                  "clockToLatch")}
    assert ns["clockHigh"] >= need["clock_high"], ns
    assert ns["clockLow"] >= need["clock_low"], ns
    assert ns["latchHigh"] >= need["latch_high"], ns
    assert ns["setup"] >= need["setup"], ns  # data before the clock rises
    assert ns["clockToLatch"] >= need["clock_to_latch"], ns  # last clock before the latch


def test_a_scene_comes_out_of_the_led_pin_as_the_simulator_lights_it(emulated, sim):
    eb, board = emulated
    vb, sboard = sim
    scene = P.solid([(i, 2 * i % 256, 255 - i) for i in range(CELLS)])
    sboard.set_scene(scene)
    sboard.flush()
    vb.advance(100)
    n = len(eb.events)
    board.set_scene(scene)
    assert board.flush(30)
    frame = eb.wait(lambda e: e["ev"] == "leds" and any(map(any, e["rgb"])), WALL_NET, n,
                    within=20)
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


def test_the_led_budget_follows_the_supply_the_pins_report(emulated):
    """The real image reads the jack on GP15 and VBUS on GP24 (hal_rp2.supply): plugging the
    jack raises a full-white scene to the jack's budget, pulling it brings the next frame
    back within USB's."""
    eb, board = emulated
    with open(PINMAP) as f:
        power = json.load(f)["power"]

    def drawn(frame):
        return (sum(map(sum, frame["rgb"])) * power["ma_per_channel"] / 255
                + CELLS * power["ma_idle"])

    try:
        eb.supply(usb=True, jack=True, timeout=WALL_NET)
        n = len(eb.events)
        board.set_scene(P.solid([(255, 255, 255)] * CELLS))
        assert board.flush(30)
        # the white scene's frame (the scene before it, relimited to the jack's budget when
        # the jack went in, is brighter than USB allows too, and may come first)
        jack = eb.wait(lambda e: e["ev"] == "leds" and drawn(e) > power["led_budget_ma"]
                       and len(set(map(tuple, e["rgb"]))) == 1, WALL_NET, n, within=30)
        assert drawn(jack) <= power["jack_budget_ma"]
        pulled = eb.supply(usb=True, jack=False, timeout=WALL_NET)
        # the first frame begun once the firmware has read the pins again (every POLL_MS):
        # one already on the wire, or begun before that read, was drawn on the jack
        seen_ns = pulled["t"] + SUPPLY_POLL_MS * 1e6
        usb = eb.wait(lambda e: e["ev"] == "leds" and e["start"] >= seen_ns, WALL_NET, n,
                      within=30)
        assert drawn(usb) <= power["led_budget_ma"] < drawn(jack)
    finally:
        eb.supply(usb=True, jack=False, timeout=WALL_NET)


def test_dice_sent_by_the_host_appear_in_the_oled_framebuffer(emulated, sim):
    eb, board = emulated
    vb, sboard = sim
    display = P.Display(lines=("Red to move",), dice=(3, 5), kind=6)
    sboard.show(display)
    sboard.flush()
    vb.advance(200)
    expected = vb.oled().frame
    board.show(display)
    assert board.flush(30)
    deadline = eb.clock() + 20
    while True:
        oled = eb.query("oled", timeout=WALL_NET)
        if bytes.fromhex(oled["ram"]) == expected or eb.clock() > deadline:
            break
        time.sleep(0.2)
    assert oled["on"] and bytes.fromhex(oled["ram"]) == expected, vb.oled().art()


def device_messages(eb, start=0):
    """What the board has sent over USB from offset `start`, parsed by the host."""
    return [P.parse_device(f) for f in P.Decoder().feed(bytes(eb.serial[start:]))]


def wait_message(eb, pred, timeout, start=0):
    """Waits `timeout` emulated seconds for a message that satisfies pred."""
    deadline, net = eb.clock() + timeout, time.monotonic() + WALL_NET
    while eb.clock() < deadline and time.monotonic() < net:
        if any(pred(m) for m in device_messages(eb, start)):
            return
        time.sleep(0.2)
    raise AssertionError("not sent: %r" % bytes(eb.serial[start:])[-200:])


def start_session(eb, session=0x4B42, boot=1):
    """The host's side of the handshake, framed by the host's protocol module, for the
    tests that run the chip at its full 125 MHz (slower than real time, so the host's
    real-second link timeouts cannot hold); the bounds are emulated seconds (clock_us)."""
    eb.wait(lambda e: e["ev"] == "usb" and e["boot"] == boot, WALL_NET, within=60)
    start = len(eb.serial)
    eb.write(P.encode_frame(P.H_HELLO, 0, P.hello_payload(session)))
    wait_message(eb, lambda m: isinstance(m, P.Info), 60, start)


def test_the_buzzer_plays_the_pattern_the_host_asked_for(knockabout_uf2, sim):
    vb, sboard = sim
    vb.take_tones()
    sboard.sound("ok")
    sboard.flush()
    vb.advance(400)
    expected = vb.take_tones()
    with EmulatedBoard(knockabout_uf2, ROWS, COLS, CELLS, free_run=True,
                       clock_us=10 * CLOCK_US) as eb:
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
        # on its way out the firmware darkens the longest chain, in one clean frame
        dark = eb.wait(lambda e: e["ev"] == "leds" and len(e["rgb"]) == 256, 30)
        assert dark["errors"] == [] and not any(map(any, dark["rgb"]))


def test_the_firmware_stuck_in_its_main_loop_is_reset_by_the_watchdog(knockabout_uf2):
    """The firmware's own loop, hung: the harness stops the LED state machine (a fault no
    outside event can cause on a real board: see test_an_oled_holding_the_bus_...), so the
    next LED frame waits in show_leds for a DMA that never ends and nothing feeds the
    watchdog. The chip resets WDT_MS later and the firmware starts again."""
    pulsing = P.Scene(tuple(P.Cell(0, 40, 120, effect=P.PULSE) for _ in range(CELLS)))
    with EmulatedBoard(knockabout_uf2, ROWS, COLS, CELLS, free_run=True, cpu_mhz=SLOW_MHZ,
                       clock_us=10 * CLOCK_US) as eb:
        start_session(eb)
        n = len(eb.events)
        eb.write(P.encode_frame(P.H_SCENE, 1, pulsing.payload()))
        eb.wait(lambda e: e["ev"] == "leds" and any(map(any, e["rgb"])), WALL_NET, n,
                within=60)
        fault = eb.fault("led-sm", timeout=WALL_NET)
        reset = eb.wait(lambda e: e["ev"] == "reset", WALL_NET, n, within=2 * WDT_MS / 1000)
        assert reset["reason"] == "watchdog"
        # fed until the next changed frame (every 20 ms while the cells pulse), then not
        hung_ms = (reset["t"] - fault["t"]) / 1e6
        assert WDT_MS <= hung_ms <= WDT_MS + 100, hung_ms
        # the firmware is back: a new session, and its LEDs work again
        start_session(eb, boot=2)
        n = len(eb.events)
        eb.write(P.encode_frame(P.H_SCENE, 1, pulsing.payload()))
        frame = eb.wait(lambda e: e["ev"] == "leds" and any(map(any, e["rgb"])), WALL_NET, n,
                        within=60)
        assert frame["errors"] == []


def test_an_oled_holding_the_bus_does_not_stop_the_board(knockabout_uf2):
    """The nearest thing to a hang from outside: a display that holds the I2C bus.
    MicroPython's rp2 I2C gives up after its 50 ms default timeout and the HAL drops the
    page, so the board gets slow passes while it redraws, keeps its keys and is not
    reset."""
    with EmulatedBoard(knockabout_uf2, ROWS, COLS, CELLS, free_run=True, cpu_mhz=SLOW_MHZ,
                       clock_us=10 * CLOCK_US) as eb:
        start_session(eb)
        eb.fault("oled-bus", timeout=WALL_NET)
        writes = eb.query("oled", timeout=WALL_NET)["writes"]
        start = len(eb.serial)
        eb.write(P.encode_frame(P.H_DISPLAY, 1, P.Display(("Red to move",), (3, 5), 6)
                                .payload()))
        wait_message(eb, lambda m: m == P.Plain(P.D_ACK, 1), 60, start)
        eb.write(P.encode_frame(P.H_ACK, 1))  # the board's first STATE, so events can follow
        eb.key(40, True)
        pressed = P.KeyEvent(pressed=True, control=False, index=40)
        wait_message(eb, lambda m: isinstance(m, P.Events) and pressed in m.events, 60,
                     start)
        # a whole watchdog timeout more, in emulated time, with the bus still held: had the
        # redraw or the key stalled the loop on the bus, the chip would reset within it
        # (the wall-clock bound only catches a hung emulator)
        answered = eb.clock()
        net = time.monotonic() + WALL_NET
        while eb.clock() < answered + 1.25 * WDT_MS / 1e3:
            assert time.monotonic() < net, "the emulator hangs"
            time.sleep(0.5)
        assert not [e for e in eb.events if e["ev"] == "reset"]
        assert eb.query("oled", timeout=WALL_NET)["writes"] == writes  # nothing got through


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


def _read_stream():
    # frames with FLAG, ESC, Ctrl-C and CR in their payloads, garbage and a CR Ctrl-C
    # between them, ending with a whole frame: ~350 bytes, under stdin's 512-byte ring
    import random
    rng = random.Random(36)
    out = bytearray()
    for k in range(12):
        payload = bytes(rng.choice((0x7E, 0x7D, 3, 0x0D, rng.randrange(256)))
                        for _ in range(rng.randrange(24)))
        out += P.encode_frame(1 + rng.randrange(0x20), rng.randrange(256), payload)
        if k % 4 == 1:
            out += bytes(rng.randrange(256) for _ in range(rng.randrange(6))) + b"\r\x03"
    return bytes(out + P.encode_frame(P.H_ACK, 9, b""))


def test_the_machine_code_does_what_the_python_it_stands_in_for_does(knockabout_uf2):
    """hal_rp2's viper functions (frame decoder and encoder, the quick CELLS path, the key
    scan's row filter, the read from stdin's ring) run only on the chip: there, on seeded
    inputs, against the firmware's Python (tests/fw/fastpaths.py, sent to the REPL of a
    board booted with BACK held); the read against stdin's own, on bytes the host sends."""
    with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           "fw", "fastpaths.py")) as f:
        checks = f.read()
    data = _read_stream()
    with EmulatedBoard(knockabout_uf2, ROWS, COLS, CELLS, free_run=True,
                       hold=("back",)) as eb:
        eb.wait(lambda e: e["ev"] == "usb", WALL_NET)
        # the counts keep it to ~1 s of the chip's time: MicroPython there runs ~8x slower
        # than on CPython, and the emulator about a fifth of the chip's pace
        out = raw_exec(eb, checks + (
            "\nimport hal_rp2 as H\n"
            "check_decoder(H.FastDecoder, 25)\ncheck_encoder(H.FastEncoder, 30)\n"
            "check_visit(H.HalRp2.visit_rows, 40)\n"
            "print('quick', check_quick(H.HalRp2.quick_cells, rounds=60))\n"
            "print('ready', check_ready(H._leds_ready))\n"
            "print('reads', check_read(H, %r))\n" % data), WALL_NET,
            feed=(data + b"END",), feed_after=b"read-start")
    figures = dict(line.split() for line in out.splitlines()
                   if line[:5] in ("quick", "ready", "reads"))
    assert int(figures["quick"]) > 20 and int(figures["reads"]) > 10, out
    assert int(figures["ready"]) == 13, out
