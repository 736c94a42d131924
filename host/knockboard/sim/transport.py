"""The in-process transport to a VirtualBoard in simulated time: what a host `Board` opens
in tests instead of a serial port. Reading steps the firmware one millisecond at a time
until it has written something, so a host's `poll(0.05)` is 50 ms of board time."""

from __future__ import annotations

from ..device.transport import TransportError


class SimTransport:
    def __init__(self, vb, to_device=None, to_host=None):
        if not vb.powered:
            raise TransportError(f"virtual {vb.name} board: no such port (it is off)")
        self.vb = vb
        self.boot = vb.boots  # a port does not survive its board's unplugging
        self.to_device = to_device or (lambda data: data)
        self.to_host = to_host or (lambda data: data)
        self.closed = False
        self.host_bytes = 0  # written by the host, for tests and benchmarks

    def _check(self) -> None:
        if self.closed:
            raise TransportError("virtual board port: closed")
        if not self.vb.powered or self.vb.boots != self.boot:
            raise TransportError(f"virtual {self.vb.name} board: port gone (unplugged)")

    def write(self, data: bytes) -> None:
        self._check()
        self.host_bytes += len(data)
        self.vb.feed(self.to_device(bytes(data)))

    def read(self, timeout: float) -> bytes:
        self._check()
        vb = self.vb
        with vb.lock:
            end = vb.clock.ms + max(1, int(timeout * 1000))
            while True:
                vb.step()
                out = vb.take_output()
                vb.clock.ms += 1
                if out:
                    return self.to_host(out)
                if vb.clock.ms >= end:
                    return b""

    def close(self) -> None:
        self.closed = True
