"""A TCP relay on 127.0.0.1 between one home and the broker, whose line can be cut (every
connection closed, new ones refused) and restored: a home's network going away for a while."""

import selectors
import socket
import threading

from broker import free_port

CHUNK = 65536
SELECT_S = 0.05


class Proxy:
    def __init__(self, target_port):
        self.target = target_port
        self.port = free_port()
        self.up = True
        self.pairs = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", self.port))
        self.listener.settimeout(SELECT_S)
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while not self.stopping.is_set():
            try:
                client, _ = self.listener.accept()
            except (socket.timeout, OSError):
                continue
            if not self.up:
                client.close()                     # the line is down: refused
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=2)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.pairs.append((client, upstream))
            threading.Thread(target=self._relay, args=(client, upstream), daemon=True).start()

    def _relay(self, a, b):
        sel = selectors.DefaultSelector()
        sel.register(a, selectors.EVENT_READ, b)
        sel.register(b, selectors.EVENT_READ, a)
        try:
            while not self.stopping.is_set():
                for key, _ in sel.select(SELECT_S):
                    data = key.fileobj.recv(CHUNK)
                    if not data:
                        return
                    key.data.sendall(data)
        except OSError:
            return
        finally:
            sel.close()
            for s in (a, b):
                _close(s)

    def cut(self):
        self.up = False
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for a, b in pairs:
            _close(a)
            _close(b)

    def restore(self):
        self.up = True

    def close(self):
        self.stopping.set()
        self.cut()
        self.listener.close()
        self.thread.join(2)


def _close(s):
    try:
        s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    s.close()
