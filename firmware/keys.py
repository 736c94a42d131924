# Key scan bookkeeping: per-key time-based debounce over row bitmasks, and a bounded event
# queue that flags overflow so the host can be resynced with the full key state (the same
# contract as CircuitPython's keypad.EventQueue).
from micropython import const
from array import array
from kbtime import ticks_diff

PRESSED = const(0x8000)
CONTROL = const(0x4000)
INDEX = const(0x3FFF)

OK = const(0)
BACK = const(1)
MENU = const(2)
N_CONTROLS = const(3)


class EventQueue:
    def __init__(self, capacity):
        self.q = array("H", bytes(2 * capacity))
        self.cap = capacity
        self.head = 0
        self.count = 0
        self.overflowed = False

    def put(self, ev):
        if self.overflowed or self.count >= self.cap:
            # Dropping means the host's picture of the keys is wrong from here on; the flag
            # makes the device send a full STATE once the queue has drained, and until then
            # later events would only describe a picture the host does not have.
            self.overflowed = True
            return False
        self.q[(self.head + self.count) % self.cap] = ev
        self.count += 1
        return True

    def peek(self, i=0):
        return self.q[(self.head + i) % self.cap]

    def pop(self, n=1):
        if n > self.count:
            n = self.count
        self.head = (self.head + n) % self.cap
        self.count -= n

    def clear(self):
        self.head = 0
        self.count = 0
        self.overflowed = False


# The rows Keys.scan must look at, into out, and how many: those that read differently
# from their settled state (raw masked by the real keys, valid) or have a press or a
# release under way (cand, pending). hal_rp2 has it in machine code (visit_rows): a walk
# over 13 rows in Python was ~0.3 ms of each scan that saw a key move on the RP2040.
def visit_rows(raw, stable, cand, pending, valid, n, out):
    k = 0
    for r in range(n):
        if (raw[r] & valid[r]) ^ stable[r] or cand[r] or pending[r]:
            out[k] = r
            k += 1
    return k


# The column of a row bitmask's single bit b: _COLUMN[b % 37] (2**c % 37 differs for every
# c < 36, and a row has at most 16 columns).
_COLUMN = bytearray(37)
for _c in range(16):
    _COLUMN[(1 << _c) % 37] = _c
del _c


class Keys:
    # rows: matrix rows; the control buttons are one extra row (bit i = control i).
    #
    # Eager press, careful release (docs/firmware.md, "Debounce"): a press is reported when
    # two consecutive scans read the key closed (the device scans again at once when one
    # does: `confirm`); a release only after the key has read open continuously for
    # `debounce_ms`. The bounces that follow a press never last that long, so they are
    # ignored, and a single-scan glitch is never a press. (Comments, not docstrings, here and
    # in app.py: a source install keeps every docstring in the heap.)
    def __init__(self, rows, cols, cells, debounce_ms=8, queue_size=64, visit=None):
        self.rows = rows
        self.visit = visit or visit_rows
        self.cols = cols
        self.cells = cells
        self.debounce = debounce_ms
        n = rows + 1
        self.stable = array("H", bytes(2 * n))
        self.rows_to_visit = bytearray(n)  # visit()'s answer
        self.cand = array("H", bytes(2 * n))  # read closed once, not yet confirmed
        self.pending = array("H", bytes(2 * n))  # read open while down: release under way
        self.busy = False  # some candidate or pending bit
        self.confirm = False  # a candidate waits for the next scan to confirm it
        # per key: when its release began; a list of small ints allocates nothing
        self.since = [0] * (n * 16)
        self.queue = EventQueue(queue_size)
        # bits of matrix positions that are real cells (a 12x11 matrix has 132 > 127 spots)
        self.valid = array("H", bytes(2 * n))
        for r in range(rows):
            m = 0
            for c in range(cols):
                if r * cols + c < cells:
                    m |= 1 << c
            self.valid[r] = m
        self.valid[rows] = (1 << N_CONTROLS) - 1

    def scan(self, now, raw):
        # raw: array of row bitmasks (rows + 1 entries) read by the HAL at time `now`.
        stable = self.stable
        if not self.busy and raw == stable:
            return  # nothing moved: one comparison in C instead of a pass over the rows
        cand = self.cand
        pending = self.pending
        valid = self.valid
        busy = False
        confirm = False
        rows = self.rows_to_visit
        for j in range(self.visit(raw, stable, cand, pending, valid, self.rows + 1, rows)):
            r = rows[j]
            s = stable[r]
            diff = (raw[r] & valid[r]) ^ s
            # presses: open keys read closed in this scan and the one before
            down = diff & ~s
            press = down & cand[r]
            cand[r] = down ^ press
            if press:
                stable[r] = s | press
                self._emit_bits(r, press)
            # releases: closed keys that have read open for debounce_ms without a break
            up = diff & s
            if up or pending[r]:
                self._stamp(r, up & ~pending[r], now)
                up = self._released(r, up, now)
                pending[r] = up
                if up:
                    busy = True
            if cand[r]:
                confirm = True
        self.busy = busy or confirm
        self.confirm = confirm

    def _stamp(self, r, bits, now):
        since = self.since
        b = r << 4
        while bits:
            if bits & 1:
                since[b] = now
            bits >>= 1
            b += 1

    def _released(self, r, up, now):
        # Reports the bits of `up` open for debounce_ms; returns those still pending.
        since = self.since
        base = r << 4
        m = up
        b = 0
        while m:
            if m & 1 and ticks_diff(now, since[base + b]) >= self.debounce:
                bit = 1 << b
                self.stable[r] &= ~bit
                up &= ~bit
                self._emit(r, b, 0)
            m >>= 1
            b += 1
        return up

    def _emit_bits(self, r, bits):
        # presses: the event of column c is ev + c, one pass a key pressed, not a column
        # (a pass costs ~15 us on the RP2040)
        ev = (CONTROL if r == self.rows else r * self.cols) | PRESSED
        while bits:
            low = bits & -bits
            self.queue.put(ev + _COLUMN[low % 37])
            bits ^= low

    def _emit(self, r, c, pressed):
        if r == self.rows:
            ev = CONTROL | c
        else:
            ev = r * self.cols + c
        if pressed:
            ev |= PRESSED
        self.queue.put(ev)

    def is_down(self, cell):
        r, c = divmod(cell, self.cols)
        return bool(self.stable[r] >> c & 1)

    def control_bits(self):
        return self.stable[self.rows]

    def state_bitmap(self, out, offset):
        # Write the debounced cell states as a bitmap (bit i of byte i//8 = cell i, LSB
        # first) into out[offset:]; returns the number of bytes written.
        nbytes = (self.cells + 7) >> 3
        for i in range(nbytes):
            out[offset + i] = 0
        cols = self.cols
        for r in range(self.rows):
            s = self.stable[r]
            c = 0
            while s:
                if s & 1:
                    i = r * cols + c
                    out[offset + (i >> 3)] |= 1 << (i & 7)
                s >>= 1
                c += 1
        return nbytes
