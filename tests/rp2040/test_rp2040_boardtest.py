"""The board test against the real firmware image on the emulated RP2040, with two column
lines crossed between the keys and the Pico (board.mjs's "swap-cols" fault): the keys reach
the Pico's pins through the emulated 74HC595 row walk and the real firmware's scan. The
maker here sees every LED lit (the LED faults are the simulator's tests: on a loaded
machine the emulator's LED frames lag the scenes by seconds)."""

import io
import time

from knockboard.boardtest import BoardTest, Wiring
from knockboard.device.board import Board
from knockboard.device.protocol import CONTROLS
from knockboard.layouts import get_layout
from knockboard.sim.rp2040 import REALTIME_MHZ, EmulatedBoard

from boardtest.maker import Maker, run_with_maker


def test_the_board_test_names_crossed_column_lines_on_the_real_image(ko_uf2):
    wiring = Wiring.of("ko")
    with EmulatedBoard(ko_uf2, wiring.rows, wiring.cols, wiring.cells,
                       cpu_mhz=REALTIME_MHZ) as eb:
        port = eb.open_pty()
        eb.wait(lambda e: e["ev"] == "usb", 60)
        eb.fault("swap-cols", a=0, b=1)
        with Board.open(port, handshake_timeout=30) as board:
            test = BoardTest(wiring, cells=[0, 1, 2])

            def tap(target):
                press = (lambda down: eb.control(CONTROLS.index(target), down)) \
                    if isinstance(target, str) else (lambda down: eb.key(target, down))
                press(True)
                time.sleep(0.15)
                press(False)
            maker = Maker(lambda: (test.lines(), {c: True for c in range(wiring.cells)}),
                          tap, get_layout("ko"), patience=40)
            out = io.StringIO()
            findings = run_with_maker(board, test, maker, out, settle=lambda: time.sleep(0.2),
                                      limit=400)
    assert [f.kind for f in findings] == ["wrong-cell"], out.getvalue()
    assert "(a1 answers as b1, b1 answers as a1): the column line COL0 (J3 pin 1) and the " \
           "column line COL1 (J3 pin 2) look swapped" in findings[0].text
    assert test.answers == {0: frozenset({1}), 1: frozenset({0}), 2: frozenset({2})}
