# OLED content: up to four dice (d4, d6, d8 faces) and up to three short text lines on a
# 128x64 1-bit framebuffer, plus the roll animation that ends on the values the host sent.
from micropython import const
from kbtime import ticks_add, ticks_diff

try:
    import framebuf
except ImportError:  # CPython: tests and the simulator
    import fbcompat as framebuf  # type: ignore[no-redef]

WIDTH = const(128)
HEIGHT = const(64)
MAX_DICE = const(4)
MAX_LINES = const(3)
MAX_CHARS = const(16)  # 8 px glyphs on 128 px
DIE = const(28)
GAP = const(4)
ROLL_MS = const(1000)
FLAG_ROLL = const(1)

KINDS = (4, 6, 8)

# d6 pips as (column, row) on a 3x3 grid, for faces 1..6
_PIPS = (
    (),
    ((1, 1),),
    ((0, 0), (2, 2)),
    ((0, 0), (1, 1), (2, 2)),
    ((0, 0), (2, 0), (0, 2), (2, 2)),
    ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
)


def check_payload(p):
    """DISPLAY payload: tag, flags, kind, n, n values, nlines, (len, ascii)*. Returns 0 or a
    protocol error code (2 length, 3 value)."""
    if len(p) < 5:
        return 2
    flags = p[1]
    kind = p[2]
    n = p[3]
    if flags & ~FLAG_ROLL:
        return 3
    if n > MAX_DICE or (kind == 0 and n) or (kind and kind not in KINDS):
        return 3
    i = 4 + n
    if len(p) < i + 1:
        return 2
    for k in range(4, i):
        if not 1 <= p[k] <= kind:
            return 3
    nlines = p[i]
    if nlines > MAX_LINES:
        return 3
    i += 1
    for _ in range(nlines):
        if i >= len(p):
            return 2
        ln = p[i]
        i += 1
        if ln > MAX_CHARS:
            return 3
        if i + ln > len(p):
            return 2
        for k in range(i, i + ln):
            if not 0x20 <= p[k] <= 0x7E:
                return 3
        i += ln
    return 0 if i == len(p) else 2


class Display:
    def __init__(self):
        self.buf = bytearray(WIDTH * HEIGHT // 8)
        # cleared by copying this (C memcpy, ~10 us on the RP2040); framebuf's fill(0) sets
        # the MONO_VLSB buffer pixel by pixel, 0.8 ms of a 2 ms redraw
        self.blank = bytes(len(self.buf))
        self.fb = framebuf.FrameBuffer(self.buf, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self.kind = 0
        self.n = 0
        self.values = bytearray(MAX_DICE)
        self.faces = bytearray(MAX_DICE)  # what is drawn (random faces while rolling)
        self.lines = ["", "", ""]
        self.nlines = 0
        self.rolling = False
        self.roll_end = 0
        self.next_flip = 0
        self.flip_ms = 40
        self.rng = 0xACE1
        self.dirty = True

    def seed(self, s):
        self.rng = (s & 0xFFFF) or 0xACE1

    def _rand(self, k):
        # xorshift16: small ints only, so no heap allocation per animation frame
        x = self.rng
        x ^= (x << 7) & 0xFFFF
        x ^= x >> 9
        x ^= (x << 8) & 0xFFFF
        self.rng = x
        return x % k + 1

    def show(self, kind, values, lines, roll, now):
        self.kind = kind
        self.n = len(values)
        for i in range(self.n):
            self.values[i] = values[i]
            self.faces[i] = values[i]
        self.nlines = len(lines)
        for i in range(self.nlines):
            self.lines[i] = lines[i]
        self.rolling = bool(roll and self.n)
        if self.rolling:
            self.roll_end = ticks_add(now, ROLL_MS)
            self.next_flip = now
            self.flip_ms = 40
        self.dirty = True

    def show_payload(self, p, now):
        """Apply a DISPLAY payload that passed check_payload()."""
        n = p[3]
        vals = bytes(p[4:4 + n])
        i = 4 + n
        nl = p[i]
        i += 1
        lines = []
        for _ in range(nl):
            ln = p[i]
            lines.append(bytes(p[i + 1:i + 1 + ln]).decode())
            i += 1 + ln
        self.show(p[2], vals, lines, p[1] & FLAG_ROLL, now)

    def due(self, now):
        """True if tick(now) will redraw (~2 ms on the RP2040): the loop reads the keys
        first."""
        if self.dirty:
            return True
        return self.rolling and (ticks_diff(now, self.roll_end) >= 0
                                 or ticks_diff(now, self.next_flip) >= 0)

    def tick(self, now):
        """Advance the roll animation; returns True if the framebuffer was redrawn."""
        if self.rolling:
            if ticks_diff(now, self.roll_end) >= 0:
                self.rolling = False
                for i in range(self.n):
                    self.faces[i] = self.values[i]
                self.dirty = True
            elif ticks_diff(now, self.next_flip) >= 0:
                for i in range(self.n):
                    self.faces[i] = self._rand(self.kind)
                self.flip_ms += self.flip_ms >> 2  # slows down like a die settling
                self.next_flip = ticks_add(now, self.flip_ms)
                self.dirty = True
        if not self.dirty:
            return False
        self.dirty = False
        self.render()
        return True

    def render(self):
        fb = self.fb
        self.buf[:] = self.blank
        n = self.n if self.kind else 0
        if n:
            x = (WIDTH - (n * DIE + (n - 1) * GAP)) // 2
            jig = 1 if self.rolling else 0
            for i in range(n):
                dy = jig if (self.faces[i] + i) & 1 else 0
                self.die(x + i * (DIE + GAP), 2 + dy, self.kind, self.faces[i])
            ys = 36
            step = 10
        else:
            ys = 28 - (self.nlines - 1) * 10
            step = 20
        for i in range(self.nlines):
            s = self.lines[i]
            fb.text(s, (WIDTH - 8 * len(s)) // 2, ys + i * step, 1)

    def die(self, x, y, kind, value):
        fb = self.fb
        S = DIE
        c = S // 2
        if kind == 6:
            fb.rect(x, y, S, S, 1)
            # rounded corners
            fb.pixel(x, y, 0)
            fb.pixel(x + S - 1, y, 0)
            fb.pixel(x, y + S - 1, 0)
            fb.pixel(x + S - 1, y + S - 1, 0)
            for gx, gy in _PIPS[value]:
                fb.fill_rect(x + 5 + gx * 7, y + 5 + gy * 7, 4, 4, 1)
            return
        if kind == 4:
            # triangle: apex at top centre, base on the bottom row
            h = S - 2
            for r in range(h):
                hw = r * (c - 1) // (h - 1)
                fb.pixel(x + c - hw, y + 1 + r, 1)
                fb.pixel(x + c + hw, y + 1 + r, 1)
            fb.hline(x + 1, y + h, S - 1, 1)
            fb.text(chr(48 + value), x + c - 3, y + h - 10, 1)
            return
        # d8: an octahedron seen from above, a diamond with the number in the middle
        for r in range(S - 1):
            hw = r if r <= c - 1 else S - 2 - r
            fb.pixel(x + c - hw, y + r, 1)
            fb.pixel(x + c + hw, y + r, 1)
        fb.text(chr(48 + value), x + c - 3, y + c - 4, 1)
