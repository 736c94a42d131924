# The device core under hostile input, on CPython and in the MicroPython VM alike: random
# frames of every type (valid, malformed, out of order, repeated, damaged, cut short),
# garbage and key presses, interleaved. After every burst the device still runs, sends only
# well-formed frames, keeps its LEDs within the power budget and its event queue within
# bounds; afterwards a new host gets a clean session. tests/reliability/
# test_device_robustness.py also measures the heap over this traffic, and
# tests/soak/device_fuzz.py runs it for many more frames.
from fwpaths import make_cfg
import random

import protocol as P
import app
from fakehal import FakeHal

SESSION = 0x2468
PRINTABLE = b" abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-:>/()!?"


def bits(n):
    return random.getrandbits(n)


def below(n):
    return bits(16) % n


def junk(n):
    out = bytearray(bits(8) for _ in range(n))
    for i in range(n):
        if out[i] == 3:  # CR Ctrl-C is the documented way to stop the firmware
            out[i] = 4
    return bytes(out)


_ENC = P.Encoder()


def frame(t, seq, payload=b""):
    _ENC.body[2:2 + len(payload)] = payload
    return bytes(_ENC.frame(t, seq, len(payload)))


def scene_payload(cells, valid=True):
    p = bytearray([bits(8), cells >> 8, cells & 0xFF])
    for _ in range(cells):
        p += bytes([bits(8), bits(8), bits(8), below(4) | bits(4) << 4])
    if valid:
        return bytes(p)
    k = below(3)
    if k == 0:
        p[2] ^= 1 + below(4)  # wrong cell count
    elif k == 1:
        p = p[:below(len(p))]  # cut short
    else:
        p[6 + 4 * below(cells)] = 4 + below(12)  # unknown effect
    return bytes(p)


def display_payload():
    kind = (0, 4, 6, 8)[below(4)]
    n = below(5) if kind else 0
    p = bytearray([bits(8), bits(1), kind, n])
    for _ in range(n):
        p.append(1 + below(kind))
    lines = below(4)
    p.append(lines)
    for _ in range(lines):
        ln = below(17)
        p.append(ln)
        p += bytes(PRINTABLE[below(len(PRINTABLE))] for _ in range(ln))
    return bytes(p)


class Fuzz:
    def __init__(self, board="knockoff"):
        self.cfg = make_cfg(board)
        self.hal = FakeHal(self.cfg, t0=5000)
        self.dev = app.Device(self.hal, self.cfg)
        self.dec = P.Decoder()
        self.sent = 0
        self.answers = 0
        self.seq = 1

    def chunk(self):
        """One random thing from a host (or from the line)."""
        cells = self.cfg.cells
        k = below(16)
        if bits(2) == 0:
            self.seq = 1 + below(255)
        seq = self.seq
        self.seq = self.seq % 255 + 1
        if k == 0:
            s = SESSION if bits(2) else bits(16)
            v = 1 if bits(3) else bits(8)
            p = bytes([v, s >> 8, s & 0xFF]) if bits(3) else junk(below(6))
            return frame(P.H_HELLO, 0 if bits(3) else seq, p)
        if k in (1, 2, 3):
            return frame(P.H_SCENE, seq, scene_payload(cells, k != 3))
        if k in (4, 5):
            return frame(P.H_DISPLAY, seq, display_payload())
        if k == 6:
            return frame(P.H_DISPLAY, seq, junk(below(60)))
        if k == 7:
            return frame(P.H_SOUND, seq, junk(1 if bits(2) else below(4)))
        if k == 8:
            return frame(P.H_RESYNC, seq, b"" if bits(2) else junk(below(4)))
        if k == 9:
            return frame(P.H_ACK, self.dev.pend_seq if bits(1) else bits(8))
        if k == 10:
            return frame(P.H_HEARTBEAT, 0)
        if k == 11:
            p = b"MAIN" + junk(below(3)) if bits(1) else junk(below(7))
            return frame(P.H_MAINT, seq, p if p != b"MAINT" else b"MAINX")  # never MAINT
        if k == 12:
            return frame(bits(8) | 0x40, seq, junk(below(20)))  # unknown types
        if k == 13:
            return junk(below(80))
        f = bytearray(frame(P.H_SCENE if bits(1) else P.H_DISPLAY, seq,
                            scene_payload(cells) if bits(1) else display_payload()))
        if k == 14:
            return bytes(f[:below(len(f))])  # cut short
        i = 1 + below(len(f) - 2)  # one bit flipped
        f[i] ^= 1 << below(8)
        if f[i] == 3:
            f[i] = 5
        return bytes(f)

    def press_something(self):
        if bits(2) == 0:
            if bits(2):
                self.hal.press(below(self.cfg.cells), bool(bits(1)))
            else:
                self.hal.control(below(3), bool(bits(1)))

    def run(self, ms):
        for _ in range(ms):
            assert self.dev.step(self.hal.now), "the device stopped (%d)" % self.dev.stop
            self.hal.now += 1

    def check(self):
        dev = self.dev
        lim = dev.scene.limiter
        total = 0
        c = dev.scene.cells
        for i in range(len(c)):
            if i & 3 != 3:
                total += c[i]
        assert dev.scene.level <= dev.scene.brightness
        assert dev.scene.level == 0 or lim.estimate_ma(total, dev.scene.level) <= lim.budget
        assert dev.keys.queue.count <= dev.keys.queue.cap
        assert len(self.hal.leds) == 3 * self.cfg.cells
        for b in self.hal.take_tx():
            if self.dec.feed(b) == P.FRAME:
                self.answers += 1
        assert self.dec.errors == 0, "the device sent a damaged frame"

    def burst(self, n):
        for _ in range(n):
            self.hal.rx.extend(self.chunk())
            self.sent += 1
            self.press_something()
            self.run(1 + below(6))
        self.check()


def recovers(fz):
    """A new host after all that: HELLO, then a scene that shows."""
    fz.hal.rx.extend(b"\x7e")  # end whatever the junk left open
    fz.run(5)
    fz.hal.take_tx()
    fz.hal.rx.extend(frame(P.H_HELLO, 0, bytes([1, 0x7A, 0x7B])))
    fz.run(10)
    dec = P.Decoder()
    got = []
    for b in fz.hal.take_tx():
        if dec.feed(b) == P.FRAME:
            got.append(dec.ftype())
    assert P.D_INFO in got and fz.dev.session == 0x7A7B
    cells = fz.cfg.cells
    fz.hal.rx.extend(frame(P.H_SCENE, 9, bytes([255, cells >> 8, cells & 0xFF])
                           + bytes([0, 0, 90, 0]) * cells))
    fz.run(40)
    assert fz.dev.scene.brightness == 255 and fz.hal.leds[2] > 0


def test_random_frames_of_every_type_leave_the_device_sound():
    random.seed(1234)
    fz = Fuzz("knockoff")
    for _ in range(12):
        fz.burst(25)
    assert fz.sent == 300 and fz.answers > 50 and fz.dev.dec.errors > 10
    recovers(fz)
