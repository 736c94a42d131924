"""`knockboard watch URL --page FILE`: the static spectator page (static/spectator.html),
written where the user wants it, and the address to open it with: the room's broker
(its MQTT over WebSockets listener), the room and the spectator's user in the address's
fragment, which a browser never sends to any server.  The page asks for the password."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from urllib.parse import urlencode

from ..remote.address import RoomAddress

PAGE = "spectator.html"
# the WebSocket listener docs/remote.md sets up: wss:// beside mqtts:// (8883), ws:// beside
# mqtt:// (a broker on a trusted network only)
DEFAULT_WS_PORTS = {True: 8884, False: 8080}


class PageError(ValueError):
    """The page cannot be written there."""


def page_text() -> bytes:
    return (resources.files(__package__) / "static" / PAGE).read_bytes()


def ws_url(address: RoomAddress, port: int | None = None) -> str:
    """The broker's MQTT over WebSockets address for the room's `address`."""
    scheme = "wss" if address.tls else "ws"
    return f"{scheme}://{address.host}:{port or DEFAULT_WS_PORTS[address.tls]}/"


def write_page(path: str, address: RoomAddress, port: int | None = None) -> str:
    """The page written to `path` (PageError, nothing written, if it cannot be); the
    address to open it with."""
    target = Path(path).expanduser().resolve()
    if target.is_dir():
        raise PageError(f"{path}: a folder, not a file to write the page to")
    if not target.parent.is_dir():
        raise PageError(f"{path}: no folder {target.parent}")
    if port is not None and not 0 < port < 65536:
        raise PageError(f"--ws-port {port}: a port is 1-65535")
    fragment = {"ws": ws_url(address, port), "room": address.room}
    if address.user:
        fragment["user"] = address.user
    try:
        target.write_bytes(page_text())
    except OSError as err:
        raise PageError(f"{path}: cannot write it ({err.strerror})") from None
    return f"{target.as_uri()}#{urlencode(fragment)}"
