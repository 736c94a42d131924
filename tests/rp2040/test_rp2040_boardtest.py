"""The board test against the real firmware image on the emulated RP2040, with a badly built
cell board: two column lines crossed between the keys and the Pico (board.mjs's "swap-cols"
fault: the keys reach the Pico's pins through the emulated 74HC595 row walk and the real
firmware's scan) and a dead LED that stops the chain ("dead-led": it and every LED after it
stay dark in the frames decoded from the data pin). One emulator run finds both. The maker
looks at the LEDs as the emulator decodes them: after each new scene, at the first frame
the firmware began after the scene was sent (on a loaded machine the frames lag the scenes
by seconds of wall time, so a fixed wait would judge the previous scene)."""

import io
import time

from knockboard.boardtest import BoardTest, Wiring
from knockboard.device.board import Board
from knockboard.device.protocol import CONTROLS
from knockboard.layouts import get_layout
from knockboard.sim.rp2040 import REALTIME_MHZ, WALL_NET, EmulatedBoard

from boardtest.maker import Maker, run_with_maker

DEAD_LED = 2


class SceneClock:
    """The board as the runner drives it, noting the emulated time each new scene is sent at
    (a scene sent again unchanged is on the LEDs already)."""

    def __init__(self, board, eb):
        self.board, self.eb, self.sent, self.scene = board, eb, 0, None

    def set_scene(self, scene):
        if scene != self.scene:
            self.sent, self.scene = emulated_ns(self.eb), scene
        self.board.set_scene(scene)

    def __getattr__(self, name):
        return getattr(self.board, name)


def emulated_ns(eb):
    return eb.query("stats")["t"]


def hold(eb, ms):
    """Waits until the emulated chip has run `ms` more: a press as long as a finger's to the
    firmware's scan, however slowly a loaded machine runs the emulator."""
    until = emulated_ns(eb) + ms * 1e6
    while emulated_ns(eb) < until:
        time.sleep(0.02)


def test_the_board_test_names_crossed_column_lines_and_where_the_chain_stops(ko_uf2):
    wiring = Wiring.of("ko")
    layout = get_layout("ko")
    # the host on the emulated clock: a loaded machine slows the emulator, not the board
    with EmulatedBoard(ko_uf2, wiring.rows, wiring.cols, wiring.cells,
                       cpu_mhz=REALTIME_MHZ, clock_us=1000) as eb:
        port = eb.open_pty()
        eb.wait(lambda e: e["ev"] == "usb", WALL_NET, within=60)
        eb.fault("swap-cols", timeout=WALL_NET, a=0, b=1)
        eb.fault("dead-led", timeout=WALL_NET, cell=DEAD_LED)
        with Board.open(port, clock=eb.clock, handshake_timeout=30) as raw:
            board = SceneClock(raw, eb)
            test = BoardTest(wiring, cells=[0, 1, 2, 3])

            def shown():
                """The first LED frame the firmware began after the scene was sent."""
                return eb.wait(lambda e: e["ev"] == "leds" and e["start"] > board.sent,
                               WALL_NET, within=30)

            def look():
                return test.lines(), {i: any(rgb) for i, rgb in enumerate(shown()["rgb"])}

            def tap(target):
                press = (lambda down: eb.control(CONTROLS.index(target), down)) \
                    if isinstance(target, str) else (lambda down: eb.key(target, down))
                press(True)
                hold(eb, 150)
                press(False)
            def settle():          # the scene on the LEDs, and the time a key takes
                shown()
                time.sleep(0.2)
            maker = Maker(look, tap, layout, patience=40)
            out = io.StringIO()
            findings = run_with_maker(board, test, maker, out, settle=settle, limit=400)
    assert sorted(f.kind for f in findings) == ["chain", "wrong-cell"], out.getvalue()
    text = {f.kind: f.text for f in findings}
    assert "(a1 answers as b1, b1 answers as a1): the column line COL0 (J3 pin 1) and the " \
           "column line COL1 (J3 pin 2) look swapped" in text["wrong-cell"]
    space = layout.space_of(DEAD_LED)
    assert text["chain"].startswith(f"LED 2 (cell {space} (2)) does not light, nor any LED "
                                    "after it"), text["chain"]
    assert "LED 1's DOUT and LED 2's DIN" in text["chain"]
    assert test.chain_stop == DEAD_LED and test.dark == [DEAD_LED]
    assert test.answers == {0: frozenset({1}), 1: frozenset({0}), 2: frozenset({2}),
                            3: frozenset({3})}
