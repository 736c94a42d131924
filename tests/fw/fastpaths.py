# The firmware's machine code (hal_rp2's viper functions: the frame decoder and encoder,
# the quick CELLS path, the key scan's row filter) against the Python it stands in for, on
# the same seeded inputs. The machine code runs only on the RP2040: tests/rp2040 sends this
# file to the emulated chip's REPL and runs the checks there. check_quick also runs on
# CPython and in the MicroPython VM (test_fw_fastpaths.py) with quick_cells below, the
# reference the machine code follows. Plain MicroPython: no f-strings, no random module.
from array import array

import protocol as P
from keys import visit_rows
from power import PowerLimiter
from scene import Scene, N_EFFECTS, QUICK_MAX


class Rand:
    # a linear congruential generator: the same numbers on every runtime
    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


# Scene's quick path in Python (hal_rp2.quick_cells is this in machine code): the cells of a
# CELLS payload p[:plen] that change colour only (same fx byte, none listed twice), their new
# colour total s[2] within s[1] (the most the power limit passes), s[0] the board's cells:
# written into cells and rendered into out with fac; 0, 3 (a bad cell) or -1 (not for this
# path); nothing changes unless 0.
def quick_cells(p, plen, cells, out, fac, s):
    n = s[0]
    total = s[2]
    j = 1
    while j < plen:
        i = p[j]
        if i >= n or p[j + 4] & 0x0F >= N_EFFECTS:
            return 3
        o = i << 2
        if p[j + 4] != cells[o + 3]:
            return -1
        k = 1
        while k < j:
            if p[k] == i:
                return -1
            k += 5
        total += p[j + 1] + p[j + 2] + p[j + 3] - cells[o] - cells[o + 1] - cells[o + 2]
        j += 5
    if total > s[1]:
        return -1
    j = 1
    while j < plen:
        i = p[j]
        o = i << 2
        f = fac[cells[o + 3]]
        q = o - i
        cells[o] = p[j + 1]
        cells[o + 1] = p[j + 2]
        cells[o + 2] = p[j + 3]
        out[q] = p[j + 2] * f // 255
        out[q + 1] = p[j + 1] * f // 255
        out[q + 2] = p[j + 3] * f // 255
        j += 5
    s[2] = total
    return 0


def _frames_stream(rng, cap, frames):
    # frames of random types, numbers and payloads (FLAG, ESC, Ctrl-C and CR among them),
    # some damaged, cut short, longer than the decoder's buffer, or plain garbage
    enc = P.Encoder()
    out = bytearray()
    for _ in range(frames):
        n = rng.below(cap + 8)
        for i in range(n):
            enc.body[2 + i] = (0x7E, 0x7D, 3, 0x0D)[rng.below(4)] if rng.below(4) == 0 \
                else rng.below(256)
        f = bytearray(enc.frame(1 + rng.below(0x20), rng.below(256), n))
        kind = rng.below(8)
        if kind == 0:
            f[1 + rng.below(len(f) - 2)] ^= 1 << rng.below(8)
        elif kind == 1:
            f = f[:rng.below(len(f))]
        elif kind == 2:
            f = bytearray(rng.below(256) for _ in range(rng.below(12)))
        out += f
    return out + b"\x7e\x02\x00\r\x03\x7e" + bytes(enc.frame(2, 0, 0))


def decode_runs(dec, data, size):
    # as app.Device reads: runs of `size` bytes, each through feed_from to its end; the
    # frames and interrupts, errors and frames counted
    got = []
    for k in range(0, len(data), size):
        run = bytearray(data[k:k + size])
        i = 0
        while i < len(run):
            r = dec.feed_from(run, i, len(run))
            i = dec.pos
            if r == P.FRAME:
                got.append((dec.ftype(), dec.seq(), bytes(dec.payload())))
            elif r == P.INTERRUPT:
                got.append("interrupt")
    # hal_rp2.FastDecoder keeps its counts in its machine code's state array
    errors, frames = dec.counts() if hasattr(dec, "counts") else (dec.errors, dec.frames)
    return got, errors, frames


def check_decoder(fast, frames=50):
    rng = Rand(32)
    data = _frames_stream(rng, 40, frames)
    for cap, size in ((40, 1), (40, 16), (40, len(data)), (P.MAX_BODY, 32)):
        want = decode_runs(P.Decoder(cap, P.crc16), data, size)
        assert want[2] > frames // 5 and want[1] > frames // 10, want[1:]
        got = decode_runs(fast(cap, P.crc16), data, size)
        assert got == want, (cap, size, got[1:], want[1:])


def check_encoder(fast, frames=100):
    rng = Rand(33)
    slow, quick = P.Encoder(160, P.crc16), fast(160, P.crc16)
    for _ in range(frames):
        n = rng.below(100)
        for i in range(n):
            slow.body[2 + i] = quick.body[2 + i] = rng.below(256) if rng.below(3) else 0x7E
        t, seq = rng.below(256), rng.below(256)
        assert bytes(quick.frame(t, seq, n)) == bytes(slow.frame(t, seq, n)), (t, seq, n)


def check_visit(fast, rounds=300):
    rng = Rand(34)
    n = 13
    for _ in range(rounds):
        a = [array("H", [rng.below(4096) if rng.below(6) == 0 else 0 for _ in range(n)])
             for _ in range(5)]
        raw, stable, cand, pending, valid = a
        for r in range(n):
            valid[r] = 0x7FF if rng.below(8) else 0x3F
            if rng.below(2):
                raw[r] = stable[r]
        rows, want = bytearray(n), bytearray(n)
        k = fast(raw, stable, cand, pending, valid, n, rows)
        assert k == visit_rows(raw, stable, cand, pending, valid, n, want)
        assert rows[:k] == want[:k]


def _cells_payload(rng, scene, cells):
    # mostly what a press's answer is (a few cells recoloured), a third of the time one
    # thing the quick path must leave to the general one: a changed effect or brightness,
    # a cell listed twice, too many cells, a cell that does not exist, a bad length, or
    # colours past the power limit
    odd = rng.below(21)
    k = 1 + rng.below(3) if odd != 1 else QUICK_MAX + rng.below(3)
    p = bytearray([scene.brightness if odd != 2 else rng.below(256)])
    for j in range(k):
        i = rng.below(cells) if odd != 3 or j else cells
        if odd == 4 and j:
            i = p[1]
        fx = scene.cells[4 * i + 3] if i < cells else 0
        if odd == 5:
            fx = rng.below(N_EFFECTS + 1) | rng.below(4) << 4
        top = 256 if odd == 6 else 40
        p += bytes((i, rng.below(top), rng.below(top), rng.below(top), fx))
    return p[:-1] if odd == 7 else p


def check_quick(fn, cells=127, rounds=150):
    # Scene a takes each CELLS on the quick path `fn` where it can, b always on the general
    # one (check_cells, update, the next frame): cells, totals, power limit and the LED
    # frames must agree, and so must the answers (error codes).
    rng = Rand(35)
    a = Scene(cells, PowerLimiter(cells, 350, 13, 1), fn)
    b = Scene(cells, PowerLimiter(cells, 350, 13, 1))
    out_a, out_b = bytearray(3 * cells), bytearray(3 * cells)
    base = bytearray([200, cells >> 8, cells & 0xFF])
    for i in range(cells):
        base += bytes((rng.below(20), rng.below(20), rng.below(20),
                       PULSE_OR_SOLID[rng.below(len(PULSE_OR_SOLID))]))
    a.set(base)
    b.set(base)
    now = 1000
    quick = 0
    for k in range(rounds):
        if k % 25 == 0:
            now += 37  # the animation moves on: a frame for both
        a.render(now, out_a)
        b.render(now, out_b)
        p = _cells_payload(rng, b, cells)
        code = a.quick(p, out_a)
        if code < 0:
            code = Scene.check_cells(p, cells)
            if not code:
                a.update(p)
                a.render(now, out_a)
        else:
            quick += not code
        want = Scene.check_cells(p, cells)
        if not want:
            b.update(p)
            b.render(now, out_b)
        assert code == want, (k, code, want)
        assert a.cells == b.cells and a.total == b.total and a.level == b.level, k
        assert out_a == out_b, k
    assert quick > rounds // 3, quick  # most took the quick path (~half)
    return quick


PULSE_OR_SOLID = (0, 0, 0, 0, 2, 0x12)


def read_chunks(data, n):
    # What hal_rp2's _read gives when all of data waits in stdin: at most n bytes a read,
    # a read ending after a Ctrl-C and after a FLAG that ends a frame (a FLAG after another
    # byte).
    out = []
    k = 0
    while k < len(data):
        start = k
        inner = 0
        while k < len(data) and k - start < n:
            b = data[k]
            k += 1
            if b == 3 or (b == 0x7E and inner):
                break
            if b != 0x7E:
                inner = 1
        out.append(bytes(data[start:k]))
    return out


def check_read(H, data, n=32):
    # On the chip, data (then b"END") sent to stdin by the host once "read-start" is out:
    # read with stdin's own read alone for half the reads, then from MicroPython's stdin
    # ring (found by _find_ring, trusted after it has given _RING_TRUST bytes), as
    # HalRp2.read_into does; the same reads as read_chunks, and stdin itself finds the
    # ring where the reads left it (b"END" next).
    import select
    import sys
    import time
    from machine import mem16
    from micropython import kbd_intr
    want = read_chunks(data, n)
    ring = H._find_ring(0x20000000, 0x20042000)
    assert ring, "no stdin ring found"
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    b1 = bytearray(1)
    kbd_intr(-1)
    print("read-start")
    t0 = time.ticks_ms()
    # everything waiting before the first read, so the reads' ends are the data's own
    while (mem16[ring + 8] - mem16[ring + 6]) % 512 < len(data) + 3 \
            and time.ticks_diff(time.ticks_ms(), t0) < 2000:
        time.sleep_ms(1)
    got = []
    rs = array("i", (0, 0))
    buf = bytearray(n)
    second = 0  # bytes read from the switch on
    while sum(len(c) for c in got) < len(data):
        if len(got) == len(want) // 2:
            rs = array("i", (ring, 0))
            second = len(data) - sum(len(c) for c in got)
        if rs[1] >= 8:  # as HalRp2.read_into (_RING_TRUST)
            k = H._read_ring(buf, n, rs[0], poll.ipoll)
        else:
            k = H._read(buf, n, poll.ipoll, sys.stdin.buffer.readinto, b1, rs)
        if not k:
            break
        got.append(bytes(buf[:k]))
    tail = b""
    while len(tail) < 3 and poll.poll(200):  # never waits for bytes a bad read lost
        tail += sys.stdin.buffer.read(1)
    kbd_intr(3)
    bad = [i for i in range(min(len(got), len(want))) if got[i] != want[i]]
    assert got == want, (len(got), len(want), bad[:3])
    # trusted (_RING_TRUST, 8 bytes), then most bytes came from the ring itself
    assert rs[0] == ring and 8 <= rs[1] < second // 2, (rs[0], rs[1], second)
    assert tail == b"END", tail
    return len(got)


def leds_ready(free, busy):
    # HalRp2.leds_ready's test in Python: the chain is free unless the last frame's end
    # (free) is still ahead, by at most busy us
    import time
    left = time.ticks_diff(free, time.ticks_us())
    return not 0 < left <= busy


def check_ready(fast, busy=4110):
    # around every boundary (now, now + busy) and far from it, across the 30-bit wrap of
    # ticks_us; 60 us kept clear of the boundaries for the time between the two calls
    import time
    n = 0
    for ahead in (-(1 << 29) + 100, -5000, -100, -60, 60, 100, 2000, busy - 100, busy - 60,
                  busy + 60, busy + 100, 1 << 28, (1 << 29) - 100):
        free = time.ticks_add(time.ticks_us(), ahead)
        want = leds_ready(free, busy)
        got = bool(fast(free, busy))
        assert got == want, (ahead, got, want)
        n += 1
    return n
