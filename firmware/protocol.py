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


CRC_TABLE = _make_table()  # also read by hal_rp2's machine-code crc16


def crc16(data, n=-1):
    # CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xorout) of data[:n]
    # (n < 0: all of it): crc16(b"123456789") == 0x29B1. Table-driven: the bitwise loop
    # costs ~8x in MicroPython. On the Pico the HAL has a machine-code one (hal_rp2.crc16).
    t = CRC_TABLE
    crc = 0xFFFF
    for i in range(len(data) if n < 0 else n):
        crc = ((crc << 8) & 0xFFFF) ^ t[((crc >> 8) ^ data[i]) & 0xFF]
    return crc


# Decoder states: before the first FLAG, inside a frame, after an ESC, spoilt until a FLAG.
OUT = const(0)
IN = const(1)
ESCAPED = const(2)
BAD = const(3)


# `crc(buf, n)` checks a body once it is complete: ~30 us a byte in MicroPython on the
# RP2040, where the HAL gives one in machine code.
class Decoder:
    """Frame decoder with a fixed buffer: garbage, bad CRC, bad escapes and oversize
    frames are dropped and counted, and decoding resumes at the next FLAG."""

    def __init__(self, maxlen=MAX_BODY, crc=crc16):
        self.buf = bytearray(maxlen)
        self.mv = memoryview(self.buf)
        self.cap = maxlen
        self.crc = crc
        self.n = 0
        self.flen = 0  # length of the frame last returned
        self.st = OUT
        self.prev = 0  # the byte before src[i] (CR + Ctrl-C)
        self.pos = 0
        self.one = bytearray(1)
        self.frames = 0
        self.errors = 0

    def feed(self, b):
        # one byte (the tests): as feed_from
        self.one[0] = b
        return self.feed_from(self.one, 0, 1)

    # Decodes src[i:end] until a frame ends (FRAME, valid until the next call), a CR +
    # Ctrl-C comes (INTERRUPT) or the bytes run out (NONE); self.pos is where to go on. One
    # call for a run of bytes, its state in locals: a call and an attribute cost more than
    # the work on a byte in MicroPython on the RP2040.
    def feed_from(self, src, i, end):
        start = i
        buf = self.buf
        cap = self.cap
        st = self.st
        n = self.n
        r = NONE
        while i < end:
            b = src[i]
            i += 1
            if st == IN and b != FLAG and b != ESC and b != CTRL_C:
                # the common case first: a plain byte inside a frame
                if n < cap:
                    buf[n] = b
                    n += 1
                else:
                    st = BAD
            elif b == FLAG:
                r = self._flag(st, n)
                st = IN
                n = 0
                if r:
                    break
            elif b == CTRL_C:
                # Never part of a valid frame (always escaped), so it spoils the frame it
                # is in, even right after the opening FLAG (docs/protocol.md). CR + Ctrl-C
                # is what mpremote, Thonny and pyboard.py send to stop a running program.
                if st != OUT:
                    st = BAD
                if (src[i - 2] if i - 2 >= start else self.prev) == CR:
                    r = INTERRUPT
                    break
            elif st == IN:  # b is ESC
                st = ESCAPED
            elif st == ESCAPED:
                b ^= 0x20
                st = BAD
                if (b == FLAG or b == ESC or b == CTRL_C) and n < cap:
                    buf[n] = b
                    n += 1
                    st = IN
        if i > start:
            self.prev = src[i - 1]
        self.st = st
        self.n = n
        self.pos = i
        return r

    def _flag(self, st, n):
        # the FLAG that ends the frame of n bytes in state st
        if st != OUT and (n or st == BAD):   # a spoilt frame counts, even empty
            if st != IN or n < 4 or self.crc(self.buf, n):
                self.errors += 1
            else:
                self.frames += 1
                self.flen = n
                return FRAME
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

    def __init__(self, maxlen=MAX_BODY, crc=crc16):
        self.crc = crc
        self.body = bytearray(maxlen)
        self.bmv = memoryview(self.body)
        self.out = bytearray(2 * maxlen + 2)
        self.omv = memoryview(self.out)

    def frame(self, ftype, seq, plen):
        body = self.body
        body[0] = ftype
        body[1] = seq
        n = plen + 2
        crc = self.crc(body, n)
        body[n] = crc >> 8
        body[n + 1] = crc & 0xFF
        n += 2
        out = self.out
        out[0] = FLAG
        if body.find(b"~", 0, n) < 0 and body.find(b"}", 0, n) < 0 \
                and body.find(b"\x03", 0, n) < 0:
            # nothing to escape (most frames): one copy in C, not a Python loop (~25 us a
            # byte on the RP2040)
            self.omv[1:n + 1] = self.bmv[:n]
            j = n + 1
        else:
            j = 1
            for i in range(n):
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
