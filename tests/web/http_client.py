"""Raw HTTP over loopback for the web server's tests: requests as a browser, or a hostile
client, would send them, and the stream of server-sent events read line by line."""

import json
import socket

TIMEOUT = 15.0               # no answer within this is a failure, never a hang


def raw(port, data: bytes, timeout=TIMEOUT) -> bytes:
    """Send `data`, read the answer until the server closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            s.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass                # the server answered and closed before reading it all
        return read_all(s)


def read_all(s) -> bytes:
    out = b""
    while True:
        try:
            chunk = s.recv(65536)
        except ConnectionResetError:
            return out
        if not chunk:
            return out
        out += chunk


def status(answer: bytes) -> int:
    """The status code of an HTTP/1.x answer (0 for none)."""
    parts = answer.split(b"\r\n", 1)[0].split()
    return int(parts[1]) if len(parts) > 1 and parts[0].startswith(b"HTTP/") else 0


def body(answer: bytes) -> bytes:
    return answer.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in answer else b""


def get(port, path="/", extra=b"") -> bytes:
    return raw(port, b"GET " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra
               + b"\r\n")


def state(port) -> dict:
    answer = get(port, "/state")
    assert status(answer) == 200, answer[:200]
    return json.loads(body(answer))


class EventStream:
    """GET /events, its snapshots read one at a time."""

    def __init__(self, port, timeout=TIMEOUT):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        self.file = self.sock.makefile("rb")
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            line = self.file.readline()
            assert line, "the event stream closed before its headers ended"
            head += line
        self.head = head

    def next(self) -> dict:
        """The next snapshot (comments and the retry line are skipped)."""
        while True:
            line = self.file.readline()
            assert line, "the event stream closed"
            if line.startswith(b"data: "):
                return json.loads(line[6:])

    def close(self):
        self.file.close()
        self.sock.close()
