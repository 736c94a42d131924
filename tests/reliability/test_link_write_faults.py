"""A port that fails on write, at every write of a short session: the real host link and
`Board` against the real firmware core on the virtual board (simulated time). Whether the
failing write is a HELLO, a heartbeat, a command, or the ACK written while a received frame
is handled (`Link.poll` -> `_on_frame`), and whether its bytes got out or not, the Board
must reconnect by itself, show the host's scene again, and hand over every press once."""

import pytest

from knockboard.device import protocol as P
from knockboard.device.board import Board, BoardError
from knockboard.device.transport import TransportError
from knockboard.sim import VirtualBoard

CELLS = (3, 17, 40, 3, 63, 8)


class Port:
    """The board's port, counting every host write across reconnects; write number
    `fail_at` raises TransportError (its bytes sent first if `sent`), and the port is then
    dead, as an unplugged USB serial port is: the Board must open a new one."""

    def __init__(self, vb, fail_at=None, sent=False):
        self.vb, self.fail_at, self.sent = vb, fail_at, sent
        self.writes = 0
        self.kinds = []             # the frame type of each write, to say what failed

    def open(self):
        port = self.vb.open_transport()
        real_write = port.write

        def write(data):
            if port.closed:
                raise TransportError("port closed")
            self.writes += 1
            self.kinds.append(P.Decoder().feed(data)[0].type)
            if self.writes == self.fail_at:
                if self.sent:
                    real_write(data)
                port.closed = True              # reads fail from now on too
                raise TransportError("serial port: write failed (EIO)")
            real_write(data)
        port.write = write
        return port


def scene(brightness):
    return P.Scene(tuple(P.Cell(0, 0, 90) if i % 3 else P.OFF for i in range(64)), brightness)


def session(fail_at=None, sent=False):
    """Connect, set a scene, press CELLS one after another (the host keeps polling), set a
    second scene; returns what the host got and the board and port after it."""
    vb = VirtualBoard("dodgeball", seed=5)
    port = Port(vb, fail_at, sent)
    board = Board(port.open, clock=vb.clock, sleep=vb.sleep, session=0x5151)
    port.at_start = port.writes         # the first connection's (its failure: BoardError)
    got = []

    def run(seconds):
        end = vb.clock() + seconds
        while vb.clock() < end:
            got.extend(board.poll(0.05))
    board.set_scene(scene(200))
    run(0.3)
    for cell in CELLS:
        vb.press(cell)
        run(0.06)
        vb.release(cell)
        run(0.3)
    board.set_scene(scene(120))
    run(0.5)
    end = vb.clock() + 10.0             # time for a reconnect (its backoff) and the resend
    while vb.clock() < end and not (board.connected and board.link.idle()):
        run(0.1)
    run(0.3)
    return got, board, vb, port


def presses(got):
    return [(e.index, e.pressed) for e in got if isinstance(e, P.KeyEvent)]


WANT = [(c, p) for c in CELLS for p in (True, False)]


def test_a_clean_session_writes_each_kind_of_frame():
    got, board, vb, port = session()
    assert presses(got) == WANT and board.reconnects == 0
    # the sweep below fails each of these writes in turn
    assert {P.H_HEARTBEAT, P.H_ACK, P.H_SCENE} <= set(port.kinds[port.at_start:])


def test_a_write_failing_in_the_first_handshake_is_one_clear_error():
    vb = VirtualBoard("dodgeball", seed=5)
    with pytest.raises(BoardError, match="^serial port: write failed"):
        Board(Port(vb, fail_at=1).open, clock=vb.clock, sleep=vb.sleep)


def test_a_write_failing_at_any_step_costs_a_reconnect_and_nothing_else():
    clean = session()[3]
    failed = set()
    for fail_at in range(clean.at_start + 1, clean.writes + 1):
        for sent in (False, True):
            got, board, vb, port = session(fail_at, sent)
            what = (fail_at, sent, port.kinds[fail_at - 1])
            failed.add(port.kinds[fail_at - 1])
            assert presses(got) == WANT, what           # none lost, none doubled
            assert board.connected and board.reconnects == 1, what
            assert vb.device.scene.brightness == 120, what  # the host's scene, resent
            assert len(board.link.errors) == 0 and board.link.protocol_errors == 0, what
    # an ACK written while a received frame was handled among them (issue 35)
    assert {P.H_ACK, P.H_HEARTBEAT, P.H_SCENE} <= failed
