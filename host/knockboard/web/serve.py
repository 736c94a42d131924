"""Starting the web server: what it shows followed (`follow`: a game in the game store, or a
saved game's replay), the server listening (`server`), its address printed for a person to
open."""

from __future__ import annotations

from contextlib import contextmanager

from .address import page_addresses
from .feed import Feed
from .follow import replay_watcher, store_watcher
from .server import Served


class WebStartError(Exception):
    """The server could not listen where asked (the port taken, an address not this
    computer's)."""


def serving_store(address, path, game_id=None, out=None, on_error=print):
    """Serve the game `game_id` of the store at `path` (else the newest, and each newer
    one) on `address` (host, port) while the block runs."""
    return _serving(address, lambda feed: store_watcher(feed, path, game_id, on_error), out)


def serving_replay(address, record, step, out=None):
    """Serve the saved `record` (it must replay) at the step `step()` returns."""
    return _serving(address, lambda feed: replay_watcher(feed, record, step), out)


@contextmanager
def _serving(address, make_watcher, out):
    feed = Feed()
    try:
        served = Served(address, feed)
    except OSError as err:
        raise WebStartError(f"--web {address[0]}:{address[1]}: cannot listen there: "
                            f"{err.strerror or err}") from None
    watcher = make_watcher(feed).start()
    if out is not None:
        for url in page_addresses(served.host, served.port):
            print(f"knockboard: the game in a browser: {url}", file=out, flush=True)
    try:
        yield served
    finally:
        watcher.close()
        served.close()
