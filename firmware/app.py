# The device: protocol endpoint, key scanning, LEDs, OLED and buzzer, driven by one
# non-blocking step() per main-loop pass. Hardware comes in through `hal` (hal_rp2 on the
# Pico, a fake in tests, the simulator's on the desktop), so this file imports no `machine`.
from micropython import const
from array import array
import random

import protocol as P
from kbtime import ticks_add, ticks_diff
from keys import Keys, PRESSED, CONTROL, INDEX, N_CONTROLS
from scene import Scene
from power import PowerLimiter
from supply import SupplyWatch
from display import Display, check_payload
from sound import Player, N_PATTERNS, HELLO as SND_HELLO, ROLL as SND_ROLL
from dice import DiceRoller
from version import VERSION

WAITING = const(0)
HOST = const(1)

RTO_MS = const(200)  # retransmit a sequenced frame not acknowledged in time
HEARTBEAT_MS = const(1000)
HOST_TIMEOUT_MS = const(3000)  # "waiting for host" after this much silence
SCAN_MS = const(1)
AWAIT_MS = const(5)  # a pass only reads and scans this long after a press went out
FRAME_MS = const(20)  # LED refresh, 50 Hz
# Cells rendered between two key scans while a frame renders: ~45 us a cell on the RP2040
# at 125 MHz, so a slice plus a scan stays near 1 ms.
RENDER_SLICE = const(20)
MAX_EVENTS = const(32)  # per EVENTS frame
RX_BUDGET = const(256)  # bytes per step, so a burst does not stall the key scan
RX_CHUNK = const(32)  # bytes read in one go; the keys get a (due) scan between chunks
CAPS = const(0x3F)  # oled, buzzer, effects, roll animation, standalone dice, CELLS
E_SESSION = const(5)
# Device frames are small (INFO ~40, 32 EVENTS 103, a 256-cell STATE 40 bytes): a small
# transmit buffer saves ~5 KB of the Pico's heap against sizing it like the receiver's.
TX_MAX = const(160)

STOP_INTERRUPT = const(1)
STOP_MAINT = const(2)


class Device:
    # What INFO announces, and who takes a frame type the firmware does not know: on a real
    # board nobody (ERROR "unknown frame type"); the simulator sets its own on its device.
    # Class attributes: a real board spends no instance memory on them
    caps = CAPS
    extension = None

    def __init__(self, hal, cfg):
        self.hal = hal
        self.cfg = cfg
        self.keys = Keys(cfg.rows, cfg.cols, cfg.cells, cfg.debounce_ms, cfg.queue_size,
                         getattr(hal, "visit_rows", None))
        self.raw = array("H", bytes(2 * (cfg.rows + 1)))
        self.scene = Scene(cfg.cells, PowerLimiter(cfg.cells, cfg.budget_ma,
                                                   cfg.ma_per_channel, cfg.ma_idle),
                           getattr(hal, "quick_cells", None))
        now = hal.ticks_ms()
        # the LED budget follows the supply present (USB or the 5 V jack), read now and
        # every few ms, so no frame is drawn with a budget the supply cannot give
        self.supply = SupplyWatch(hal, cfg, self.scene.limiter, now)
        self.leds = bytearray(3 * cfg.cells)  # the frame being rendered
        self.shown = bytearray(3 * cfg.cells)  # the last frame handed to the LEDs
        self.led_due = False  # leds differs from shown: to show when the chain is free
        self.display = Display()
        self.player = Player()
        self.dice = DiceRoller(random.getrandbits)
        # the HAL's frame check where it has one (machine code on the Pico)
        crc = getattr(hal, "crc16", P.crc16)
        self.dec = getattr(hal, "Decoder", P.Decoder)(P.MAX_BODY, crc)
        self.rx = bytearray(RX_CHUNK)
        self.enc = getattr(hal, "Encoder", P.Encoder)(TX_MAX, crc)
        self.pend = bytearray(len(self.enc.out))  # the unacknowledged sequenced frame
        self.pend_len = 0
        self.pend_seq = 0
        self.pend_events = 0
        self.pend_t = 0
        self.tx_seq = 0
        self.rx_seq = 0
        self.rx_answer = 0  # 0 = ACK, else the ERROR code given to frame rx_seq
        self.session = -1
        self.last_display = bytearray(64)
        self.last_display_len = -1
        self.state_due = False
        self.told = False  # this pass's scan sent a press
        self.mode = WAITING
        self.stop = 0
        self.last_rx = now
        self.last_tx = now
        self.last_scan = now
        self.last_frame = now
        self.boot_id = random.getrandbits(16)
        self.display.seed(self.boot_id)
        self.errors = 0  # frames answered with ERROR
        self._enter_waiting(now)

    # ---- main loop -------------------------------------------------------------------------

    def run(self):
        hal = self.hal
        while self.step(hal.ticks_ms()):
            if not self.told:
                hal.idle()
        hal.release()
        return self.stop

    def step(self, now):
        # One pass: input, key scan, link timers, output. False when the firmware must stop
        # (Ctrl-C from a flash tool, or the MAINT command).
        hal = self.hal
        if not self._receive(now):
            return False
        self.told = False
        self._scan(now)
        if self.told or (self.pend_events and ticks_diff(now, self.pend_t) < AWAIT_MS):
            # a press has gone out: until its answer comes (or AWAIT_MS) a pass only reads
            # and scans, and the loop does not idle
            self.told = True
            return True
        if self.mode == HOST:
            self._link(now)
        else:
            self._standalone(now)
        if self.supply.poll(now):
            self.scene.relimit()
        if self.led_due:
            self._show()
        if ticks_diff(now, self.last_frame) >= FRAME_MS:
            self.last_frame = now
            if self.mode == HOST and self.scene.start(now):
                self._render()
        if self.display.due(now):
            # a redraw takes ~2 ms on the RP2040: the keys are read right before and after
            self._scan_now(hal.ticks_ms())
            self.display.tick(now)
            hal.show_display(self.display.buf)
            self._scan_now(hal.ticks_ms())
        f = self.player.tick(now)
        if f >= 0:
            hal.tone(f)
        # a scan due since the pass began (it may have taken a frame, a redraw) before the
        # OLED page: the keys are read every 1-2 ms, not every pass; a press it finds
        # leaves now, not after the OLED page and the idle
        self._scan(hal.ticks_ms())
        if self.mode == HOST and self.keys.queue.count:
            self._link(now)
        hal.feed()
        return True

    # The host's bytes, RX_CHUNK at a time, up to RX_BUDGET a pass, each frame handled as
    # it ends. False when the firmware must stop.
    def _receive(self, now):
        hal = self.hal
        dec = self.dec
        rx = self.rx
        ack = -1
        for _ in range(RX_BUDGET // RX_CHUNK):
            got = hal.read_into(rx)
            i = 0
            while i < got:
                r = dec.feed_from(rx, i, got)
                i = dec.pos
                if r == P.FRAME:
                    if dec.buf[0] == P.H_ACK and self.mode == HOST:
                        # A press's answer comes behind the ACK of its EVENTS: the ACK is
                        # taken once the frames read with it are handled.
                        if ack >= 0:
                            self._acked(ack)
                        ack = dec.buf[1]
                        self.last_rx = now
                        continue
                    self._on_frame(now)
                    if self.stop:
                        return False
                    if dec.ftype() >= P.H_SCENE:  # not after an ACK: a scene is ms
                        self._scan(hal.ticks_ms())
                elif r == P.INTERRUPT:
                    self.stop = STOP_INTERRUPT
                    return False
            if not got:
                break
            # ~65 us a byte on the RP2040: a 511-byte scene is ~35 ms of reading
            self._scan(hal.ticks_ms())
        if ack >= 0:
            self._acked(ack)
        return True

    def _render(self):
        # The frame begun by scene.start, in slices between key scans: a whole frame is
        # ~6 ms of MicroPython on the RP2040, the keys must be read every 2 ms.
        hal = self.hal
        scene = self.scene
        sliced = scene.todo > RENDER_SLICE
        done = False
        while not done:
            # the few cells a press's answer changes render in one slice, straight after
            # the frame that changed them; a longer frame has a scan before every slice
            if sliced:
                self._scan_now(hal.ticks_ms())
            done = scene.render_some(self.leds, RENDER_SLICE)
        if sliced:
            self._scan_now(hal.ticks_ms())
        self.led_due = self.leds != self.shown
        self._show()

    def _show(self):
        # The chain takes a frame once the last one has left and its latch gap (a low
        # line) has passed; until then the loop goes on scanning and tries every pass.
        if self.led_due and self.hal.leds_ready():
            self.led_due = False
            self.shown[:] = self.leds
            self.hal.show_leds(self.shown)

    def _scan(self, now):
        if ticks_diff(now, self.last_scan) >= SCAN_MS:
            self._scan_now(now)

    def _scan_now(self, now):
        self.last_scan = now
        self.hal.scan(self.raw)
        self.keys.scan(now, self.raw)
        if self.keys.confirm:
            # A key read closed once: a second walk of the rows (~0.1 ms on the RP2040, far
            # longer than an interference spike on a column lasts) confirms it now rather
            # than a scan period later, so the press is reported within one scan.
            self.hal.scan(self.raw)
            self.keys.scan(now, self.raw)
            if self.mode == HOST and self.keys.queue.count and not self.pend_len:
                # the press goes to the host now, not after the rest of the pass
                self._send_events(now)
                self.told = True

    # ---- modes -----------------------------------------------------------------------------

    def _enter_waiting(self, now):
        self.mode = WAITING
        # Presses made while nobody listens are the dice roller's; the host gets a full
        # STATE when it is back instead of stale events.
        self.keys.queue.clear()
        self.pend_len = 0
        for i in range(len(self.leds)):
            self.leds[i] = 0
            self.shown[i] = 0
        self.led_due = False
        self.hal.show_leds(self.shown)
        self.dice.show(self.display, "waiting for host", False, now)

    def _enter_host(self, now):
        self.mode = HOST
        self.scene.dirty = True
        self.state_due = True
        if self.last_display_len >= 0:
            # the roll animation is not replayed, only the final picture
            self.display.show_payload(self.last_display[:self.last_display_len], now)
            self.display.rolling = False
        else:
            self.display.show(0, b"", (), False, now)

    def _standalone(self, now):
        q = self.keys.queue
        while q.count:
            ev = q.peek()
            q.pop()
            if ev & CONTROL and ev & PRESSED:
                snd = self.dice.press(ev & INDEX)
                self.dice.show(self.display, "waiting for host", snd == SND_ROLL, now)
                self.player.start(snd, now)
        q.overflowed = False

    # ---- link ------------------------------------------------------------------------------

    def _send(self, mv, now):
        self.hal.write(mv)
        self.last_tx = now

    def _send_seq(self, ftype, plen, now):
        seq = self.tx_seq % 255 + 1
        self.tx_seq = seq
        mv = self.enc.frame(ftype, seq, plen)
        self.hal.write(mv)  # first: kept for retransmission after it has left
        self.last_tx = now
        # len(mv) twice, not a local: 11 words of locals and stack at most keep a call's
        # frame off the heap (docs/firmware.md, "Machine code on the hot paths")
        self.pend[:len(mv)] = mv
        self.pend_len = len(mv)
        self.pend_seq = seq
        self.pend_t = now

    def _send_plain(self, ftype, seq, plen, now):
        self._send(self.enc.frame(ftype, seq, plen), now)

    def _link(self, now):
        if ticks_diff(now, self.last_rx) >= HOST_TIMEOUT_MS:
            self._enter_waiting(now)
            return
        if self.pend_len:
            if ticks_diff(now, self.pend_t) >= RTO_MS:
                self.pend_t = now
                self._send(memoryview(self.pend)[:self.pend_len], now)
        else:
            q = self.keys.queue
            body = self.enc.body
            if q.count:
                self._send_events(now)
            elif self.state_due or q.overflowed:
                body[2] = 1 if q.overflowed else 0
                q.overflowed = False
                self.state_due = False
                cells = self.cfg.cells
                body[3] = cells >> 8
                body[4] = cells & 0xFF
                nb = self.keys.state_bitmap(body, 5)
                body[5 + nb] = self.keys.control_bits()
                self.pend_events = 0
                self._send_seq(P.D_STATE, 4 + nb, now)
        if ticks_diff(now, self.last_tx) >= HEARTBEAT_MS:
            self._send_plain(P.D_HEARTBEAT, 0, 0, now)

    def _send_events(self, now):
        q = self.keys.queue
        body = self.enc.body
        n = q.count if q.count < MAX_EVENTS else MAX_EVENTS
        body[2] = n
        j = 3
        ring = q.q
        head = q.head
        cap = q.cap
        for i in range(n):
            ev = ring[(head + i) % cap]  # q.peek(i) without a call per event
            body[j] = (1 if ev & PRESSED else 0) | (2 if ev & CONTROL else 0)
            idx = ev & INDEX
            body[j + 1] = idx >> 8
            body[j + 2] = idx & 0xFF
            j += 3
        self.pend_events = n
        self._send_seq(P.D_EVENTS, j - 2, now)

    def _error(self, seq, code, now):
        self.errors += 1
        self.enc.body[2] = code
        self._send_plain(P.D_ERROR, seq, 1, now)

    def _on_frame(self, now):
        dec = self.dec
        t = dec.buf[0]  # type and sequence number (a call costs ~40 us on the RP2040)
        seq = dec.buf[1]
        p = dec.payload()
        if t == P.H_CELLS and self.mode == HOST and seq and seq != self.rx_seq:
            # a press's answer, straight to its work (as below); its ACK was taken in
            # _receive
            self.last_rx = now
            code = self.scene.quick(p, self.leds)
            if code < 0:
                code = self._apply_scene(t, p, now)
            elif not code:
                self.led_due = True
                self._show()
            self.rx_seq = seq
            self.rx_answer = code
            self._answer(seq, code, now)
            return
        if t == P.H_HELLO:
            if len(p) != 3 or seq:
                self._error(seq, P.E_LENGTH if len(p) != 3 else P.E_VALUE, now)
                return
            self._info(p[1] << 8 | p[2], now)
            if p[0] != P.PROTO_VERSION:
                return  # INFO tells the host our version; it must not go on
            session = p[1] << 8 | p[2]
            if session != self.session:
                self.session = session
                self.rx_seq = 0
                self.keys.queue.clear()
                self.pend_len = 0
                # a new host owns a blank board until it sends its own scene and display
                self.scene.clear()
                self.last_display_len = -1
                self.player.start(SND_HELLO, now)
                self.mode = WAITING
            self.last_rx = now
            if self.mode != HOST:
                self._enter_host(now)
            return
        if self.session < 0:
            self._error(seq, E_SESSION, now)
            return
        self.last_rx = now
        if self.mode != HOST:
            self._enter_host(now)
        if t == P.H_HEARTBEAT:
            return
        if t == P.H_ACK:
            self._acked(seq)
            return
        if seq == 0:
            self._error(0, P.E_VALUE, now)
            return
        if seq == self.rx_seq:
            # A retransmission whose answer was lost: answer again, apply nothing.
            self._answer(seq, self.rx_answer, now)
            return
        code = self._apply(t, p, now)
        self.rx_seq = seq
        self.rx_answer = code
        self._answer(seq, code, now)

    def _acked(self, seq):
        if self.pend_len and seq == self.pend_seq:
            self.pend_len = 0
            self.keys.queue.pop(self.pend_events)
            self.pend_events = 0

    def _answer(self, seq, code, now):
        if code:
            self._error(seq, code, now)
        else:
            self._send_plain(P.D_ACK, seq, 0, now)

    def _apply(self, t, p, now):
        if t == P.H_SCENE or t == P.H_CELLS:
            return self._apply_scene(t, p, now)
        if t == P.H_DISPLAY:
            code = check_payload(p)
            if code:
                return code
            n = len(p)
            if n > len(self.last_display):
                return P.E_LENGTH
            if n != self.last_display_len or bytes(self.last_display[:n]) != bytes(p):
                self.last_display[:n] = p
                self.last_display_len = n
                self.display.show_payload(p, now)
            return 0
        if t == P.H_SOUND:
            if len(p) != 1:
                return P.E_LENGTH
            if p[0] >= N_PATTERNS:
                return P.E_VALUE
            self.player.start(p[0], now)
            return 0
        if t == P.H_RESYNC:
            if len(p):
                return P.E_LENGTH
            self.state_due = True
            return 0
        if t == P.H_MAINT:
            if bytes(p) != b"MAINT":
                return P.E_VALUE
            self.stop = STOP_MAINT
            return 0
        if self.extension is not None:
            return self.extension(t, p)
        return P.E_TYPE

    def _apply_scene(self, t, p, now):
        if t == P.H_SCENE:
            code = Scene.check(p, self.cfg.cells)
            if not code:
                self._scan(self.hal.ticks_ms())  # check ~1-2 ms, set ~4 ms on the RP2040
                self.scene.set(p)
        else:
            code = Scene.check_cells(p, self.cfg.cells)
            if not code:
                self.scene.update(p)
        if not code:
            # shown in this pass, not at the next 50 Hz frame; the few cells of a
            # press's answer (CELLS) at once, before the ACK and the rest of the pass
            self.last_frame = ticks_add(now, -FRAME_MS)
            if t == P.H_CELLS and self.scene.start(now):
                self.last_frame = now
                self._render()
        return code

    def _info(self, session, now):
        b = self.enc.body
        cfg = self.cfg
        b[2] = P.PROTO_VERSION
        b[3] = self.boot_id >> 8
        b[4] = self.boot_id & 0xFF
        b[5] = session >> 8
        b[6] = session & 0xFF
        b[7] = cfg.cells >> 8
        b[8] = cfg.cells & 0xFF
        b[9] = cfg.rows
        b[10] = cfg.cols
        b[11] = N_CONTROLS
        b[12] = self.caps >> 8
        b[13] = self.caps & 0xFF
        j = 14
        for s in (VERSION, cfg.board_id):
            e = s.encode()
            b[j] = len(e)
            b[j + 1:j + 1 + len(e)] = e
            j += 1 + len(e)
        self._send_plain(P.D_INFO, 0, j - 2, now)
