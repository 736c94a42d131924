"""The host link and Board client against the real firmware core (tests/device/harness)."""

import pytest

from harness import Faults, Rig

from knockboard.device import protocol as P
from knockboard.device.board import Board, BoardError


def presses(items):
    return [(e.index, e.pressed) for e in items if isinstance(e, P.KeyEvent) and not e.control]


def red_scene(cells, brightness=255):
    return P.Scene(tuple(P.Cell(200, 0, 0) if i % 2 else P.OFF for i in range(cells)),
                   brightness)


def test_connect_reports_the_board():
    rig = Rig()
    info = rig.board.info
    assert (info.proto, info.cells, info.board, info.firmware) == (1, 64, "dodgeball", "0.1.0")
    assert info.capabilities == ["oled", "buzzer", "effects", "roll-animation",
                                 "standalone-dice", "cells"]
    assert rig.board.connected


def test_scene_and_display_reach_the_device():
    rig = Rig()
    rig.board.set_scene(red_scene(64, brightness=255))
    rig.board.show(P.Display(lines=("Red to move",), dice=(3, 5), kind=6, roll=True))
    assert rig.board.flush(1.0)
    rig.run(1.2)  # the roll animation ends on the host's values
    hal = rig.sim.hal
    level = rig.sim.device.scene.level  # power-limited: 32 cells of red exceed 400 mA
    assert 0 < level < 255
    assert hal.leds[3:6] == bytes([0, 200 * level // 255, 0])  # GRB, cell 1
    assert hal.leds[0:3] == bytes(3)
    d = rig.sim.device.display
    assert d.lines[:d.nlines] == ["Red to move"]
    assert bytes(d.faces[:2]) == b"\x03\x05" and not d.rolling


def test_each_press_arrives_exactly_once():
    rig = Rig()
    got = []
    for cell in (0, 5, 63, 5):
        got += rig.press(cell)
    assert presses(got) == [(0, True), (0, False), (5, True), (5, False), (63, True),
                            (63, False), (5, True), (5, False)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_event_lost_or_doubled_on_a_bad_line(seed):
    # 15 % of chunks lost, 10 % corrupted, 10 % doubled, both directions
    rig = Rig(faults=(Faults(seed, 0.15, 0.10, 0.10), Faults(seed + 100, 0.15, 0.10, 0.10)))
    got = []
    want = []
    for k in range(25):
        cell = (k * 7) % 64
        got += rig.press(cell)
        want += [(cell, True), (cell, False)]
    got += rig.run(3.0)
    assert presses(got) == want
    assert rig.board.link.retransmits > 0 or rig.sim.device.dec.errors > 0  # faults did bite


def test_commands_get_through_a_bad_line():
    rig = Rig(faults=(Faults(7, 0.2, 0.1, 0.1), Faults(8, 0.2, 0.1, 0.1)))
    for b in range(1, 11):
        rig.board.set_scene(red_scene(64, brightness=b))
    assert rig.board.flush(5.0)
    assert rig.sim.device.scene.brightness == 10  # the newest scene won
    rig.board.sound("ok")
    assert rig.board.flush(5.0)


def test_unplug_then_reconnect_resends_scene_and_display():
    rig = Rig()
    rig.board.set_scene(red_scene(64))
    rig.board.show(P.Display(lines=("hello",)))
    rig.board.flush()
    rig.unplug()
    rig.run(2.0)
    assert not rig.board.connected
    rig.plug()  # USB power went with the cable: the board starts from scratch
    assert rig.sim.device.scene.brightness == 0
    rig.run(6.0)
    assert rig.board.connected and rig.board.reconnects == 1
    rig.board.flush()
    assert rig.sim.device.scene.brightness == 255
    assert bytes(rig.sim.device.scene.cells[4:7]) == bytes([200, 0, 0])
    assert rig.sim.device.display.lines[0] == "hello"
    # and input works again
    assert presses(rig.press(9)) == [(9, True), (9, False)]


def test_backoff_between_reconnect_attempts():
    rig = Rig()
    opened = []
    real_open = rig.open

    def counting_open():
        opened.append(rig.clock())
        return real_open()
    rig.board._opener = counting_open
    rig.unplug()
    rig.run(12.0)
    gaps = [round(b - a, 2) for a, b in zip(opened, opened[1:])]
    assert gaps[:4] == [0.25, 0.5, 1.0, 2.0] and all(g == 4.0 for g in gaps[4:])


def test_silent_board_is_detected_and_rehandshaken():
    rig = Rig()
    rig.board.set_scene(red_scene(64))
    rig.board.flush()
    rig.sim.running = False  # firmware hangs: no bytes at all
    rig.run(4.0)
    assert not rig.board.connected
    rig.sim.running = True
    rig.run(3.0)
    assert rig.board.connected


def test_device_rejection_is_reported_not_retried():
    rig = Rig()
    rig.board.link.send(P.H_SOUND, b"\x63")  # pattern 99: bypasses Board's own check
    out = rig.run(0.5)
    errs = [m for m in out if isinstance(m, P.DeviceError)]
    assert len(errs) == 1 and errs[0].code == 3 and errs[0].text == "bad value"
    assert rig.board.link.idle()


def test_the_boards_rejections_kept_are_bounded_and_all_counted():
    from knockboard.device.link import ERRORS_KEPT
    rig = Rig()
    for _ in range(ERRORS_KEPT + 8):
        rig.board.link.send(P.H_SOUND, b"\x63")
    out = rig.run(3.0)
    assert sum(isinstance(m, P.DeviceError) for m in out) == ERRORS_KEPT + 8
    assert rig.board.link.rejected == ERRORS_KEPT + 8
    assert len(rig.board.link.errors) == ERRORS_KEPT


def test_key_state_after_connect_includes_held_keys():
    rig = Rig()
    rig.sim.hal.press(12)
    rig.run(0.1)
    rig.board.resync()
    out = rig.run(0.3)
    states = [m for m in out if isinstance(m, P.KeyState)]
    assert states and 12 in states[-1].cells
    assert 12 in rig.board.pressed


def test_scene_size_mismatch_is_refused_locally():
    rig = Rig()
    with pytest.raises(BoardError, match="64"):
        rig.board.set_scene(P.Scene.blank(127))
    with pytest.raises(BoardError, match="unknown sound"):
        rig.board.sound("trumpet")


def test_missing_port_is_a_clear_error():
    with pytest.raises(BoardError, match=r"/dev/ttyNOPE.*cannot open"):
        Board.open("/dev/ttyNOPE")


def test_no_firmware_answer_is_a_clear_error():
    from knockboard.device.transport import pipe_pair
    host, other = pipe_pair()
    with pytest.raises(BoardError, match="no answer to HELLO"):
        Board(lambda: host, handshake_timeout=0.3)


def test_maintenance_stops_the_firmware():
    rig = Rig()
    rig.board.maintenance()
    assert not rig.sim.running and rig.sim.device.stop == 2


def test_long_polls_keep_the_heartbeat_going():
    rig = Rig()
    for _ in range(4):
        rig.board.poll(5.0)  # one call longer than the device's 3 s timeout
    assert rig.sim.device.mode == 1  # app.HOST: the device never felt abandoned
    assert rig.board.connected


def test_board_at_the_repl_is_explained():
    from knockboard.device.transport import pipe_pair
    host, repl = pipe_pair()

    class Repl:
        """Answers every write like MicroPython's friendly REPL would."""
        def write(self, data):
            host.write(data)
            repl.write(b"\r\n>>> ")

        def read(self, timeout):
            return host.read(timeout)

        def close(self):
            host.close()
    with pytest.raises(BoardError, match="at the MicroPython REPL.*mpremote reset"):
        Board(lambda: Repl(), handshake_timeout=0.3)


def test_first_key_state_is_not_lost_behind_the_handshake():
    # The device sends INFO and its first STATE in one burst; the handshake must hand the
    # STATE on rather than leave it to the device's retransmission 200 ms later.
    rig = Rig()
    rig.sim.press(5)
    rig.sim.advance(20)
    rig.board.close()
    rig.board = Board(rig.open, clock=rig.clock, sleep=rig.sim.sleep, session=0x99)
    t0 = rig.clock()
    out = rig.board.poll(0.05)
    assert [type(m).__name__ for m in out] == ["KeyState"] and 5 in out[0].cells
    assert rig.clock() - t0 < 0.01


def test_heartbeats_go_on_while_a_long_frame_keeps_failing():
    # On a noisy line a 500-byte scene may be damaged on every retransmission while short
    # frames get through. Retransmissions must not stand in for heartbeats: the board
    # would think the host gone, go dark and hand the players' presses to the dice roller.
    def damage_long_frames(data):
        return data[:-3] + b"\x00\x00\x7e" if len(data) > 100 else data
    rig = Rig("knockabout", faults=(damage_long_frames, None))
    rig.board.set_scene(red_scene(127))
    waiting = []
    for _ in range(100):  # 10 s
        rig.run(0.1)
        waiting.append(rig.sim.mode != "host")
    assert not any(waiting) and rig.board.connected and rig.board.reconnects == 0
    assert rig.board.link.retransmits > 20  # the scene itself never got through
    assert presses(rig.press(7)) == [(7, True), (7, False)]


def one_lit(cells, lit, colour=(0, 0, 200)):
    return P.Scene(tuple(P.Cell(*colour) if i == lit else P.OFF for i in range(cells)))


def device_scene(rig):
    dev = rig.sim.device.scene
    return bytes([dev.brightness, 0, len(dev.cells) // 4]) + bytes(dev.cells)


def test_a_scene_that_changes_a_few_cells_goes_as_those_cells():
    rig = Rig()
    sent = []
    write = rig.board.link._write

    def spy(data, keepalive=False):
        sent.append(data[1])  # the frame type, after the opening FLAG
        write(data, keepalive)
    rig.board.link._write = spy
    rig.board.set_scene(one_lit(64, 3))
    assert rig.board.flush(1.0)
    rig.board.set_scene(one_lit(64, 40, (200, 0, 0)))
    assert rig.board.flush(1.0)
    assert [t for t in sent if t in (P.H_SCENE, P.H_CELLS)] == [P.H_SCENE, P.H_CELLS]
    assert P.cells_payload(one_lit(64, 3).payload(), one_lit(64, 40).payload()) == bytes(
        [255, 3, 0, 0, 0, 0, 40, 0, 0, 200, 0])
    assert device_scene(rig) == one_lit(64, 40, (200, 0, 0)).payload()
    rig.run(0.1)
    assert rig.sim.hal.leds[3 * 40:3 * 41] == bytes([0, 200, 0]) and not any(
        rig.sim.hal.leds[9:12])


@pytest.mark.parametrize("seed", [4, 5])
def test_scene_changes_over_a_bad_line_leave_the_newest_scene(seed):
    rig = Rig(faults=(Faults(seed, 0.15, 0.10, 0.10), Faults(seed + 50, 0.15, 0.10, 0.10)))
    for k in range(30):
        rig.board.set_scene(one_lit(64, (k * 11) % 64, (k, 255 - k, 7)))
        rig.run(0.01 * (k % 4))  # now and then a newer scene replaces a queued one
    assert rig.board.flush(10.0)
    assert device_scene(rig) == one_lit(64, (29 * 11) % 64, (29, 226, 7)).payload()
    assert rig.board.link.retransmits > 0 or rig.sim.device.dec.errors > 0


def test_a_cells_update_cut_off_by_an_unplug_arrives_as_the_whole_scene():
    rig = Rig()
    dim = P.Scene((P.Cell(9, 9, 9),) * 64)
    lit = P.Scene((P.Cell(9, 9, 9),) * 2 + (P.Cell(0, 0, 200),) + (P.Cell(9, 9, 9),) * 61)
    rig.board.set_scene(dim)
    assert rig.board.flush(1.0)
    rig.board.link.transport.write = lambda data: None  # the cable is going: lost
    rig.board.set_scene(lit)
    rig.board.link._pump_tx(rig.clock())  # it goes out as CELLS, into a pulled cable
    assert rig.board.link.pending is not None and rig.board.link.pending[1] == P.H_CELLS
    rig.unplug()  # the board comes back blank: that one cell alone would be wrong
    rig.run(2.0)
    rig.plug()
    rig.run(6.0)
    assert rig.board.connected and rig.board.flush(2.0)
    assert device_scene(rig) == lit.payload()


def test_the_answer_to_a_press_reaches_the_board_before_the_ack_of_the_press():
    # the host owes the ACK of an EVENTS until its next poll, and writes the command the
    # application answered with first: the board lights the press before it reads the ACK
    rig = Rig()
    rig.board.set_scene(one_lit(64, 3))
    assert rig.board.flush(1.0)
    sent = []
    write = rig.board.link._write

    def spy(data, keepalive=False):
        sent.append(P.Decoder().feed(data)[0].type)  # (an ACK's type is escaped: Ctrl-C)
        write(data, keepalive)
    rig.board.link._write = spy
    rig.run(0.1)
    sent.clear()
    rig.sim.press(40)
    got = []
    while not presses(got):
        got = rig.board.poll(0.05)
    assert presses(got) == [(40, True)] and P.H_ACK not in sent
    rig.board.set_scene(one_lit(64, 40))
    # both leave as the answer is given, before the host polls again: a computer player may
    # think up to 2.5 s first, and the board counts the host gone after 3 s of silence
    assert [t for t in sent if t in (P.H_CELLS, P.H_ACK)][:2] == [P.H_CELLS, P.H_ACK]
    rig.run(0.1)
    assert rig.sim.hal.leds[3 * 40:3 * 41] == bytes([0, 0, 200])
    # with no answer, the ACK goes at the next poll: the release is not held up
    sent.clear()
    rig.sim.release(40)
    got = rig.run(0.1)
    assert presses(got) == [(40, False)] and P.H_ACK in sent
    assert rig.sim.device.pend_len == 0
