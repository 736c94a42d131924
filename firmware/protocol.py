# Knockboard serial protocol, device side: framing, CRC, constants.
# The host has its own implementation (knockboard.device.protocol); both are tested against
# docs/protocol-vectors.json. docs/protocol.md is the specification.
from micropython import const

PROTO_VERSION = const(1)

FLAG = const(0x7E)
ESC = const(0x7D)
CTRL_C = const(0x03)
CR = const(0x0D)
MAX_BODY = const(1200)  # type + seq + payload + crc; a 256-cell scene is 1031

# host -> device
H_HELLO = const(0x01)
H_HEARTBEAT = const(0x02)
H_ACK = const(0x03)
H_SCENE = const(0x10)
H_DISPLAY = const(0x11)
H_SOUND = const(0x12)
H_RESYNC = const(0x13)
H_CELLS = const(0x14)
H_MAINT = const(0x1F)
# device -> host
D_INFO = const(0x81)
D_HEARTBEAT = const(0x82)
D_ACK = const(0x83)
D_ERROR = const(0x84)
D_EVENTS = const(0x90)
D_STATE = const(0x91)

# ERROR codes
E_TYPE = const(1)
E_LENGTH = const(2)
E_VALUE = const(3)
E_VERSION = const(4)

# Decoder.feed results
NONE = const(0)
FRAME = const(1)
INTERRUPT = const(2)


def _make_table():
    from array import array
    t = array("H", bytes(512))
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        t[i] = c & 0xFFFF
    return t


_T = _make_table()


def crc16(data, crc=0xFFFF):
    # CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xorout):
    # crc16(b"123456789") == 0x29B1. Table-driven: the bitwise loop costs ~8x on a Pico.
    t = _T
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ t[((crc >> 8) ^ b) & 0xFF]
    return crc


class Decoder:
    """Byte-at-a-time frame decoder with a fixed buffer: garbage, bad CRC, bad escapes and
    oversize frames are dropped and counted, and decoding resumes at the next FLAG."""

    def __init__(self, maxlen=MAX_BODY):
        self.buf = bytearray(maxlen)
        self.mv = memoryview(self.buf)
        self.n = 0
        self.flen = 0  # length of the frame last returned
        self.crc = 0xFFFF
        self.sync = False  # inside a frame (a FLAG has been seen)
        self.esc = False
        self.bad = False
        self.prev = 0
        self.frames = 0
        self.errors = 0

    def feed(self, b):
        prev = self.prev
        self.prev = b
        if b == FLAG:
            result = NONE
            if self.sync and (self.n or self.bad):   # a spoilt frame counts, even empty
                if self.bad or self.esc or self.n < 4 or self.crc != 0:
                    self.errors += 1
                else:
                    self.frames += 1
                    self.flen = self.n
                    result = FRAME
            self.sync = True
            self.n = 0
            self.crc = 0xFFFF
            self.esc = False
            self.bad = False
            return result
        if b == CTRL_C:
            # Never part of a valid frame (always escaped), so it spoils the frame it is
            # in, even right after the opening FLAG (docs/protocol.md). CR + Ctrl-C is what
            # mpremote, Thonny and pyboard.py send to stop a running program: honour it.
            if self.sync:
                self.bad = True
            return INTERRUPT if prev == CR else NONE
        if not self.sync or self.bad:
            return NONE
        if self.esc:
            self.esc = False
            b ^= 0x20
            if b != FLAG and b != ESC and b != CTRL_C:
                self.bad = True
                return NONE
        elif b == ESC:
            self.esc = True
            return NONE
        n = self.n
        if n >= len(self.buf):
            self.bad = True
            return NONE
        self.buf[n] = b
        self.n = n + 1
        self.crc = ((self.crc << 8) & 0xFFFF) ^ _T[((self.crc >> 8) ^ b) & 0xFF]
        return NONE

    # Valid after feed() returned FRAME, until the next feed().
    def ftype(self):
        return self.buf[0]

    def seq(self):
        return self.buf[1]

    def payload(self):
        return self.mv[2:self.flen - 2]


class Encoder:
    """Builds stuffed frames into a preallocated buffer; returns a memoryview of the frame.
    Payload is staged in `body` (after the 2 header bytes) by the caller."""

    def __init__(self, maxlen=MAX_BODY):
        self.body = bytearray(maxlen)
        self.out = bytearray(2 * maxlen + 2)
        self.omv = memoryview(self.out)

    def frame(self, ftype, seq, plen):
        body = self.body
        body[0] = ftype
        body[1] = seq
        n = plen + 2
        crc = crc16(memoryview(body)[:n])
        body[n] = crc >> 8
        body[n + 1] = crc & 0xFF
        out = self.out
        out[0] = FLAG
        j = 1
        for i in range(n + 2):
            b = body[i]
            if b == FLAG or b == ESC or b == CTRL_C:
                out[j] = ESC
                out[j + 1] = b ^ 0x20
                j += 2
            else:
                out[j] = b
                j += 1
        out[j] = FLAG
        return self.omv[:j + 1]
