"""Byte transports under the link layer: a pyserial port, and an in-memory pipe pair for
tests and the simulator. The link only needs write(), read(timeout) and close()."""

from __future__ import annotations

import threading
import time
from typing import Protocol


class TransportError(OSError):
    """The port is gone (unplugged, closed, never there). The message says which and why."""


class Transport(Protocol):
    def write(self, data: bytes) -> None: ...

    def read(self, timeout: float) -> bytes:
        """Bytes received, waiting up to `timeout` s for the first; b"" if none came."""
        ...

    def close(self) -> None: ...


class SerialTransport:
    def __init__(self, port: str, baudrate: int = 115200):
        import serial  # pyserial; imported here so the codec works without it

        self.port = port
        try:
            # USB CDC ignores the baud rate; write_timeout keeps a wedged board from
            # hanging the host forever.
            self._ser = serial.Serial(port, baudrate, timeout=0, write_timeout=2)
        except (serial.SerialException, OSError, ValueError) as err:
            # a name with a line break or a control character is shown quoted: one line
            shown = port if port.isprintable() else repr(port)
            raise TransportError(f"serial port {shown}: cannot open ({_reason(err)}); "
                                 "`knockboard ports` lists connected boards") from None
        self._serial = serial

    def write(self, data: bytes) -> None:
        try:
            self._ser.write(data)
        except (self._serial.SerialException, OSError) as err:
            raise TransportError(f"serial port {self.port}: write failed ({_reason(err)})") \
                from None

    def read(self, timeout: float) -> bytes:
        try:
            self._ser.timeout = max(0.0, timeout)
            data = self._ser.read(1)
            if data:
                waiting = self._ser.in_waiting
                if waiting:
                    data += self._ser.read(waiting)
            return data
        except (self._serial.SerialException, OSError, TypeError) as err:
            # pyserial reports an unplugged CDC device as "device reports readiness to
            # read but returned no data" (SerialException) or EIO
            raise TransportError(f"serial port {self.port}: read failed ({_reason(err)})") \
                from None

    def close(self) -> None:
        try:
            self._ser.close()
        except Exception:  # closing a vanished port must not mask the original fault
            pass


def _reason(err: Exception) -> str:
    text = str(err).strip() or type(err).__name__
    return text.splitlines()[0]


class _End:
    def __init__(self, lock: threading.Condition, inbox: bytearray, outbox: bytearray,
                 state: dict):
        self._cv = lock
        self._in = inbox
        self._out = outbox
        self._state = state

    def write(self, data: bytes) -> None:
        with self._cv:
            if self._state["closed"]:
                raise TransportError("pipe closed")
            self._out += data
            self._cv.notify_all()

    def read(self, timeout: float) -> bytes:
        deadline = time.monotonic() + max(0.0, timeout)
        with self._cv:
            while not self._in:
                if self._state["closed"]:
                    raise TransportError("pipe closed")
                left = deadline - time.monotonic()
                if left <= 0:
                    return b""
                self._cv.wait(left)
            data = bytes(self._in)
            self._in.clear()
            return data

    def close(self) -> None:
        with self._cv:
            self._state["closed"] = True
            self._cv.notify_all()


def pipe_pair() -> tuple[_End, _End]:
    """Two connected in-memory transports (thread-safe); closing either closes both."""
    cv = threading.Condition()
    a, b = bytearray(), bytearray()
    state = {"closed": False}
    return _End(cv, a, b, state), _End(cv, b, a, state)
