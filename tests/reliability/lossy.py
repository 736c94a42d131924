"""A faulty cable: a transport wrapper that drops, corrupts, duplicates and delays single
bytes, both ways, at a set rate, reproducibly.

tests/device/harness.Faults hits whole chunks (one write, one read) for the link tests;
this one works byte by byte and in time, as a noisy serial line would: each byte is hit
with probability `rate` by one fault, chosen evenly among

    drop       the byte is lost
    corrupt    one of its bits is flipped
    duplicate  it arrives twice
    delay      the line stalls for 20..250 ms: this byte and every one after it wait
               (order is kept, as on a real line)

It wraps any transport (the simulator's in-process one, a pyserial port) and runs on the
clock it is given (the virtual board's simulated clock in tests). It also reads the
device's clean byte stream before the faults, to count the board's own retransmissions
(a sequenced frame sent again with the same number)."""

from __future__ import annotations

import random
from collections import Counter, deque

from knockboard.device import protocol as P

KINDS = ("drop", "corrupt", "duplicate", "delay")
STALL_MS = (20, 250)


class _Direction:
    """One way of the line: bytes wait in `queue` as (due time, byte) until due."""

    def __init__(self, name, rate, rng, counts):
        self.name = name
        self.rate = rate
        self.rng = rng
        self.counts = counts
        self.queue: deque = deque()
        self.stall_until = 0.0

    def push(self, data: bytes, now: float) -> None:
        rng, rate, q = self.rng, self.rate, self.queue
        self.counts[f"{self.name} bytes"] += len(data)
        for b in data:
            copies = 1
            if rate and rng.random() < rate:
                kind = KINDS[rng.randrange(4)]
                self.counts[f"{self.name} {kind}"] += 1
                if kind == "drop":
                    continue
                if kind == "corrupt":
                    b ^= 1 << rng.randrange(8)
                elif kind == "duplicate":
                    copies = 2
                else:
                    stall = rng.randint(*STALL_MS) / 1000
                    self.stall_until = max(self.stall_until, now + stall)
            due = max(now, self.stall_until)
            for _ in range(copies):
                q.append((due, b))

    def take(self, now: float) -> bytes:
        q = self.queue
        out = bytearray()
        while q and q[0][0] <= now:
            out.append(q.popleft()[1])
        return bytes(out)

    def next_due(self):
        return self.queue[0][0] if self.queue else None


class LossyLine:
    """Wraps `inner` (write/read/close); `rate` per byte, each way; `clock()` in seconds.
    `counts` (a Counter, shared across reconnects if given) tallies bytes and faults;
    `device_frames` and `device_resent` count the board's sequenced frames and their
    retransmissions, seen on the clean side."""

    def __init__(self, inner, rate, seed, clock, counts=None):
        self.inner = inner
        self.clock = clock
        rng = random.Random(seed)
        self.counts = counts if counts is not None else Counter()
        self.to_device = _Direction("to board", rate, rng, self.counts)
        self.to_host = _Direction("to host", rate, rng, self.counts)
        self._watch = P.Decoder()
        self._last_seq = None

    # -- the transport interface ------------------------------------------------------------
    def write(self, data: bytes) -> None:
        self.to_device.push(bytes(data), self.clock())
        self._deliver()

    def read(self, timeout: float) -> bytes:
        end = self.clock() + max(0.0, timeout)
        while True:
            self._deliver()
            now = self.clock()
            got = self.to_host.take(now)
            if got:
                return got
            wait = end - now
            for due in (self.to_host.next_due(), self.to_device.next_due()):
                if due is not None:
                    wait = min(wait, due - now)
            data = self.inner.read(max(0.0, wait))
            if data:
                self._observe(data)
                self.to_host.push(data, self.clock())
            elif self.clock() >= end:
                self._deliver()
                return self.to_host.take(self.clock())

    def close(self) -> None:
        self.inner.close()

    # -- inner ----------------------------------------------------------------------------
    def _deliver(self) -> None:
        data = self.to_device.take(self.clock())
        if data:
            self.inner.write(data)

    def _observe(self, data: bytes) -> None:
        for frame in self._watch.feed(data):
            if frame.type in (P.D_EVENTS, P.D_STATE):
                self.counts["device frames"] += 1
                if frame.seq == self._last_seq:
                    self.counts["device resent"] += 1
                self._last_seq = frame.seq
