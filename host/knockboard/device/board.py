"""The Board client: what the session layer uses to drive a Knockboard.

    with Board.open() as board:          # auto-detects the Pico, or Board.open("/dev/ttyACM0")
        board.set_scene(scene)
        board.show(Display(lines=("Red to move",)))
        for event in board.events(timeout=0.1): ...

The board keeps presentation state only; the Board object keeps the last scene and display
and re-sends both after every reconnect, so an unplug loses nothing but time.
"""

from __future__ import annotations

import time
from typing import Callable, Iterator, Optional

from . import protocol as P
from .link import Link, LinkDown, LinkError
from .ports import PortNotFound, find_board
from .transport import SerialTransport, Transport, TransportError

BACKOFF = (0.25, 0.5, 1.0, 2.0, 4.0)  # seconds between reconnect attempts, then the last


class BoardError(Exception):
    """A clear, one-line reason why the board cannot be used."""


class BoardNotFound(BoardError):
    """No port was given and no Knockboard is connected."""


class Board:
    def __init__(self, opener: Callable[[], Transport], *,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep,
                 handshake_timeout: float = 3.0, session: Optional[int] = None):
        self._opener = opener
        self._clock = clock
        self._sleep = sleep
        self.handshake_timeout = handshake_timeout
        self.link = Link(clock=clock, session=session)
        self.scene: Optional[P.Scene] = None
        self.display: Optional[P.Display] = None
        self.pieces: Optional[bytes] = None    # what show_pieces was last given
        self.pressed: set[int] = set()
        self.controls: set[int] = set()
        self.connected = False
        self.reconnects = 0
        self._attempt = 0
        self._next_try = 0.0
        self._tag = 0
        self._inbox: list = []  # received but not yet handed out by poll()
        self._connect()

    @classmethod
    def open(cls, port: Optional[str] = None, **kw) -> "Board":
        """Connect to `port`, or find the one Pico on USB. BoardError if that fails."""
        if port is not None:
            return cls(lambda: SerialTransport(port), **kw)
        try:
            found = find_board()
        except PortNotFound as err:
            raise BoardNotFound(str(err)) from None
        serial_number = found.serial_number

        def opener() -> Transport:
            # After an unplug the port may come back under another name: look it up again.
            try:
                return SerialTransport(find_board(serial_number).device)
            except PortNotFound as err:
                raise TransportError(str(err)) from None
        return cls(opener, **kw)

    # ---- connection management ----

    @property
    def info(self) -> P.Info:
        assert self.link.info is not None
        return self.link.info

    def _connect(self) -> None:
        try:
            transport = self._opener()
        except TransportError as err:
            raise BoardError(str(err)) from None
        self.link.attach(transport)
        try:
            self.link.handshake(self.handshake_timeout)
        except (LinkError, TransportError) as err:
            self.link.close()
            raise BoardError(str(err)) from None
        self.connected = True
        self._resend()

    def _resend(self) -> None:
        if self.scene is not None:
            self.link.send(P.H_SCENE, self.scene.payload(), coalesce=True)
        if self.pieces is not None and self.draws_pieces:
            self.link.send(P.H_PIECES, self.pieces, coalesce=True)
        if self.display is not None:
            # the final picture, without replaying a roll
            d = self.display
            self.link.send(P.H_DISPLAY, P.Display(d.lines, d.dice, d.kind, False,
                                                  d.tag).payload(), coalesce=True)

    def _lost(self) -> None:
        self.connected = False
        self.link.close()
        self._attempt = 0
        self._next_try = self._clock()

    def _try_reconnect(self) -> bool:
        now = self._clock()
        if now < self._next_try:
            return False
        self._next_try = now + BACKOFF[min(self._attempt, len(BACKOFF) - 1)]
        self._attempt += 1
        try:
            transport = self._opener()
        except TransportError:
            return False
        self.link.attach(transport)
        try:
            self.link.handshake(self.handshake_timeout)
        except (LinkError, TransportError):
            self.link.close()
            return False
        self.connected = True
        self.reconnects += 1
        # The board may have been power-cycled: nothing it showed can be trusted.
        self.link.queue.clear()
        self._resend()
        return True

    # ---- commands ----

    def _check_cells(self, scene: P.Scene) -> None:
        info = self.link.info
        if info is not None and len(scene.cells) != info.cells:
            raise BoardError(f"scene has {len(scene.cells)} cells, the board "
                             f"{info.board!r} has {info.cells}")

    def set_scene(self, scene: P.Scene) -> None:
        self._check_cells(scene)
        self.scene = scene
        if self.connected:
            self.link.send(P.H_SCENE, scene.payload(), coalesce=True)

    def show(self, display: P.Display) -> None:
        if display.roll:
            # a new tag makes a re-roll of equal values animate again
            self._tag = (self._tag + 1) & 0xFF
            display = P.Display(display.lines, display.dice, display.kind, True, self._tag)
        self.display = display
        if self.connected:
            self.link.send(P.H_DISPLAY, display.payload(), coalesce=True)

    @property
    def draws_pieces(self) -> bool:
        """The board draws the pieces it is told of (the simulator's window does)."""
        info = self.link.info
        return info is not None and bool(info.caps & P.CAP_PIECES)

    def show_pieces(self, payload: bytes) -> None:
        """Where the pieces stand (`gameview.wire.encode_view`), for a board that draws
        them; nothing is sent to one that does not (a real board has no use for it)."""
        self.pieces = payload
        if self.connected and self.draws_pieces:
            self.link.send(P.H_PIECES, payload, coalesce=True)

    def sound(self, name: str) -> None:
        if name not in P.SOUNDS:
            raise BoardError(f"unknown sound {name!r} (known: {', '.join(P.SOUNDS)})")
        if self.connected:  # a sound is not state: not replayed after a reconnect
            self.link.send(P.H_SOUND, bytes((P.SOUNDS[name],)))

    def resync(self) -> None:
        """Ask for the full key state (answered as a KeyState from poll())."""
        if self.connected:
            self.link.send(P.H_RESYNC, b"")

    def maintenance(self, timeout: float = 2.0) -> None:
        """Stop the firmware and free the REPL for mpremote (the board keeps no state)."""
        self.link.send(P.H_MAINT, b"MAINT")
        deadline = self._clock() + timeout
        while not self.link.idle():
            if self._clock() >= deadline:
                raise BoardError("the board did not acknowledge the maintenance command")
            try:
                self.link.poll(0.05)
            except LinkDown as err:
                raise BoardError(str(err)) from None

    # ---- input ----

    def poll(self, timeout: float = 0.0) -> list:
        """Key events (KeyEvent) and full states (KeyState) received within `timeout` s,
        in order; DeviceError items report rejected commands. Reconnects as needed."""
        if not self._inbox:
            self._pump(timeout)
        out, self._inbox = self._inbox, []
        return out

    def _pump(self, timeout: float) -> None:
        if not self.connected:
            if not self._try_reconnect():
                self._sleep(min(timeout, max(0.0, self._next_try - self._clock())))
                return
        try:
            msgs = self.link.poll(timeout)
        except LinkDown:
            self._lost()
            return
        for m in msgs:
            if isinstance(m, P.Events):
                for e in m.events:
                    keys = self.controls if e.control else self.pressed
                    (keys.add if e.pressed else keys.discard)(e.index)
                    self._inbox.append(e)
            elif isinstance(m, P.KeyState):
                self.pressed = set(m.cells)
                self.controls = set(m.controls)
                self._inbox.append(m)
            else:
                self._inbox.append(m)

    def events(self, timeout: float) -> Iterator:
        end = self._clock() + timeout
        while True:
            yield from self.poll(max(0.0, end - self._clock()))
            if self._clock() >= end:
                return

    def flush(self, timeout: float = 2.0) -> bool:
        """Wait until every queued command is acknowledged; False on timeout."""
        end = self._clock() + timeout
        while not (self.connected and self.link.idle()):
            if self._clock() >= end:
                return False
            self._pump(0.02)
        return True

    def close(self) -> None:
        self.link.close()
        self.connected = False

    def __enter__(self) -> "Board":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
