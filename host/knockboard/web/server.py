"""The web server: GET (and HEAD) of a fixed set of paths, nothing that changes the game.
The page and its files, the newest snapshot (/state) and the stream of snapshots
(/events, server-sent events). Every request is bounded: its head's size and time
(`request`), the connections open at once and the requests a second of one address
(`limits`)."""

from __future__ import annotations

import http.server
import io
import queue
import socket
import socketserver
import threading
import time
from urllib.parse import urlsplit

from .feed import CLOSED
from .hosts import host_allowed, own_names
from .limits import ConnectionSlots, RateLimit
from .pages import load_files
from .request import HeadTooLarge, HeadTooSlow, read_head

KEEPALIVE_S = 15.0           # a comment line on an idle event stream, so a dead page is found
WRITE_SECONDS = 10.0         # a page that takes no data this long is dropped
RETRY_MS = 1000              # the page's EventSource reconnects after this
DRAIN_BYTES = 65536          # read from a client after its answer, before closing ...
DRAIN_SECONDS = 0.2          # ... for at most this long
SECURITY_HEADERS = (
    # nothing from elsewhere, no inline script: the page is this server's files only
    ("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; "
                                "img-src 'self' data:; connect-src 'self'; "
                                "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
)


class GameHandler(http.server.BaseHTTPRequestHandler):
    server: "WebServer"
    protocol_version = "HTTP/1.1"
    server_version = "Knockboard"
    sys_version = ""

    def version_string(self):
        return self.server_version

    def handle(self):
        client = self.client_address[0]
        if not self.server.rate.allow(client):
            return self._answer_raw(429, "Too Many Requests", "Retry-After: 1\r\n")
        try:
            head = read_head(self.connection)
        except HeadTooLarge:
            return self._answer_raw(431, "Request Header Fields Too Large")
        except HeadTooSlow:
            return self._answer_raw(408, "Request Timeout")
        except OSError:
            return
        if not head:
            return
        self.connection.settimeout(WRITE_SECONDS)
        self.rfile = io.BytesIO(head)
        self.close_connection = True
        self.raw_requestline = self.rfile.readline(len(head) + 1)
        if not self.parse_request():             # it has answered the error itself
            return
        if self.command not in ("GET", "HEAD"):
            self.send_error(405, explain="this server only shows the game: GET and HEAD")
            return
        if not host_allowed(self.headers.get("Host"), self.server.names):
            self.send_error(421, explain="open the page by this computer's address or name")
            return
        try:
            self.answer(self.command == "HEAD")
        except OSError:                           # the page went away
            pass

    def _answer_raw(self, code, reason, extra=""):
        try:
            self.connection.settimeout(1.0)
            self.connection.sendall(f"HTTP/1.1 {code} {reason}\r\n{extra}Content-Length: 0"
                                    "\r\nConnection: close\r\n\r\n".encode())
        except OSError:
            pass

    def answer(self, head_only):
        path = urlsplit(self.path).path
        if path in self.server.files:
            body, kind = self.server.files[path]
            return self._send(200, kind, body, head_only)
        if path == "/state":
            latest = self.server.feed.latest()
            if latest is None:
                return self._send(503, "text/plain; charset=utf-8", b"no game yet\n",
                                  head_only)
            return self._send(200, "application/json", latest, head_only)
        if path == "/events":
            return self._stream(head_only)
        self._send(404, "text/plain; charset=utf-8", b"not found\n", head_only)

    def _send(self, code, kind, body, head_only):
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        for name, value in SECURITY_HEADERS:
            self.send_header(name, value)
        self.end_headers()
        if not head_only:
            self.wfile.write(body)

    def _stream(self, head_only):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        for name, value in SECURITY_HEADERS:
            self.send_header(name, value)
        self.end_headers()
        if head_only:
            return
        feed = self.server.feed
        q = feed.subscribe()
        try:
            self.wfile.write(f"retry: {RETRY_MS}\n\n".encode())
            while True:
                try:
                    data = q.get(timeout=KEEPALIVE_S)
                except queue.Empty:
                    self.wfile.write(b": still here\n\n")
                    continue
                if data == CLOSED:
                    return
                self.wfile.write(b"data: " + data + b"\n\n")
                self.wfile.flush()
        finally:
            feed.unsubscribe(q)

    def log_message(self, format, *args):
        pass                           # the terminal is the game's: no line a request


class WebServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True         # a restarted server gets its port back at once
    request_queue_size = 32

    def __init__(self, address, feed, slots=None, rate=None):
        self.feed = feed
        self.files = load_files()
        self.slots = slots or ConnectionSlots()
        self.rate = rate or RateLimit()
        self.names = own_names()
        super().__init__(address, GameHandler)

    def process_request(self, request, client_address):
        if not self.slots.take(client_address[0]):
            # past the bounds: closed at once, unanswered (answering would cost a thread)
            self.close_request(request)
            return
        try:
            super().process_request(request, client_address)
        except Exception:
            self.slots.give_back(client_address[0])
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.give_back(client_address[0])

    def shutdown_request(self, request):
        """Close an answered connection without resetting it: what the client sent and
        the server did not read (a body, the rest of a head too large) would make the
        close a reset, which can reach the client before the answer does."""
        deadline = time.monotonic() + DRAIN_SECONDS        # in all: a trickle ends too
        try:
            request.shutdown(socket.SHUT_WR)
            left = DRAIN_BYTES
            while left > 0 and time.monotonic() < deadline:
                request.settimeout(max(0.001, deadline - time.monotonic()))
                chunk = request.recv(min(left, 16384))
                if not chunk:
                    break
                left -= len(chunk)
        except OSError:
            pass
        self.close_request(request)

    def handle_error(self, request, client_address):
        pass                           # a page that went away mid-answer is not an error


class Served:
    """A running web server (its own thread) and what it serves from."""

    def __init__(self, address, feed, slots=None, rate=None):
        self.feed = feed
        self.server = WebServer(address, feed, slots, rate)
        self.host, self.port = self.server.server_address[:2]
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={"poll_interval": 0.2},
                                       name="knockboard-web", daemon=True)
        self.thread.start()

    def close(self):
        self.feed.close()
        self.server.shutdown()
        self.server.server_close()
