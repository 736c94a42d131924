"""The headless virtual board: the firmware core on the simulated HAL, scripted in
simulated time, with a host Board connected in-process."""

import os
import subprocess
import sys

import pytest

from knockboard.device import protocol as P
from knockboard.device.transport import TransportError
from knockboard.sim import SimError, VirtualBoard

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def key_events(items):
    return [(e.index, e.pressed, e.control) for e in items if isinstance(e, P.KeyEvent)]


def poll(board, seconds):
    return list(board.events(seconds))


def test_keys_by_index_space_and_control_name():
    vb = VirtualBoard("knockabout")
    assert vb.key(0) == (False, 0) and vb.key(126) == (False, 126)
    assert vb.key("F3") == (False, vb.layout.cell("F3").index)
    assert vb.key("OK") == (True, 0) and vb.key("back") == (True, 1) and vb.key("MENU") == (True, 2)
    for bad, why in ((127, "no cell 127"), (-1, "no cell -1"), ("Z9", "no space or control 'Z9'"),
                     (True, "not a cell"), (2.0, "not a cell")):
        with pytest.raises(SimError, match=why):
            vb.press(bad)
    assert not any(vb.hal.keys)  # a refused press changed nothing


def test_unknown_board_and_bad_config_are_refused():
    with pytest.raises(SimError, match="unknown board 'chess'.*knockabout"):
        VirtualBoard("chess")
    with pytest.raises(SimError, match="debounce_ms"):
        VirtualBoard("ko", debounce_ms=50)
    vb = VirtualBoard("ko")
    with pytest.raises(SimError, match="back in time"):
        vb.advance(-5)


def test_without_a_host_it_is_the_dice_roller():
    vb = VirtualBoard("dodgeball", seed=3)
    vb.advance(50)
    assert vb.mode == "waiting"
    assert vb.oled().lines[0] == "waiting for host" and vb.oled().kind == 0
    vb.tap("OK")
    assert [name for _, name in vb.take_sounds()] == ["roll"]
    vb.advance(1200)  # the roll animation settles
    oled = vb.oled()
    assert oled.kind == 6 and len(oled.dice) == 2 and all(1 <= v <= 6 for v in oled.dice)
    assert not oled.rolling
    assert any(f for _, f in vb.take_tones())  # the buzzer played
    vb.tap("BACK")
    assert vb.oled().lines[1] == "2 x d8"
    assert vb.lit() == {}  # no host, no lights


def test_host_connects_and_sets_leds_and_effects():
    vb = VirtualBoard("knockabout", seed=1)
    board = vb.connect(session=7)
    assert (board.info.board, board.info.cells) == ("knockabout", 127)
    assert vb.mode == "host" and ("hello" in [n for _, n in vb.take_sounds()])
    cells = [P.OFF] * 127
    f3, g4 = vb.key("F3")[1], vb.key("G4")[1]
    cells[f3] = P.Cell(0, 200, 0)
    cells[g4] = P.Cell(255, 0, 0, P.BLINK)
    board.set_scene(P.Scene(tuple(cells), 255))
    assert board.flush(1.0)
    poll(board, 0.05)
    assert vb.cell("F3") == vb.cell(f3)
    assert vb.cell("F3").rgb == (0, 200, 0) and vb.cell("F3").effect == "solid"
    assert vb.led("F3") == (0, 200, 0)
    assert vb.cell("G4").effect == "blink" and vb.cell("G4").space == "G4"
    seen = set()
    for _ in range(4):  # a blinking LED is on half of each second
        poll(board, 0.25)
        seen.add(vb.led("G4"))
    assert seen == {(0, 0, 0), (255, 0, 0)}
    assert set(vb.lit()) <= {f3, g4} and f3 in vb.lit()


def test_presses_reach_the_host_once_each():
    vb = VirtualBoard("ko", seed=2)
    board = vb.connect()
    vb.tap("e5")
    vb.long_press("MENU")
    vb.tap(80)
    got = poll(board, 0.3)
    e5 = vb.key("e5")[1]
    assert key_events(got) == [(e5, True, False), (e5, False, False), (2, True, True),
                               (2, False, True), (80, True, False), (80, False, False)]
    vb.press("a1")
    poll(board, 0.05)
    assert vb.is_down("a1") and vb.key("a1")[1] in board.pressed


def test_oled_shows_the_hosts_text_and_dice_pixel_true():
    vb = VirtualBoard("knockoff", seed=4)
    board = vb.connect()
    board.show(P.Display(lines=("P1 to move",), dice=(3, 4), kind=6, roll=True))
    board.flush(1.0)
    poll(board, 0.1)
    assert vb.oled().rolling
    poll(board, 1.2)
    oled = vb.oled()
    assert (oled.lines, oled.kind, oled.dice, oled.rolling) == (("P1 to move",), 6, (3, 4), False)
    assert oled.frame == bytes(vb.device.display.buf)  # what the firmware drew, unchanged
    art = oled.art().splitlines()
    assert len(art) == 64 and all(len(row) == 128 for row in art)
    assert "#" in "".join(art[36:44])  # the text line under the dice
    assert oled.pixel(0, 63) == 0
    with pytest.raises(SimError, match="outside"):
        oled.pixel(128, 0)


def test_power_off_loses_everything_and_the_port_goes():
    vb = VirtualBoard("dodgeball", seed=5)
    board = vb.connect()
    board.set_scene(P.Scene((P.Cell(9, 9, 9),) * 64, 255))
    board.flush(1.0)
    poll(board, 0.05)
    transport = board.link.transport
    vb.press("c3")
    vb.power_off()
    assert vb.mode == "off" and vb.lit() == {} and not any(vb.oled().frame)
    with pytest.raises(TransportError, match="unplugged"):
        transport.read(0.01)
    with pytest.raises(TransportError, match="off"):
        vb.open_transport()
    vb.power_on()
    assert vb.boots == 2 and vb.mode == "waiting" and vb.is_down("c3")  # the key stays held
    with pytest.raises(TransportError, match="unplugged"):  # the old port stays gone
        transport.write(b"x")
    poll(board, 2.0)  # the Board reconnects to the new boot and resends its scene
    assert board.connected and board.reconnects == 1
    board.flush(1.0)
    poll(board, 0.05)
    assert vb.led("a1") == (9, 9, 9)


def test_same_seed_same_script_same_bytes():
    def script():
        vb = VirtualBoard("ko", seed=9)
        out = []
        board = vb.connect(session=1)
        board.show(P.Display(dice=(1, 2), kind=6, roll=True))
        vb.tap("OK")
        out += key_events(poll(board, 0.3))
        return out, vb.oled().frame, board.info.boot_id, vb.clock.ms
    assert script() == script()


def test_the_firmware_modules_stay_out_of_the_hosts_namespace():
    code = ("import sys; from knockboard.sim import VirtualBoard; vb = VirtualBoard('ko'); "
            "vb.advance(5); print(sorted(n for n in ('app', 'protocol', 'board', 'display', "
            "'keys', 'micropython') if n in sys.modules)); "
            "print(vb.device.__class__.__module__, vb.device.__class__.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.path.join(ROOT, "host")})
    assert out.stdout.split("\n")[:2] == ["[]", "app Device"], out.stderr


def test_sim_runs_the_files_in_firmware():
    from knockboard.sim import firmware
    core = firmware.load()
    assert os.path.samefile(core.app.__file__, os.path.join(ROOT, "firmware", "app.py"))
    assert firmware.board_ids() == ["dodgeball", "knockabout", "knockoff", "ko"]


def test_controls_have_no_led_and_modes_do_not_mix():
    from knockboard.sim import PtyPort
    vb = VirtualBoard("dodgeball")
    with pytest.raises(SimError, match="control button"):
        vb.led("OK")
    with pytest.raises(SimError, match="control button"):
        vb.cell("MENU")
    with pytest.raises(SimError, match="real-time"):
        PtyPort(vb)  # a pty's host waits in real time; simulated time would never move
    rt = VirtualBoard("dodgeball", realtime=True)
    with pytest.raises(SimError, match="pseudo-terminal"):
        rt.connect()


def test_a_new_scene_is_shown_in_the_pass_that_receives_it():
    """No wait for the next 50 Hz frame: the answer to a press lights up at once."""
    vb = VirtualBoard("knockabout", seed=2)
    board = vb.connect()
    poll(board, 0.1)
    for shade in (10, 200, 90):
        cells = [P.Cell(0, 0, 0)] * vb.cells
        cells[vb.key("G7")[1]] = P.Cell(shade, 0, 0)
        board.set_scene(P.Scene(tuple(cells), 255))
        start = vb.clock()
        while vb.led("G7") != (shade, 0, 0) and vb.clock() - start < 0.05:
            board.poll(0.001)                # the host's link writes and reads as it waits
        # the frame takes a few ms to cross the simulated line; a frame tick would add up
        # to 20 ms on top of that
        assert vb.led("G7") == (shade, 0, 0) and vb.clock() - start <= 0.006


def test_a_host_waiting_for_an_unplugged_board_never_stops_the_clock():
    # The Board sleeps until its next reconnect attempt; that wait, computed in float
    # seconds, can come out a hair above the simulated clock's whole milliseconds. A sleep
    # rounded down to 0 ms then left simulated time standing still: a host polling an
    # unplugged board spun forever at the same instant.
    vb = VirtualBoard("knockoff", seed=1)
    t = vb.clock.ms
    vb.sleep(1e-9)
    assert vb.clock.ms == t + 1
    vb.sleep(0)
    assert vb.clock.ms == t + 1
    for start in (15254, 15550, 15809, 31497, 10001):  # the first four stood still
        vb = VirtualBoard("knockoff", seed=1)
        board = vb.connect()
        vb.clock.ms = start
        board.poll(0.01)
        vb.power_off()
        for _ in range(600):               # 6 s of 10 ms polls
            board.poll(0.01)
        assert vb.clock.ms - start >= 5000
