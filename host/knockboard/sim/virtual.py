"""VirtualBoard: the real firmware core on simulated hardware, with a scripting API to
press its buttons and read its LEDs, OLED and buzzer.

    vb = VirtualBoard("knockabout")          # simulated time; realtime=True for the window
    board = vb.connect()                     # a knockboard.device.Board talking to it
    vb.tap("F3")                             # a cell by engine space, index or "OK"/"BACK"/"MENU"
    events = board.poll(0.05)
    vb.led("F3"), vb.cell("F3").effect, vb.oled().lines, vb.take_sounds()

In simulated time the firmware steps one millisecond at a time, and time moves only when
something asks: `advance(ms)`, a tap, or the host reading its transport (`Board.poll`
waits in simulated time). A host must keep polling during long waits, as a real one does:
the firmware gives a silent host up after 3 s.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from typing import Any, Optional, Union

from ..device import protocol as P
from . import firmware
from .clock import RealClock, SimClock
from .hal import SimHal

EFFECT_NAMES = {v: k for k, v in P.EFFECTS.items()}
SOUND_NAMES = {v: k for k, v in P.SOUNDS.items()}
CONTROL_NAMES = P.CONTROLS  # ("OK", "BACK", "MENU"), control index order
OLED_W, OLED_H = 128, 64

Target = Union[int, str]


class SimError(ValueError):
    """A bad request to the virtual board (no such cell, control or board); nothing changed."""


@dataclass(frozen=True)
class CellLight:
    index: int
    space: str             # the engine's space name, "" for a board without a layout
    rgb: tuple             # the colour the host's scene asks for (before brightness)
    effect: str            # "solid", "blink", "pulse" or "chase"
    phase: int
    led: tuple             # what the LED emits right now (brightness, power limit, animation)


@dataclass(frozen=True)
class Oled:
    """What the OLED shows: the firmware's framebuffer (128x64, SSD1306 page layout) and the
    text and dice the firmware drew into it."""
    frame: bytes
    lines: tuple
    kind: int              # 4, 6, 8, or 0 for no dice
    dice: tuple            # the faces drawn now (random ones while `rolling`)
    rolling: bool

    def pixel(self, x: int, y: int) -> int:
        if not (0 <= x < OLED_W and 0 <= y < OLED_H):
            raise SimError(f"OLED pixel ({x}, {y}) is outside 128x64")
        return self.frame[(y >> 3) * OLED_W + x] >> (y & 7) & 1

    def art(self) -> str:
        """The screen as text, '#' lit, '.' dark: for test failure messages."""
        return "\n".join("".join("#" if self.pixel(x, y) else "." for x in range(OLED_W))
                         for y in range(OLED_H))


class VirtualBoard:
    def __init__(self, board: str = "knockabout", *, realtime: bool = False,
                 seed: Optional[int] = None, pieces: bool = False, **config):
        """`board`: a board id of firmware/boards.json (knockabout, dodgeball, ko, knockoff).
        `pieces`: the board takes the host's PIECES frames (the window draws them; see
        `_take_pieces`). `config`: board.json keys (led_budget_ma, debounce_ms, queue_size)."""
        try:
            self.config = firmware.make_config(board, **config)
        except ValueError as err:
            raise SimError(str(err)) from None
        self.board_id = board
        self.name = self.config.name
        self.cells = self.config.cells
        self.layout = _layout(board)
        self.clock: Any = RealClock() if realtime else SimClock()
        self.realtime = realtime
        self._rng = random.Random(seed)
        self.lock = threading.RLock()
        self.hal = SimHal(self.config, t0=self.clock.ms)
        self.device: Any = None   # the firmware's app.Device while powered
        self.running = False      # False: the firmware loop does not run (stopped, hung, off)
        self.boots = 0
        self._sounds: list = []
        self.faults: Any = None   # wiring faults (sim.faults.Faults), kept through power cycles
        # (is_control, index) of each button held down -> the time of the firmware's first
        # pass since it went down (None before that pass): see first_pass_ms
        self._first_pass: dict[tuple, Optional[int]] = {}
        self.draws_pieces = pieces
        # the last PIECES payload from the host and how many came (the window redraws when
        # the count moves); forgotten when the power goes, as the host re-sends it
        self.pieces: Optional[bytes] = None
        self.pieces_received = 0
        self.power_on()

    # ---- power ---------------------------------------------------------------------------

    @property
    def powered(self) -> bool:
        return self.device is not None

    def power_on(self) -> None:
        """Plug the USB cable in: the firmware boots from scratch (held keys stay held)."""
        with self.lock:
            if self.powered:
                return
            keys = list(self.hal.keys)
            self.hal = SimHal(self.config, t0=self.clock.ms)
            self.hal.keys[:] = keys
            self.hal.faults = self.faults
            self.device = _boot(self.hal, self.config, self._rng)
            self._log_sounds(self.device)
            if self.draws_pieces:
                self._take_pieces(self.device)
            self.running = True
            self.boots += 1

    def power_off(self) -> None:
        """Pull the USB cable: power and port go, LEDs and OLED go dark, the firmware's state
        is lost; open transports fail from now on."""
        with self.lock:
            self.device = None
            self.running = False
            self.pieces = None
            self.pieces_received += 1
            hal = self.hal
            hal.leds[:] = bytes(len(hal.leds))
            hal.screen[:] = bytes(len(hal.screen))
            hal.tone_hz = 0
            hal.rx = bytearray()
            hal.rx_pos = 0
            hal.tx = bytearray()

    @property
    def mode(self) -> str:
        """"off", "stopped" (the firmware left its loop: MAINT or a flash tool's Ctrl-C),
        "waiting" (for a host: the standalone dice roller) or "host"."""
        if self.device is None:
            return "off"
        if self.device.stop:
            return "stopped"
        return "host" if self.device.mode == firmware.load().app.HOST else "waiting"

    def inject(self, faults) -> None:
        """Build faults into the board (a `sim.faults.Faults`; None: as designed): the
        firmware reads its keys and shows its LEDs through them from now on."""
        with self.lock:
            self.faults = faults
            self.hal.faults = faults

    # ---- time ----------------------------------------------------------------------------

    def step(self) -> None:
        """One pass of the firmware's main loop at the clock's current time."""
        with self.lock:
            self.hal.now = self.clock.ms
            if self.running and not self.device.step(self.hal.now):
                self.running = False
            for key, ms in self._first_pass.items():
                if ms is None:
                    self._first_pass[key] = self.hal.now

    def _tick(self) -> None:
        self.step()
        self.clock.ms += 1

    def advance(self, ms: int) -> None:
        """Let `ms` milliseconds pass. Simulated time: the firmware runs one pass per
        millisecond; real time: sleeps while the driver thread runs it."""
        if ms < 0:
            raise SimError(f"cannot go back in time ({ms} ms)")
        if self.realtime:
            time.sleep(ms / 1000)
            return
        with self.lock:
            for _ in range(int(ms)):
                self._tick()

    def sleep(self, seconds: float) -> None:
        """A `sleep` for a host Board on this board's clock. Any positive wait lasts at
        least a millisecond: a wait computed in float seconds can be a hair above the
        clock's whole milliseconds, and rounding it to nothing would stop time for a host
        that sleeps until a deadline."""
        ms = round(seconds * 1000)
        self.advance(ms if ms > 0 else (1 if seconds > 0 else 0))

    # ---- input ---------------------------------------------------------------------------

    def key(self, target: Target) -> tuple:
        """(is_control, index) of a cell (index or engine space name) or a control ("OK",
        "BACK", "MENU"); SimError for anything else."""
        if isinstance(target, bool):
            raise SimError(f"not a cell or control: {target!r}")
        if isinstance(target, int):
            if not 0 <= target < self.cells:
                raise SimError(f"no cell {target} on {self.name} (cells 0..{self.cells - 1})")
            return False, target
        if isinstance(target, str):
            if target.upper() in CONTROL_NAMES:
                return True, CONTROL_NAMES.index(target.upper())
            if self.layout is not None:
                try:
                    return False, self.layout.cell(target).index
                except KeyError:
                    pass
            raise SimError(f"{self.name} has no space or control {target!r} (controls: "
                           f"{', '.join(CONTROL_NAMES)})")
        raise SimError(f"not a cell or control: {target!r}")

    def _set(self, target: Target, down: bool) -> None:
        control, index = self.key(target)
        with self.lock:
            if down:
                self._first_pass.setdefault((control, index), None)
            else:
                self._first_pass.pop((control, index), None)
            if control:
                self.hal.control(index, down)
            else:
                self.hal.press(index, down)

    def press(self, target: Target) -> None:
        """Push a cell's or control's button down (and keep it down)."""
        self._set(target, True)

    def release(self, target: Target) -> None:
        self._set(target, False)

    def first_pass_ms(self, target: Target) -> Optional[int]:
        """The board time (ms) of the firmware's first pass since `target` went down, None
        before that pass or while it is up: a hold counted from here is one the firmware's
        scans have seen, however seldom a busy machine lets them run."""
        key = self.key(target)
        with self.lock:
            return self._first_pass.get(key)

    def is_down(self, target: Target) -> bool:
        control, index = self.key(target)
        with self.lock:
            if control:
                return bool(self.hal.keys[self.config.rows] >> index & 1)
            r, c = divmod(index, self.config.cols)
            return bool(self.hal.keys[r] >> c & 1)

    def tap(self, target: Target, hold_ms: int = 40, after_ms: int = 40) -> None:
        """Press, hold `hold_ms`, release, wait `after_ms` (both longer than the firmware's
        debounce, so each edge is one event)."""
        self.key(target)
        self.press(target)
        self.advance(hold_ms)
        self.release(target)
        self.advance(after_ms)

    def long_press(self, target: Target, hold_ms: int = 1000) -> None:
        self.tap(target, hold_ms=hold_ms)

    # ---- LEDs ----------------------------------------------------------------------------

    def led(self, target: Target) -> tuple:
        """(r, g, b) the cell's LED emits now."""
        control, index = self.key(target)
        if control:
            raise SimError(f"{target!r} is a control button; it has no LED")
        with self.lock:
            g, r, b = self.hal.leds[3 * index:3 * index + 3]
        return r, g, b

    def leds(self) -> list:
        """(r, g, b) of every cell's LED, by cell index."""
        with self.lock:
            grb = bytes(self.hal.leds)
        return [(grb[i + 1], grb[i], grb[i + 2]) for i in range(0, len(grb), 3)]

    def lit(self) -> dict:
        """{cell index: (r, g, b)} of the LEDs that emit any light now."""
        return {i: c for i, c in enumerate(self.leds()) if any(c)}

    def cell(self, target: Target) -> CellLight:
        """The host's scene for one cell (colour, effect, phase) and its LED now."""
        control, index = self.key(target)
        if control:
            raise SimError(f"{target!r} is a control button; it has no LED")
        led = self.led(index)
        with self.lock:
            if self.device is None:
                r = g = b = fx = 0
            else:
                r, g, b, fx = self.device.scene.cells[4 * index:4 * index + 4]
        return CellLight(index, self.layout.space_of(index) if self.layout else "", (r, g, b),
                         EFFECT_NAMES[fx & 0x0F], fx >> 4, led)

    @property
    def brightness(self) -> int:
        """The scene's brightness after the firmware's power limiter (0..255)."""
        with self.lock:
            return self.device.scene.level if self.device else 0

    # ---- OLED ----------------------------------------------------------------------------

    def oled(self) -> Oled:
        with self.lock:
            frame = bytes(self.hal.screen)
            d = self.device.display if self.device else None
            if d is None:
                return Oled(frame, (), 0, (), False)
            n = d.n if d.kind else 0
            return Oled(frame, tuple(d.lines[:d.nlines]), d.kind if n else 0,
                        tuple(d.faces[:n]), bool(d.rolling))

    # ---- buzzer --------------------------------------------------------------------------

    @property
    def tone_hz(self) -> int:
        """The buzzer's frequency now (0 = silent)."""
        return self.hal.tone_hz

    def take_tones(self) -> list:
        """[(time ms, Hz)] buzzer changes since the last call (0 Hz: silence)."""
        with self.lock:
            out, self.hal.tones = self.hal.tones, []
        return out

    def take_sounds(self) -> list:
        """[(time ms, name)] sound patterns started since the last call: "click", "ok",
        "error", "roll", "win", "alert", "hello" (a new host), "stop"."""
        with self.lock:
            out, self._sounds = self._sounds, []
        return out

    def _log_sounds(self, device) -> None:
        # The player tells the HAL only frequencies; which pattern played is what tests and
        # the window's cue want, so the firmware's Player.start is observed, not changed.
        start = device.player.start

        def logged(pattern, now):
            self._sounds.append((now, SOUND_NAMES.get(pattern, str(pattern))))
            if len(self._sounds) > 256:
                del self._sounds[:128]
            start(pattern, now)
        device.player.start = logged

    def _take_pieces(self, device) -> None:
        """The simulator's own frame, PIECES, beside the firmware's: the firmware has no code
        for it, only a hook (`Device.caps`, `Device.extension`) that is unused on a real
        board, which answers PIECES with ERROR "unknown frame type" and changes nothing (and
        no host sends it one: no firmware build announces CAP_PIECES). This board's INFO
        announces it through the hook, and its frames are kept here for the window."""
        device.caps |= P.CAP_PIECES

        def keep(t, p):
            if t != P.H_PIECES:
                return P.E_TYPE
            with self.lock:
                self.pieces = bytes(p)
                self.pieces_received += 1
            return 0
        device.extension = keep

    def shown_pieces(self) -> Optional[bytes]:
        with self.lock:
            return self.pieces

    # ---- the serial port, as seen from the board -----------------------------------------

    def feed(self, data: bytes) -> None:
        """Bytes from the host into the board's USB serial (lost while it is off)."""
        with self.lock:
            if self.powered:
                self.hal.rx.extend(data)

    def take_output(self) -> bytes:
        """Bytes the firmware wrote to its USB serial since the last call."""
        with self.lock:
            return self.hal.take_tx()

    # ---- hosts ---------------------------------------------------------------------------

    def open_transport(self, to_device=None, to_host=None):
        """An in-process transport to this board in simulated time (the `opener` of a
        knockboard.device.Board). `to_device`/`to_host` may alter the bytes (fault
        injection). TransportError while the board is off, like a missing port."""
        from .transport import SimTransport
        return SimTransport(self, to_device, to_host)

    def connect(self, **kw):
        """A knockboard.device.Board connected to this board in simulated time (handshake
        done); keyword arguments go to Board (session=..., handshake_timeout=...)."""
        from ..device.board import Board
        if self.realtime:
            raise SimError("a real-time virtual board is reached through its pseudo-terminal "
                           "(knockboard.sim.PtyPort)")
        return Board(self.open_transport, clock=self.clock, sleep=self.sleep, **kw)

    def __repr__(self):
        return f"<VirtualBoard {self.board_id}: {self.cells} cells, {self.mode}>"


_boot_lock = threading.Lock()


def _boot(hal, cfg, rng):
    core = firmware.load()
    # The firmware draws its boot id and standalone dice from the module `random`; each
    # virtual board gets its own generator, so a seeded board replays exactly.
    with _boot_lock:
        saved = core.app.random
        core.app.random = rng
        try:
            return core.app.Device(hal, cfg)
        finally:
            core.app.random = saved


def _layout(board_id):
    from ..layouts import get_layout, layout_names
    return get_layout(board_id) if board_id in layout_names() else None
