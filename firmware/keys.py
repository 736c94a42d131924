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


class Keys:
    """rows: matrix rows; the control buttons are one extra row (bit i = control i).
    A key changes state only after its raw reading has differed from the debounced state
    continuously for `debounce_ms`; shorter glitches are dropped."""

    def __init__(self, rows, cols, cells, debounce_ms=8, queue_size=64):
        self.rows = rows
        self.cols = cols
        self.cells = cells
        self.debounce = debounce_ms
        n = rows + 1
        self.stable = array("H", bytes(2 * n))
        self.pending = array("H", bytes(2 * n))  # bits whose raw value differs from stable
        self.busy = False  # some pending bit
        # per-key time when it started to differ; a list of small ints allocates nothing
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
        """raw: array of row bitmasks (rows + 1 entries) read by the HAL at time `now`."""
        stable = self.stable
        if not self.busy and raw == stable:
            return  # nothing moved: one comparison in C instead of a pass over the rows
        busy = False
        pending = self.pending
        since = self.since
        deb = self.debounce
        for r in range(self.rows + 1):
            diff = (raw[r] & self.valid[r]) ^ stable[r]
            p = pending[r]
            if not diff and not p:
                continue
            new = diff & ~p
            base = r << 4
            b = 0
            while new:
                if new & 1:
                    since[base + b] = now
                new >>= 1
                b += 1
            p = diff
            b = 0
            m = p
            while m:
                if m & 1 and ticks_diff(now, since[base + b]) >= deb:
                    bit = 1 << b
                    s = stable[r] ^ bit
                    stable[r] = s
                    p &= ~bit
                    self._emit(r, b, s & bit)
                m >>= 1
                b += 1
            pending[r] = p
            if p:
                busy = True
        self.busy = busy

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
        """Write the debounced cell states as a bitmap (bit i of byte i//8 = cell i, LSB
        first) into out[offset:]; returns the number of bytes written."""
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
