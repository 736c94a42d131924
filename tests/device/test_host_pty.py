"""pyserial end to end: a real-time virtual board (the firmware core) behind a
pseudo-terminal; the host opens the pty's path like a USB port, through the real
SerialTransport, as `knockboard play --port <path>` does."""

import os
import time

import pytest

from knockboard.device import protocol as P
from knockboard.device.board import Board
from knockboard.sim import start_pty

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs POSIX ptys")


def wait_for(board, want, seconds=3.0):
    got = []
    end = time.monotonic() + seconds
    while time.monotonic() < end and not want(got):
        got += board.poll(0.05)
    return got


def key_events(got):
    return [(e.index, e.pressed, e.control) for e in got if isinstance(e, P.KeyEvent)]


def test_board_over_a_pty_handshakes_gets_presses_and_sets_leds():
    with start_pty("ko", seed=1) as port, Board.open(port.path, handshake_timeout=3.0) as board:
        vb = port.board
        assert (board.info.board, board.info.cells, board.info.firmware) == ("ko", 81, "0.1.0")
        assert vb.mode == "host"
        cells = [P.OFF] * 81
        cells[40] = P.Cell(0, 0, 255)
        cells[vb.key("a1")[1]] = P.Cell(255, 0, 0, P.BLINK)
        board.set_scene(P.Scene(tuple(cells), 200))
        board.show(P.Display(lines=("Red to move",), dice=(2, 5), kind=6))
        assert board.flush(3.0)
        time.sleep(0.1)  # the next LED frame (50 Hz) shows the scene
        assert vb.cell(40).rgb == (0, 0, 255) and vb.led(40) == (0, 0, 200)
        assert vb.cell("a1").effect == "blink"
        assert vb.oled().lines == ("Red to move",) and vb.oled().dice == (2, 5)
        vb.press("e5")
        got = wait_for(board, lambda g: key_events(g))
        vb.release("e5")
        # a press is reported at once, a release after debounce_ms open: the release
        # comes before the next press only when the press waits for it
        got += wait_for(board, lambda g: key_events(g))
        vb.press("OK")
        got += wait_for(board, lambda g: key_events(g))
        vb.release("OK")
        got += wait_for(board, lambda g: key_events(g))
        e5 = vb.key("e5")[1]
        assert key_events(got) == [(e5, True, False), (e5, False, False), (0, True, True),
                                   (0, False, True)]


def test_unplugged_virtual_board_is_reconnected_with_its_scene():
    with start_pty("dodgeball", seed=2) as port, Board.open(port.path) as board:
        vb = port.board
        board.set_scene(P.Scene.blank(64, 77))
        assert board.flush(3.0)
        vb.power_off()
        wait_for(board, lambda g: not board.connected, 5.0)
        assert not board.connected and vb.mode == "off"
        vb.power_on()
        wait_for(board, lambda g: board.connected and board.link.idle(), 5.0)
        assert board.reconnects == 1 and board.flush(3.0)
        assert vb.device.scene.brightness == 77
