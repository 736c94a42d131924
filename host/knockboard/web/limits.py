"""The bounds every request of the web server is held to: how many connections at once (in
all, and from one address) and how many requests a second from one address."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

MAX_CONNECTIONS = 64         # open at once, every page's event stream included
MAX_PER_CLIENT = 16          # open at once from one address
RATE = 10.0                  # requests a second from one address, on average ...
BURST = 30.0                 # ... with this many at once (a page's first load, a reconnect)
CLIENTS_KEPT = 1024          # addresses whose rate is remembered (the oldest forgotten)


class ConnectionSlots:
    """Counts open connections; `take` refuses one past the bounds."""

    def __init__(self, total: int = MAX_CONNECTIONS, per_client: int = MAX_PER_CLIENT) -> None:
        self.total, self.per_client = total, per_client
        self._lock = threading.Lock()
        self._open: dict = {}

    def take(self, client: str) -> bool:
        with self._lock:
            if sum(self._open.values()) >= self.total or \
                    self._open.get(client, 0) >= self.per_client:
                return False
            self._open[client] = self._open.get(client, 0) + 1
            return True

    def give_back(self, client: str) -> None:
        with self._lock:
            left = self._open.get(client, 0) - 1
            if left > 0:
                self._open[client] = left
            else:
                self._open.pop(client, None)

    def open_count(self) -> int:
        with self._lock:
            return sum(self._open.values())


class RateLimit:
    """A token bucket per client address."""

    def __init__(self, rate: float = RATE, burst: float = BURST,
                 clock=time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._lock = threading.Lock()
        self._buckets: OrderedDict = OrderedDict()     # client -> (tokens, when)

    def allow(self, client: str) -> bool:
        now = self.clock()
        with self._lock:
            tokens, when = self._buckets.pop(client, (self.burst, now))
            tokens = min(self.burst, tokens + (now - when) * self.rate)
            allowed = tokens >= 1
            self._buckets[client] = (tokens - 1 if allowed else tokens, now)
            while len(self._buckets) > CLIENTS_KEPT:
                self._buckets.popitem(last=False)
            return allowed
