# Hardware layer for the Raspberry Pi Pico (RP2040). Everything that touches `machine` or
# `rp2` is here; app.Device only calls the methods below.
from micropython import const, kbd_intr
from machine import Pin, PWM, I2C, WDT, mem32, idle
from array import array
import micropython
import rp2
import select
import sys
import time
from uctypes import addressof

from ssd1306 import SSD1306
import protocol as P
from protocol import CRC_TABLE

# PIO instruction names for the type checker (the stubs' documented recipe); on the board
# the import fails and the assembler supplies the names.
try:
    from typing_extensions import TYPE_CHECKING  # type: ignore
except ImportError:
    TYPE_CHECKING = False
if TYPE_CHECKING:
    from rp2.asm_pio import *  # noqa: F401,F403
    from typing import Any
    ptr16 = Any  # viper's pointer types and casts (the stubs have none)
    ptr32 = Any
    ptr8 = Any

_SIO_BASE = const(0xD0000000)
_TIMERAWL = const(0x40054028)  # the 1 MHz timer's low word, read without latching
_SIO_SET = const(0xD0000014)
_SIO_CLR = const(0xD0000018)
_WDT_CTRL_CLR = const(0x40058000 + 0x3000)  # atomic-clear alias of WATCHDOG CTRL
_WDT_ENABLE = const(1 << 30)
_DREQ_PIO0_TX0 = const(0)
# a DMA channel's registers, by word (RP2040 datasheet 2.5.7), and CTRL's busy bit
_DMA_READ_ADDR = const(0)
_DMA_TRANS_COUNT = const(2)
_DMA_CTRL_TRIG = const(3)
_DMA_BUSY = const(1 << 24)
_PIO0_TXF0 = const(0x50200010)  # PIO0 base + TXF0: state machine 0's TX FIFO
WDT_MS = const(4000)
_LATCH_US = const(300)  # WS2812B: a low line this long ends a frame (the V5 part: 280 us)
_SETTLE_US = const(3)  # column lines settle through the pull-ups after a row goes low
# what the viper row walk reads from HalRp2.walk, by index
_W_DATA = const(0)
_W_CLOCK = const(1)
_W_LATCH = const(2)
_W_SHIFT = const(3)
_W_COLS = const(4)
_W_ROWS = const(5)
_W_CHAIN = const(6)
_W_OK = const(7)
_W_BACK = const(8)
_W_MENU = const(9)


@micropython.viper
def _scan_matrix(raw: ptr16, w: ptr32):
    # Viper (machine code): in plain MicroPython the row walk took 1.35 ms for 12 rows,
    # most of the 2 ms scan period, leaving no time for the LED frame.
    sio = ptr32(_SIO_BASE)  # word 1: GPIO_IN, 5: GPIO_OUT_SET, 6: GPIO_OUT_CLR
    timer = ptr32(_TIMERAWL)
    d = w[_W_DATA]
    clk = w[_W_CLOCK]
    lat = w[_W_LATCH]
    shift = w[_W_SHIFT]
    cols = w[_W_COLS]
    rows = w[_W_ROWS]
    # 74HC595 timing at 3.3 V (docs/firmware.md, "Row walk timing"): each pulse is held by
    # writing its level twice (a write to SIO takes ~9 cycles, 72 ns at 125 MHz), and the
    # data bit is written twice before the clock rises; tests/rp2040 measures the edges.
    sio[6] = d  # one low bit into the chain: row 0 at the next latch
    sio[6] = d
    sio[5] = clk
    sio[5] = clk
    sio[6] = clk
    sio[5] = d
    r = 0
    while r < rows:
        sio[5] = lat
        sio[5] = lat
        sio[6] = lat
        t0 = timer[0]
        while timer[0] - t0 < _SETTLE_US:
            pass
        raw[r] = (sio[1] >> shift) & cols ^ cols
        sio[5] = clk  # the low bit moves on to the next row
        sio[5] = clk
        sio[6] = clk
        r += 1
    chain = w[_W_CHAIN]
    while r < chain:
        sio[5] = clk
        sio[5] = clk
        sio[6] = clk
        r += 1
    sio[5] = lat  # the low bit has left the chain: every row high
    sio[5] = lat
    sio[6] = lat
    v = sio[1]
    raw[rows] = ((v >> w[_W_OK]) & 1 | ((v >> w[_W_BACK]) & 1) << 1
                 | ((v >> w[_W_MENU]) & 1) << 2) ^ 7


@micropython.viper
def _visit_rows(raw: ptr16, stable: ptr16, cand: ptr16, pending: ptr16, valid: ptr16,
                n: int, out: ptr8) -> int:
    # keys.visit_rows in machine code
    k = 0
    r = 0
    while r < n:
        if (raw[r] & valid[r]) ^ stable[r] or cand[r] or pending[r]:
            out[k] = r
            k += 1
        r += 1
    return k


@micropython.viper
def _leds_ready(free: int, busy: int) -> int:
    # HalRp2.leds_ready: not 0 < time.ticks_diff(free, time.ticks_us()) <= busy, with the
    # timer read here (ticks_us is its low 30 bits): two calls fewer, ~20 us on the
    # RP2040, twice on the way from a press's answer to its light. The difference taken
    # modulo 2**30 as ticks_diff does, its sign left out: a time gone by reads as far ahead,
    # past busy (< 2**29), and is ready too. A stale time (ticks_us wraps every ~18
    # minutes) can only look like a short wait.
    left = (free - ptr32(_TIMERAWL)[0]) & 0x3FFFFFFF
    if 0 < left and left <= busy:
        return 0
    return 1


@micropython.viper
def _crc16(data: ptr8, n: int, t: ptr16) -> int:
    crc = 0xFFFF
    i = 0
    while i < n:
        crc = ((crc << 8) & 0xFFFF) ^ t[((crc >> 8) ^ data[i]) & 0xFF]
        i += 1
    return crc


# MicroPython's stdin ring (v1.27 ports/rp2/mphalport.c `stdin_ringbuf`, py/ringbuf.h: the
# buffer's address, then 16-bit size, iget, iput), by halfword; the USB stack fills it.
_R_SIZE = const(2)
_R_GET = const(3)
_R_PUT = const(4)
_RING_LEN = const(512)  # MICROPY_HW_STDIN_BUFFER_LEN
_RING_TRUST = const(8)  # bytes the slow read must see the ring give before it is read


@micropython.viper
def _find_ring(lo: int, hi: int) -> int:
    # The one place in RAM that looks like stdin's ring (a pointer into SRAM, size 512, both
    # indices inside it), or 0 when none or several do; _read trusts it only once it has
    # seen it give the bytes stdin's own read returned.
    p = ptr32(lo)
    n = (hi - lo) >> 2
    found = 0
    k = 0
    i = 0
    while i < n - 2:
        if (p[i] >> 18) == 0x800 and (p[i + 1] & 0xFFFF) == _RING_LEN:
            if (p[i + 1] >> 16) & 0xFFFF < _RING_LEN and p[i + 2] & 0xFFFF < _RING_LEN:
                found = lo + 4 * i
                k += 1
        i += 1
    return found if k == 1 else 0


@micropython.viper
def _read(buf: ptr8, n: int, ipoll, readinto, b1, rs: ptr32) -> int:
    # The bytes waiting, up to n; it stops after a Ctrl-C, since after CR Ctrl-C the rest
    # (mpremote's CR Ctrl-A) must stay in the USB buffer for the REPL, and after a FLAG that
    # ends a frame. Stdin's own read blocks until it has all it was asked for and nothing
    # says how many bytes wait, so one `ipoll` and one `readinto` a byte (~25 us a byte on
    # the RP2040). Each byte is also checked against the ring _find_ring found (rs[0]): it
    # must have given that byte; after _RING_TRUST such bytes (rs[1]) the HAL reads the
    # ring itself (_read_ring), after one that differs never.
    one = ptr8(b1)
    ring = rs[0]
    h = ptr16(ring)
    data = ptr8(0)
    if ring:
        data = ptr8(ptr32(ring)[0])
    got = 0
    inner = 0  # a byte other than FLAG read: the next FLAG ends a frame, and the read
    while got < n:
        ready = 0
        for _ in ipoll(0):
            ready = 1
            break
        if not ready:
            break
        seen = -1
        at = 0
        if ring:
            at = h[_R_GET]
            if at != h[_R_PUT]:
                seen = data[at]
            at += 1
            if at >= h[_R_SIZE]:
                at = 0
        if not readinto(b1, 1):
            break
        b = one[0]
        if ring:
            if seen == b and h[_R_GET] == at:
                rs[1] += 1
            else:
                rs[0] = 0
                ring = 0
        buf[got] = b
        got += 1
        if b == 3:
            break
        if b == 0x7E:
            if inner:
                break
        else:
            inner = 1
    return got


@micropython.viper
def _read_ring(buf: ptr8, n: int, ring: int, ipoll) -> int:
    # _read's bytes taken from stdin's ring itself, the same stops: ~1 us a byte. Only the
    # main loop reads stdin, and MicroPython fills the ring from its scheduler, never while
    # machine code runs.
    h = ptr16(ring)
    if h[_R_GET] == h[_R_PUT]:
        for _ in ipoll(0):  # runs the USB stack, which fills the ring
            break
    data = ptr8(ptr32(ring)[0])
    size = h[_R_SIZE]
    i = h[_R_GET]
    end = h[_R_PUT]
    got = 0
    inner = 0
    while got < n and i != end:
        b = data[i]
        i += 1
        if i >= size:
            i = 0
        buf[got] = b
        got += 1
        if b == 3 or (b == 0x7E and inner):
            break
        if b != 0x7E:
            inner = 1
    h[_R_GET] = i
    return got


# protocol.Decoder.feed_from in machine code (FastDecoder): the state machine is the same,
# its state in an array: the state, the body's length, the byte before src[i], where to go
# on, the last frame's length, frames and errors counted, the buffer's capacity, the CRC
# table's address.
_D_ST = const(0)
_D_N = const(1)
_D_PREV = const(2)
_D_POS = const(3)
_D_FLEN = const(4)
_D_FRAMES = const(5)
_D_ERRORS = const(6)
_D_CAP = const(7)
_D_TABLE = const(8)


@micropython.viper
def _flag(buf: ptr8, n: int, st: int, s: ptr32, t: ptr16) -> int:
    # protocol.Decoder._flag: the FLAG that ends the frame of n bytes in state st; 1 (FRAME)
    # when it is a whole frame with a good CRC, errors counted
    if st == 0 or (n == 0 and st != 3):
        return 0
    crc = 0xFFFF
    if st == 1 and n >= 4:
        k = 0
        while k < n:
            crc = ((crc << 8) & 0xFFFF) ^ t[((crc >> 8) ^ buf[k]) & 0xFF]
            k += 1
    if crc:
        s[_D_ERRORS] += 1
        return 0
    s[_D_FRAMES] += 1
    s[_D_FLEN] = n
    return 1


@micropython.viper
def _decode(src: ptr8, i: int, end: int, buf: ptr8, s: ptr32) -> int:
    t = ptr16(s[_D_TABLE])
    start = i
    st = s[_D_ST]
    n = s[_D_N]
    cap = s[_D_CAP]
    r = 0
    while i < end:
        b = src[i]
        i += 1
        if st == 1 and b != 0x7E and b != 0x7D and b != 3:  # IN, a plain byte
            if n < cap:
                buf[n] = b
                n += 1
            else:
                st = 3
        elif b == 0x7E:  # FLAG: the end of the frame of n bytes, if any
            r = int(_flag(buf, n, st, s, t))
            st = 1
            n = 0
            if r:
                break
        elif b == 3:  # CTRL_C spoils the frame; after a CR it is an interrupt
            if st != 0:
                st = 3
            if (src[i - 2] if i - 2 >= start else s[_D_PREV]) == 0x0D:
                r = 2
                break
        elif st == 1:  # ESC
            st = 2
        elif st == 2:
            b ^= 0x20
            st = 3
            if (b == 0x7E or b == 0x7D or b == 3) and n < cap:
                buf[n] = b
                n += 1
                st = 1
    if i > start:
        s[_D_PREV] = src[i - 1]
    s[_D_ST] = st
    s[_D_N] = n
    s[_D_POS] = i
    return r


class FastDecoder(P.Decoder):
    """protocol.Decoder with feed_from in machine code: ~25 us a byte in MicroPython on the
    RP2040, most of reading the host's answer to a press. Its counts live in the state
    array the machine code updates (counts()), not in `frames` and `errors`: properties
    for them made every attribute store on the decoder look for a setter first, ~30 us
    each of the two feed_from makes."""

    def __init__(self, maxlen, crc):
        self.s = array("i", bytes(4 * 9))
        super().__init__(maxlen, crc)
        self.s[_D_CAP] = maxlen
        self.s[_D_TABLE] = addressof(CRC_TABLE)

    def feed_from(self, src, i, end):
        r = _decode(src, i, end, self.buf, self.s)
        self.pos = self.s[_D_POS]
        self.flen = self.s[_D_FLEN]
        return r

    def counts(self):
        """(errors, frames), what protocol.Decoder counts in its attributes."""
        return self.s[_D_ERRORS], self.s[_D_FRAMES]


@micropython.viper
def _quick_cells(p: ptr8, plen: int, cells: ptr8, out: ptr8, fac: ptr8, s: ptr32) -> int:
    # the Scene's quick path in machine code (tests/fw/fastpaths.quick_cells is the Python
    # it follows, and its comment says what it does); x * f // 255 as
    # (v + 1 + (v >> 8)) >> 8, exact for v = x * f <= 255 * 255 (the M0+ has no divide)
    n = s[0]
    total = s[2]
    j = 1
    while j < plen:
        i = p[j]
        if i >= n or (p[j + 4] & 0x0F) >= 4:
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
        v = p[j + 2] * f
        out[q] = (v + 1 + (v >> 8)) >> 8
        v = p[j + 1] * f
        out[q + 1] = (v + 1 + (v >> 8)) >> 8
        v = p[j + 3] * f
        out[q + 2] = (v + 1 + (v >> 8)) >> 8
        j += 5
    s[2] = total
    return 0


@micropython.viper
def _frame(body: ptr8, n: int, out: ptr8, t: ptr16) -> int:
    # protocol.Encoder.frame's work in machine code: the CRC of body[:n] appended, then the
    # body stuffed between FLAGs into out; the frame's length. In MicroPython it was ~0.3 ms
    # of a press's EVENTS on the RP2040.
    crc = 0xFFFF
    i = 0
    while i < n:
        crc = ((crc << 8) & 0xFFFF) ^ t[((crc >> 8) ^ body[i]) & 0xFF]
        i += 1
    body[n] = crc >> 8
    body[n + 1] = crc & 0xFF
    n += 2
    out[0] = 0x7E
    j = 1
    i = 0
    while i < n:
        b = body[i]
        if b == 0x7E or b == 0x7D or b == 3:
            out[j] = 0x7D
            out[j + 1] = b ^ 0x20
            j += 2
        else:
            out[j] = b
            j += 1
        i += 1
    out[j] = 0x7E
    return j + 1


class FastEncoder(P.Encoder):
    """protocol.Encoder with the frame built in machine code (_frame)."""

    def frame(self, ftype, seq, plen):
        # no local beyond the arguments: its frame stays within the 11 words MicroPython
        # keeps on the C stack rather than the heap (docs/firmware.md)
        self.body[0] = ftype
        self.body[1] = seq
        return self.omv[:_frame(self.body, plen + 2, self.out, CRC_TABLE)]


def crc16(data, n):
    # protocol.crc16 in machine code: in MicroPython the frame check cost ~30 us a byte,
    # most of what reading the host's frames took (docs/firmware.md, "Press to light");
    # this is ~0.5 us
    return _crc16(data, n, CRC_TABLE)


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True,
             pull_thresh=8)
def _ws2812():
    # 800 kHz WS2812 timing at 8 MHz: 10 cycles per bit (T1=2, T2=5, T3=3). pull_thresh=8
    # takes one byte per FIFO word from its top bits, so a GRB bytearray can be fed as is.
    # (The stubs type instructions as plain callables, hence the ignores on .side().)
    wrap_target()
    label("bitloop")
    out(x, 1).side(0)[2]  # type: ignore[attr-defined]
    jmp(not_x, "do_zero").side(1)[1]  # type: ignore[attr-defined]
    jmp("bitloop").side(1)[4]  # type: ignore[attr-defined]
    label("do_zero")
    nop().side(0)[4]  # type: ignore[attr-defined]
    wrap()


class HalRp2:
    def __init__(self, cfg):
        pins = cfg.pins
        self.rows = cfg.rows
        m = pins["matrix"]
        r = m["rows"]
        self.chain = r["max"]
        self.d = Pin(r["data"], Pin.OUT, value=1)
        self.clk = Pin(r["clock"], Pin.OUT, value=0)
        self.lat = Pin(r["latch"], Pin.OUT, value=0)
        self.clk_mask = 1 << r["clock"]
        self.lat_mask = 1 << r["latch"]
        self.d_mask = 1 << r["data"]
        c = m["cols"]
        self.col_shift = c["first"]
        self.col_mask = (1 << cfg.cols) - 1
        for i in range(c["first"], c["first"] + cfg.cols):
            Pin(i, Pin.IN, Pin.PULL_UP)
        ctl = pins["controls"]
        self.ctl_pins = (ctl["ok"], ctl["back"], ctl["menu"])
        for i in self.ctl_pins:
            Pin(i, Pin.IN, Pin.PULL_UP)
        self.walk = array("I", (self.d_mask, self.clk_mask, self.lat_mask, self.col_shift,
                                self.col_mask, cfg.rows, self.chain) + self.ctl_pins)
        self._rows_high()

        self.sm = rp2.StateMachine(0, _ws2812, freq=8_000_000, sideset_base=Pin(pins["leds"]["data"]))
        self.sm.active(1)
        # The DMA reads the frame from here while the firmware renders the next one.
        self.wire = bytearray(3 * cfg.cells)
        self.led_busy_us = 30 * cfg.cells + _LATCH_US  # a whole frame and its latch
        self.led_free = time.ticks_us()
        self.dma = None
        try:
            self.dma = rp2.DMA()
            self.dma_ctrl = self.dma.pack_ctrl(size=0, inc_write=False, treq_sel=_DREQ_PIO0_TX0)
            # the state machine's FIFO is where every frame goes: set once
            self.dma.config(read=self.wire, write=_PIO0_TXF0, count=0, ctrl=self.dma_ctrl)
            self.dma_regs = self.dma.registers  # type: ignore[attr-defined]  # not in the stubs
            self.wire_addr = addressof(self.wire)
        except (AttributeError, OSError):  # MicroPython < 1.21: blocking FIFO writes
            self.dma = None

        o = pins["oled"]
        self.oled = None
        self.page_dirty = 0
        self.fb = None
        try:
            self.oled = SSD1306(I2C(o["bus"], sda=Pin(o["sda"]), scl=Pin(o["scl"]),
                                    freq=o["freq"]), o["address"])
        except OSError:
            # No display answering: run without one rather than not at all.
            self.oled = None

        self.pwm = PWM(Pin(pins["buzzer"]["pin"]))
        self.pwm.duty_u16(0)

        # Which supply (supply.py): the jack's protected output through a divider (no pull:
        # the divider sets the level) and the Pico's own VBUS detect.
        sup = pins.get("supply", {})
        self.jack_in = Pin(sup["jack_sense"], Pin.IN) if "jack_sense" in sup else None
        self.vbus_in = Pin(sup.get("vbus_sense", 24), Pin.IN)

        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer
        self.ipoll = self.poll.ipoll
        self.readinto = self.stdin.readinto  # type: ignore[union-attr]  # MicroPython's
        self.b1 = bytearray(1)
        self.rs = array("i", (_find_ring(0x20000000, 0x20042000), 0))  # stdin's ring: _read
        # Binary frames must reach us untouched; CR + Ctrl-C is recognised by the decoder
        # instead (see docs/protocol.md, "Taking over the board").
        kbd_intr(-1)
        self.wdt = WDT(timeout=WDT_MS)

    def supply(self):
        """supply.py's bits: 1 USB VBUS present, 2 the 5 V jack feeding the LED rail."""
        jack = self.jack_in is not None and self.jack_in.value()
        return (1 if self.vbus_in.value() else 0) | (2 if jack else 0)

    # -- time and serial --
    def ticks_ms(self):
        return time.ticks_ms()

    def read_into(self, buf):
        """The bytes waiting, up to len(buf) (machine code: _read, then _read_ring)."""
        rs = self.rs
        if rs[1] >= _RING_TRUST:
            return _read_ring(buf, len(buf), rs[0], self.ipoll)
        return _read(buf, len(buf), self.ipoll, self.readinto, self.b1, rs)

    crc16 = staticmethod(crc16)
    Decoder = FastDecoder  # app.Device's, where the HAL has one
    Encoder = FastEncoder
    quick_cells = staticmethod(_quick_cells)  # the Scene's
    visit_rows = staticmethod(_visit_rows)  # the Keys'

    def write(self, mv):
        self.stdout.write(mv)

    # -- keys --
    def _rows_high(self):
        for _ in range(self.chain):
            self._clock_row_bit(1)
        self._latch()

    def _clock_row_bit(self, v):
        mem32[_SIO_SET if v else _SIO_CLR] = self.d_mask
        mem32[_SIO_SET] = self.clk_mask
        mem32[_SIO_CLR] = self.clk_mask

    def _latch(self):
        mem32[_SIO_SET] = self.lat_mask
        mem32[_SIO_CLR] = self.lat_mask

    def scan(self, raw):
        """Walks one low level through the 74HC595 rows, the columns read in one register
        read per row, then the control buttons: raw[0..rows-1] and raw[rows]. ~0.1 ms for
        12 rows (viper)."""
        _scan_matrix(raw, self.walk)

    # -- outputs --
    def leds_ready(self):
        """The chain can take a frame: the last one has left the pin (10 us a byte) and
        the line has been low for the latch time since (machine code: _leds_ready)."""
        return _leds_ready(self.led_free, self.led_busy_us)

    def show_leds(self, grb):
        while not self.leds_ready():
            pass
        if self.dma is not None:
            # done long before the frame's time is up; a state machine that stopped taking
            # bytes would hold the loop here until the watchdog resets the chip
            regs = self.dma_regs
            while regs[_DMA_CTRL_TRIG] & _DMA_BUSY:
                pass
            self.wire[:] = grb
            # the channel's registers written directly (dma.config, with its keywords, took
            # ~50 us of the ~0.4 ms from a press's answer to the first LED bit): where to
            # read, how many bytes, then the control word, whose write starts it
            regs[_DMA_READ_ADDR] = self.wire_addr
            regs[_DMA_TRANS_COUNT] = len(grb)
            regs[_DMA_CTRL_TRIG] = self.dma_ctrl
        else:
            self.sm.put(grb, 24)
        # stamped once the frame has started: stamped before the copy and the DMA set-up
        # (~0.1 ms of MicroPython), the next frame once began 275 us after this one's
        # end, which a WS2812B V5 (280 us reset) takes as the same frame
        self.led_free = time.ticks_add(time.ticks_us(), 10 * len(grb) + _LATCH_US)

    def show_display(self, buf):
        self.fb = buf
        self.page_dirty = 0xFF

    def tone(self, freq):
        if freq:
            self.pwm.freq(freq)
            self.pwm.duty_u16(32768)
        else:
            self.pwm.duty_u16(0)

    def feed(self):
        if self.page_dirty and self.oled is not None:
            p = 0
            while not (self.page_dirty >> p) & 1:
                p += 1
            self.page_dirty &= ~(1 << p)
            try:
                self.oled.write_page(self.fb, p)
            except OSError:
                pass  # a loose OLED cable must not stop the board
        self.wdt.feed()

    def idle(self):
        idle()

    def release(self):
        """Hand the board to the REPL: the watchdog would otherwise reset it under a flash
        tool (MicroPython cannot stop it; the register can)."""
        mem32[_WDT_CTRL_CLR] = _WDT_ENABLE
        kbd_intr(3)
        self.pwm.duty_u16(0)
        dark = bytearray(3 * 256)  # all LEDs dark (longest chain)
        if self.dma is not None:
            # Not sm.put: it waits for FIFO room through MicroPython's event hook, and the
            # USB work run there left the line low for up to 0.18 ms mid-frame (seen on the
            # emulated chip), which WS2812 parts with a short reset time take as a latch.
            while not self.leds_ready() or self.dma.active():
                pass  # and after the last frame's latch gap, or the two run together
            self.dma.config(read=dark, write=_PIO0_TXF0, count=len(dark), ctrl=self.dma_ctrl,
                            trigger=True)
            while self.dma.active():
                pass
        else:
            self.sm.put(dark, 24)
        if self.oled is not None:
            try:
                buf = bytearray(1024)
                for p in range(8):
                    self.oled.write_page(buf, p)
            except OSError:
                pass
