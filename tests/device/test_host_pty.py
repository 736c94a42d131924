"""pyserial end to end: the firmware core runs in a thread behind a pseudo-terminal and the
host opens the pty's path like a USB port, through the real SerialTransport."""

import os
import threading
import time

import pytest

from harness import SimDevice

from knockboard.device import protocol as P
from knockboard.device.board import Board

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs POSIX ptys")


class RealClock:
    @property
    def ms(self):
        return int(time.monotonic() * 1000)


def serve(sim, fd, stop):
    import tty
    tty.setraw(fd)
    os.set_blocking(fd, False)
    hal = sim.hal
    while not stop.is_set() and sim.running:
        try:
            data = os.read(fd, 4096)
            hal.rx.extend(data)
        except BlockingIOError:
            pass
        sim.step()
        out = hal.take_tx()
        if out:
            os.write(fd, out)
        time.sleep(0.001)


def test_board_over_a_pty():
    master, slave = os.openpty()
    path = os.ttyname(slave)
    sim = SimDevice(RealClock(), "ko")
    stop = threading.Event()
    t = threading.Thread(target=serve, args=(sim, master, stop), daemon=True)
    t.start()
    try:
        with Board.open(path, handshake_timeout=3.0) as board:
            assert (board.info.board, board.info.cells) == ("ko", 81)
            board.set_scene(P.Scene.blank(81, 128))
            assert board.flush(3.0)
            assert sim.dev.scene.brightness == 128
            sim.hal.press(40)
            got = []
            end = time.monotonic() + 3
            while time.monotonic() < end and not any(
                    isinstance(e, P.KeyEvent) for e in got):
                got += board.poll(0.05)
            assert [(e.index, e.pressed) for e in got if isinstance(e, P.KeyEvent)] == \
                [(40, True)]
    finally:
        stop.set()
        t.join(2)
        os.close(master)
        os.close(slave)
