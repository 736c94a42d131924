"""The game as a stream of snapshots: whoever follows the game publishes each one, every
open page's connection gets them in order. A page that cannot keep up loses the ones in
between, never the newest."""

from __future__ import annotations

import json
import queue
import threading
from typing import Optional

CLOSED = b""                 # put into every subscriber's queue when the feed closes
QUEUE_LENGTH = 256           # snapshots a slow page may lag behind before it skips


class Feed:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._latest: Optional[bytes] = None
        self._version = 0
        self._subscribers: set = set()
        self.closed = False

    def publish(self, snapshot: dict) -> int:
        """Send `snapshot` (JSON-able) to every subscriber; returns its version number."""
        with self._lock:
            self._version += 1
            data = json.dumps({**snapshot, "version": self._version},
                              separators=(",", ":")).encode()
            self._latest = data
            for q in self._subscribers:
                _offer(q, data)
            return self._version

    def latest(self) -> Optional[bytes]:
        """The newest snapshot as JSON, None before the first."""
        with self._lock:
            return self._latest

    def subscribe(self) -> queue.Queue:
        """A queue of the snapshots from now on, beginning with the newest so far."""
        q: queue.Queue = queue.Queue(QUEUE_LENGTH)
        with self._lock:
            if self.closed:
                q.put(CLOSED)
            elif self._latest is not None:
                q.put(self._latest)
            self._subscribers.add(q)
        return q

    def unsubscribe(self, q: queue.Queue) -> None:
        with self._lock:
            self._subscribers.discard(q)

    def close(self) -> None:
        """Every subscriber's stream ends (the server is stopping)."""
        with self._lock:
            self.closed = True
            for q in self._subscribers:
                _offer(q, CLOSED)


def _offer(q: queue.Queue, data: bytes) -> None:
    try:
        q.put_nowait(data)
    except queue.Full:
        # a page that lags this far behind gets the newest, not a backlog
        while True:
            try:
                q.get_nowait()
            except queue.Empty:
                break
        q.put_nowait(data)
