# The device loop end to end with a fake HAL: handshake, commands, errors, de-duplication,
# retransmission, waiting state, standalone dice, takeover, random input.
from fwpaths import make_cfg, load_json, unhex
import random

import protocol as P
import app
from fakehal import FakeHal

V = load_json("protocol-vectors.json")
SESSION = 0x1234


def frame(t, seq, payload=b""):
    e = P.Encoder()
    e.body[2:2 + len(payload)] = payload
    return bytes(e.frame(t, seq, len(payload)))


class Rig:
    def __init__(self, board="dodgeball", hello=True):
        self.cfg = make_cfg(board)
        self.hal = FakeHal(self.cfg, t0=1000)
        self.dev = app.Device(self.hal, self.cfg)
        self.dec = P.Decoder()
        self.alive = True
        if hello:
            self.send(frame(P.H_HELLO, 0, bytes([1, SESSION >> 8, SESSION & 0xFF])))
            self.run(5)
            self.got()

    def send(self, data):
        self.hal.rx.extend(data)

    def run(self, ms):
        for _ in range(ms):
            if not self.dev.step(self.hal.now):
                self.alive = False
                return
            self.hal.now += 1

    def got(self):
        out = []
        for b in self.hal.take_tx():
            if self.dec.feed(b) == P.FRAME:
                out.append((self.dec.ftype(), self.dec.seq(), bytes(self.dec.payload())))
        return out

    def cmd(self, t, seq, payload=b"", ms=5):
        self.send(frame(t, seq, payload))
        self.run(ms)
        return self.got()


def scene_payload(cells, rgbfx=(10, 20, 30, 0), brightness=255):
    return bytes([brightness, cells >> 8, cells & 0xFF]) + bytes(rgbfx) * cells


def test_hello_answered_with_info_and_initial_state():
    r = Rig(hello=False)
    r.send(frame(P.H_HELLO, 0, b"\x01\x12\x34"))
    r.run(5)
    out = r.got()
    t, seq, p = out[0]
    assert (t, seq) == (P.D_INFO, 0)
    assert p[0] == 1 and p[3:5] == b"\x12\x34"
    assert p[5:7] == b"\x00\x40"  # 64 cells
    assert p[7:10] == b"\x08\x08\x03"
    assert p[12:] == b"\x050.1.0\x09dodgeball"
    # a new host learns the key state at once
    assert out[1][0] == P.D_STATE and out[1][1] == 1


def test_commands_before_hello_are_refused():
    r = Rig(hello=False)
    assert r.cmd(P.H_SCENE, 1, scene_payload(64)) == [(P.D_ERROR, 1, bytes([app.E_SESSION]))]
    assert r.dev.scene.brightness == 0


def test_wrong_protocol_version_gets_info_but_no_session():
    r = Rig(hello=False)
    r.send(frame(P.H_HELLO, 0, b"\x02\x00\x01"))
    r.run(5)
    out = r.got()
    assert [o[0] for o in out] == [P.D_INFO]
    assert r.dev.session < 0


def test_scene_applied_acked_and_duplicate_not_reapplied():
    r = Rig()
    r.cmd(P.H_ACK, 1)  # the initial STATE
    assert r.cmd(P.H_SCENE, 1, scene_payload(64), ms=30) == [(P.D_ACK, 1, b"")]
    assert r.hal.leds[:3] == bytearray([20, 10, 30])
    writes = r.hal.led_writes
    r.dev.scene.cells[0] = 99  # a re-applied duplicate would reset this
    assert r.cmd(P.H_SCENE, 1, scene_payload(64), ms=30) == [(P.D_ACK, 1, b"")]
    assert r.dev.scene.cells[0] == 99 and r.hal.led_writes == writes


def test_rejected_vectors_change_nothing():
    r = Rig("knockabout")
    r.cmd(P.H_ACK, 1)
    good = scene_payload(127, (1, 2, 3, 0))
    assert r.cmd(P.H_SCENE, 50, good, ms=30) == [(P.D_ACK, 50, b"")]
    before = bytes(r.dev.scene.cells), bytes(r.hal.leds), r.dev.last_display_len
    for i, v in enumerate(V["rejected"]):
        seq = 100 + i
        w = bytearray(unhex(v["wire"]))
        # re-sequence the vector so de-duplication does not hide it
        e = P.Decoder()
        for b in w:
            if e.feed(b) == P.FRAME:
                t, p = e.ftype(), bytes(e.payload())
        out = r.cmd(t, seq, p, ms=25)
        assert out == [(P.D_ERROR, seq, bytes([v["code"]]))], (v["name"], out)
    assert (bytes(r.dev.scene.cells), bytes(r.hal.leds), r.dev.last_display_len) == before
    assert r.alive


def test_key_press_delivered_and_retransmitted_until_acked():
    r = Rig()
    r.cmd(P.H_ACK, 1)
    r.hal.press(9)
    r.run(20)
    out = r.got()
    assert out == [(P.D_EVENTS, 2, b"\x01\x01\x00\x09")]
    r.run(200)
    assert r.got() == [(P.D_EVENTS, 2, b"\x01\x01\x00\x09")]  # same seq: a retransmission
    r.hal.press(9, False)
    out = r.cmd(P.H_ACK, 2, ms=20)
    # the release follows as the next sequence number
    assert out == [(P.D_EVENTS, 3, b"\x01\x00\x00\x09")]


def test_events_batched_in_order():
    r = Rig()
    r.hal.press(1)
    r.hal.press(2)
    r.hal.control(0)
    r.run(20)
    r.got()
    out = r.cmd(P.H_ACK, 1, ms=2)  # STATE acked, the queued events go out in one frame
    assert out == [(P.D_EVENTS, 2, b"\x03\x01\x00\x01\x01\x00\x02\x03\x00\x00")]


def test_overflow_ends_in_a_full_state():
    r = Rig()
    r.cmd(P.H_ACK, 1)
    cap = r.dev.keys.queue.cap
    n = 0
    while n <= cap + 4:  # never acked: the queue fills up
        c = n % 32
        r.hal.press(c, n // 32 % 2 == 0)
        r.run(12)
        n += 1
    assert r.dev.keys.queue.overflowed
    seq = 2
    states = []
    out = []
    for _ in range(20):
        r.run(3)
        out += r.got()
        while out:
            t, s, p = out.pop(0)
            if s == seq and t in (P.D_EVENTS, P.D_STATE):
                if t == P.D_STATE:
                    states.append(p)
                out += r.cmd(P.H_ACK, seq, ms=1)
                seq += 1
    assert states and states[0][0] == 1  # overflow flag
    bitmap = states[0][3:11]
    for c in range(64):
        assert (bitmap[c >> 3] >> (c & 7) & 1) == r.dev.keys.is_down(c)


def test_silence_means_waiting_for_host_then_scene_comes_back():
    r = Rig()
    r.cmd(P.H_ACK, 1)
    r.cmd(P.H_SCENE, 1, scene_payload(64), ms=30)
    assert r.dev.mode == app.HOST
    r.run(3100)
    assert r.dev.mode == app.WAITING
    assert r.hal.leds == bytearray(3 * 64)
    assert "waiting for host" in r.dev.display.lines
    r.got()
    r.cmd(P.H_HEARTBEAT, 0, ms=30)
    assert r.dev.mode == app.HOST
    assert r.hal.leds[:3] == bytearray([20, 10, 30])


def test_heartbeat_sent_when_quiet():
    r = Rig()
    r.cmd(P.H_ACK, 1)
    r.run(1100)
    assert (P.D_HEARTBEAT, 0, b"") in r.got()


def test_standalone_dice_roll_with_ok():
    r = Rig(hello=False)
    r.hal.control(0)
    r.run(15)
    r.hal.control(0, False)
    r.run(15)
    assert len(r.dev.dice.values) == 2
    assert r.dev.display.rolling
    r.run(1100)
    assert not r.dev.display.rolling
    assert bytes(r.dev.display.faces[:2]) == bytes(r.dev.dice.values)
    assert any(f for _, f in r.hal.tones)
    assert r.got() == []  # nothing goes to a host that is not there


def test_new_session_clears_old_presentation_and_events():
    r = Rig()
    r.cmd(P.H_ACK, 1)
    r.cmd(P.H_SCENE, 1, scene_payload(64), ms=30)
    r.hal.press(3)
    r.run(20)
    r.send(frame(P.H_HELLO, 0, b"\x01\x99\x99"))
    r.run(30)
    out = [o for o in r.got() if o[0] != P.D_EVENTS]  # drop the old session's retries
    assert out[0][0] == P.D_INFO
    assert out[1][0] == P.D_STATE and out[1][2][3] == 0b1000  # cell 3 held
    assert r.dev.scene.brightness == 0


def test_same_session_hello_keeps_state():
    r = Rig()
    r.cmd(P.H_ACK, 1)
    r.cmd(P.H_SCENE, 1, scene_payload(64), ms=30)
    r.send(frame(P.H_HELLO, 0, bytes([1, SESSION >> 8, SESSION & 0xFF])))
    r.run(5)
    assert [o[0] for o in r.got()] == [P.D_INFO]
    assert r.dev.scene.brightness == 255
    assert r.cmd(P.H_SCENE, 1, scene_payload(64)) == [(P.D_ACK, 1, b"")]  # still a dup


def test_maintenance_command_acks_then_stops():
    r = Rig()
    out = r.cmd(P.H_MAINT, 7, b"MAINT")
    assert (P.D_ACK, 7, b"") in out
    assert not r.alive and r.dev.stop == app.STOP_MAINT


def test_cr_ctrl_c_stops_and_leaves_the_rest_for_the_repl():
    r = Rig()
    r.send(b"\r\x03\r\x01")
    r.run(3)
    assert not r.alive and r.dev.stop == app.STOP_INTERRUPT
    assert r.hal.pending_input() == 2  # CR Ctrl-A is still there for the raw REPL


def test_run_releases_hardware():
    r = Rig()
    r.send(b"\r\x03")
    assert r.dev.run() == app.STOP_INTERRUPT
    assert r.hal.released


def test_random_bytes_never_crash_and_frames_still_work():
    r = Rig()
    random.seed(5)
    for _ in range(30):
        junk = bytearray(random.getrandbits(8) for _ in range(200))
        for i in range(len(junk)):  # CR Ctrl-C is the documented way to stop the firmware
            if junk[i] == 3:
                junk[i] = 4
        r.send(junk)
        r.run(3)
        assert r.alive
    r.run(50)
    r.got()
    r.send(b"\x7e")  # end whatever the junk left open
    out = r.cmd(P.H_SOUND, 200, b"\x02")
    assert (P.D_ACK, 200, b"") in out


def test_random_well_formed_frames_never_crash():
    r = Rig()
    random.seed(11)
    for i in range(300):
        t = (0x01, 0x02, 0x03, 0x10, 0x11, 0x12, 0x13, 0x1F, 0x55)[random.getrandbits(8) % 9]
        n = random.getrandbits(8) % 40
        p = bytes(random.getrandbits(8) for _ in range(n))
        r.send(frame(t, random.getrandbits(8), p))
        r.run(2)
        if not r.alive:
            assert r.dev.stop == app.STOP_MAINT and p == b"MAINT"
            return
