"""A TCP relay on 127.0.0.1 between one home and the broker, whose line can go away for a
while and come back (a home's network):

- `cut()`: every connection closed, new ones refused; both ends see it at once.
- `blackout()`: silent, as when a home router drops off the internet.  The sockets stay
  open but nothing gets through: what either end sends is lost (a dead line does not hold
  packets for later), a close does not reach the other end, and a new connection goes
  nowhere.  Only MQTT's keep-alive can tell.
- `restore()`: the line is back.  Connections from before and during a blackout are reset
  (a segment of a connection the other end has given up is answered by a reset); new ones
  are relayed again."""

import selectors
import socket
import struct
import threading


CHUNK = 65536
SELECT_S = 0.05
UP, CUT, DARK = "up", "cut", "dark"


class _Pair:
    """One relayed connection; `upstream` is None for one opened during a blackout."""

    def __init__(self, client, upstream):
        self.client, self.upstream = client, upstream
        self.closed = threading.Event()

    def close(self, reset=False):
        self.closed.set()
        for s in (self.client, self.upstream):
            if s is not None:
                _close(s, reset)


class Proxy:
    def __init__(self, target_port):
        self.target = target_port
        # port 0: the system's free port, bound at once (no window for another program)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.state = UP
        self.pairs = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.listener.settimeout(SELECT_S)
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while not self.stopping.is_set():
            try:
                client, _ = self.listener.accept()
            except (socket.timeout, OSError):
                continue
            state = self.state
            if state == CUT:
                client.close()                     # the line is down: refused
                continue
            upstream = None                        # dark: the connection goes nowhere
            if state == UP:
                try:
                    upstream = socket.create_connection(("127.0.0.1", self.target), timeout=2)
                except OSError:
                    client.close()
                    continue
            pair = _Pair(client, upstream)
            with self.lock:
                if self.state != state:            # cut, blacked out or restored meanwhile
                    pair.close(reset=True)
                    continue
                self.pairs.append(pair)
            threading.Thread(target=self._relay, args=(pair,), daemon=True).start()

    def _relay(self, pair):
        sel = selectors.DefaultSelector()
        sel.register(pair.client, selectors.EVENT_READ, pair.upstream)
        if pair.upstream is not None:
            sel.register(pair.upstream, selectors.EVENT_READ, pair.client)
        try:
            while not (self.stopping.is_set() or pair.closed.is_set()):
                for key, _ in sel.select(SELECT_S):
                    data = key.fileobj.recv(CHUNK)
                    if pair.closed.is_set() or self.state == DARK or key.data is None:
                        if not data:               # its close is lost too
                            sel.unregister(key.fileobj)
                        continue                   # lost on the dead line
                    if not data:
                        return
                    key.data.sendall(data)
        except OSError:
            return
        finally:
            sel.close()
            pair.close()

    def cut(self):
        self._drop(CUT, reset=False)

    def blackout(self):
        with self.lock:
            self.state = DARK

    def restore(self):
        self._drop(UP, reset=self.state == DARK)

    def _drop(self, state, reset):
        """Go to `state`, closing every connection so far."""
        with self.lock:
            pairs, self.pairs = self.pairs, []
            for pair in pairs:          # before the state: none of them is relayed again
                pair.closed.set()
            self.state = state
        for pair in pairs:
            pair.close(reset)

    def close(self):
        self.stopping.set()
        self.cut()
        self.listener.close()
        self.thread.join(2)


def _close(s, reset=False):
    try:
        if reset:       # linger 0: close with a reset rather than a FIN
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        else:
            s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    s.close()
