"""Reading a request's head (request line and headers) from a socket, bounded in size and
in time: a client that sends too much, or too slowly (slowloris), is answered and dropped
instead of holding a thread."""

from __future__ import annotations

import socket
import time

MAX_HEAD = 8192              # bytes of request line and headers together
HEAD_SECONDS = 5.0           # for the whole head, however slowly it trickles in


class HeadTooLarge(Exception):
    pass


class HeadTooSlow(Exception):
    pass


def read_head(sock: socket.socket, limit: int = MAX_HEAD, seconds: float = HEAD_SECONDS,
              clock=time.monotonic) -> bytes:
    """The bytes up to and including the blank line that ends the head (anything sent after
    it is not read: the server takes no request body). b"" if the client closed first."""
    deadline = clock() + seconds
    data = b""
    while True:
        end = _head_end(data)
        if end is not None:
            if end > limit:
                raise HeadTooLarge
            return data[:end]
        if len(data) > limit:
            raise HeadTooLarge
        left = deadline - clock()
        if left <= 0:
            raise HeadTooSlow
        sock.settimeout(left)
        try:
            chunk = sock.recv(2048)
        except socket.timeout:
            raise HeadTooSlow from None
        if not chunk:
            return b""
        data += chunk


def _head_end(data: bytes):
    found = [(i, len(mark)) for mark in (b"\r\n\r\n", b"\n\n") if (i := data.find(mark)) >= 0]
    if not found:
        return None
    i, n = min(found)
    return i + n
