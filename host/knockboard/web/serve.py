"""Starting the web server: what it shows followed (`follow`: a game in the game store, or a
saved game's replay), the server listening (`server`), its address printed for a person to
open once the command is sure to go on (a board that is not there prints no address)."""

from __future__ import annotations

from contextlib import contextmanager

from .address import page_addresses
from .qr import qr_matrix, qr_text
from .feed import Feed
from .follow import replay_watcher, store_watcher
from .server import Served


class WebStartError(Exception):
    """The server could not listen where asked (the port taken, an address not this
    computer's)."""


class WebPage:
    """The server running for the block: its `port`; `announce(out)` prints where to open
    it, once."""

    def __init__(self, served):
        self.served = served
        self.host, self.port = served.host, served.port
        self.said = False

    def announce(self, out):
        if not self.said:
            self.said = True
            announce(self.host, self.port, out)


def serving_store(address, path, game_id=None, on_error=print, after=None):
    """Serve the game `game_id` of the store at `path` (else the newest, and each newer
    one; only those after the id `after`) on `address` (host, port) while the block runs;
    the block gets its `WebPage`."""
    return _serving(address, lambda feed: store_watcher(feed, path, game_id, on_error, after))


def serving_replay(address, record, step):
    """Serve the saved `record` (it must replay) at the step `step()` returns."""
    return _serving(address, lambda feed: replay_watcher(feed, record, step))


@contextmanager
def _serving(address, make_watcher):
    feed = Feed()
    try:
        served = Served(address, feed)
    except OSError as err:
        raise WebStartError(f"--web {address[0]}:{address[1]}: cannot listen there: "
                            f"{err.strerror or err}") from None
    watcher = make_watcher(feed).start()
    try:
        yield WebPage(served)
    finally:
        watcher.close()
        served.close()


def announce(host, port, out):
    """The addresses to open; on a terminal, the first one's QR code too when a phone can
    reach it (not a loopback address)."""
    urls = page_addresses(host, port)
    for url in urls:
        print(f"knockboard: the game in a browser: {url}", file=out, flush=True)
    isatty = getattr(out, "isatty", None)
    if isatty is not None and isatty() and not urls[0].startswith("http://127."):
        print("\n".join(qr_text(qr_matrix(urls[0]))), file=out, flush=True)
