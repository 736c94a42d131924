"""The two clocks a virtual board runs on: simulated milliseconds that move only when told
(tests: seconds of protocol in milliseconds, every run the same), and the real one (the
window and the pseudo-terminal, where a host waits in real time)."""

from __future__ import annotations

import time

START_MS = 10_000  # a board that has been up for a while, not one at tick 0


class SimClock:
    """Simulated time in whole milliseconds. Calling it gives seconds, like time.monotonic,
    so a host `Board` can run on it."""

    realtime = False

    def __init__(self, start_ms: int = START_MS):
        self.ms = start_ms

    def __call__(self) -> float:
        return self.ms / 1000.0


class RealClock:
    """Wall-clock milliseconds since the clock was made (plus START_MS)."""

    realtime = True

    def __init__(self):
        self._origin = time.monotonic() - START_MS / 1000.0

    @property
    def ms(self) -> int:
        return int((time.monotonic() - self._origin) * 1000)

    def __call__(self) -> float:
        return time.monotonic() - self._origin
