"""One scripted game played through the emulated board, by presses on its key matrix and
buttons, by the unmodified host session over the pseudo-terminal: it must end in the same
record as the same script played on the simulator."""

import os
import sys
import time

from knockboard.sim.rp2040 import REALTIME_MHZ, WALL_NET, EmulatedBoard
from knockboard.device import protocol as P
from knockboard.device.board import Board
from knockboard.session import Session, Setup

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "session"))
from autoplay import AutoPlayer  # noqa: E402
from board_driver import VirtualBoard  # noqa: E402

# K.O. needs the fewest presses a ply of the four games (26 for these 30 plies)
GAME, SEED, PLIES = "ko", 5, 30
CONTROLS = {"OK": 0, "BACK": 1, "MENU": 2}


class EmulatedDriver:
    """What AutoPlayer presses, on the emulated board: each tap waits until the host has
    received its press and its release. The host and its session run on the emulated clock
    (a loaded machine slows the emulator, not the board)."""

    def __init__(self, eb, board):
        self.eb = eb
        self.board = board
        self.seen = 0
        poll = board.poll

        def counting_poll(timeout=0.0):
            out = poll(timeout)
            self.seen += sum(isinstance(m, P.KeyEvent) for m in out)
            return out
        board.poll = counting_poll
        self.session = None

    def start(self):
        self.session = Session(self.board, Setup(GAME, seed=SEED), clock=self.eb.clock)
        self.run(1.0)
        return self.session

    def run(self, seconds):
        end = self.eb.clock() + seconds
        while self.eb.clock() < end:
            self.session.step(0.01)

    def _until_seen(self, n, timeout=15.0):
        end, net = self.eb.clock() + timeout, time.monotonic() + WALL_NET
        while self.seen < n:
            assert self.eb.clock() < end and time.monotonic() < net, \
                "the host never received the key event"
            self.session.step(0.01)

    def _tap(self, send):
        n = self.seen
        send(True)
        self._until_seen(n + 1)
        send(False)
        self._until_seen(n + 2)

    def press(self, cell):
        self._tap(lambda down: self.eb.key(cell, down))

    def control(self, name):
        self._tap(lambda down: self.eb.control(CONTROLS[name], down))

    def ok(self):
        self.control("OK")

    def menu(self):
        self.control("MENU")

    def space(self, name):
        return self.session.layout.cell(name).index

    def press_space(self, name):
        self.press(self.space(name))


def play(driver, session):
    player = AutoPlayer(driver, SEED)
    while len(session.record.actions) < PLIES and player.act():
        pass
    return session.record.actions[:PLIES]


def test_a_scripted_game_ends_in_the_simulators_record(ko_uf2):
    vb = VirtualBoard(GAME)
    expected = play(vb, vb.start(GAME, seed=SEED))
    assert len(expected) == PLIES
    with EmulatedBoard(ko_uf2, 9, 9, 81, cpu_mhz=REALTIME_MHZ, clock_us=1000) as eb:
        port = eb.open_pty()
        eb.wait(lambda e: e["ev"] == "usb", WALL_NET, within=60)
        with Board.open(port, clock=eb.clock, handshake_timeout=30) as board:
            driver = EmulatedDriver(eb, board)
            got = play(driver, driver.start())
    assert got == expected
