"""Starting the web server for a game in the game store: the store followed (`follow`), the
server listening (`server`), its address printed for a person to open."""

from __future__ import annotations

from contextlib import contextmanager

from .address import page_addresses
from .feed import Feed
from .follow import StoreWatcher
from .server import Served


class WebStartError(Exception):
    """The server could not listen where asked (the port taken, an address not this
    computer's)."""


@contextmanager
def serving_store(address, path, game_id=None, out=None, on_error=print):
    """Serve the game `game_id` of the store at `path` (else the newest, and each newer
    one) on `address` (host, port) while the block runs."""
    feed = Feed()
    try:
        served = Served(address, feed)
    except OSError as err:
        raise WebStartError(f"--web {address[0]}:{address[1]}: cannot listen there: "
                            f"{err.strerror or err}") from None
    watcher = StoreWatcher(feed, path, game_id, on_error).start()
    if out is not None:
        for url in page_addresses(served.host, served.port):
            print(f"knockboard: the game in a browser: {url}", file=out, flush=True)
    try:
        yield served
    finally:
        watcher.close()
        served.close()
