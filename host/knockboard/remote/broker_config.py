"""The Mosquitto configuration remote play needs, written once: `docs/remote.md` shows what
`documented()` makes, and the tests' broker (`tests/remote/broker.py`) runs what `acl` and
`LIMITS` make, so the documented configuration is the tested one.

Each seat's user may write exactly the topics its home sends, by their full names, no
wildcard (`messages.topic`, `pages.page_topic`, `view.view_topic`): its live messages, its
history's tail and PAGES pages, its hello, its presence and its drawings of the board and
the position; everyone in the room reads it all; a spectator writes nothing.  So one seat's
user can make the broker keep at most `seat_store_bound()` bytes (stock Mosquitto has no
quota per user: the ACL's fixed names are the quota).  The broker refuses a packet larger
than a page can be, so it never forwards the megabyte payloads a hostile seat might
send."""

from typing import Mapping, Optional, Sequence

from .messages import HELLO, LIVE, ONLINE, PREFIX
from .pages import PAGE_BYTES, PAGES, TAIL_INDEX, page_topic
from .view import BOARD, VIEW

# a page is at most PAGE_BYTES (a message much less: messages.MAX_BYTES); its topic (at most
# 128 bytes: messages.MAX_TOPIC), the MQTT header and the message expiry property take
# less than 1 KB more
MAX_PACKET_BYTES = PAGE_BYTES + 1024
# the topics a seat writes besides its pages: hello, presence, live, tail, and its drawings
# of the board and the position for the browser page (view.py)
FIXED_TOPICS = 6

# the broker's file limit (systemd's LimitNOFILE for the mosquitto service): every
# connection takes a file, Mosquitto 2.0 keeps a connection open that never logs in, and
# Debian's service runs with 1,024 files, so about 1,100 such connections by a stranger left
# no room for a spectator or a restarting home
SERVICE_NOFILE = 65536
# connections the listener takes (below the file limit, which the retained store, the
# log and the listeners share): past it the broker refuses new ones, never runs out of files
MAX_CONNECTIONS = 60000

# what the broker may hold at all (one seat's user can retain at most seat_store_bound()
# bytes; this is for the broker's queues and sessions besides): past it the broker refuses
# what it would have to allocate for, for every client, instead of the machine running out
# of memory
MEMORY_LIMIT_BYTES = 512 * 1024 * 1024
# messages queued for one client beyond those in flight (Mosquitto's defaults, written out:
# a spectator's catch-up is made to fit them, catchup.py), and how long the broker keeps the
# queue of a client that asked for a session to outlive it and never came back
MAX_QUEUED_MESSAGES = 1000
MAX_INFLIGHT_MESSAGES = 20
SESSION_EXPIRY = "1d"

# the settings both the documented broker and the tests' broker use
LIMITS = [f"max_packet_size {MAX_PACKET_BYTES}", "set_tcp_nodelay true",
          f"max_connections {MAX_CONNECTIONS}", f"memory_limit {MEMORY_LIMIT_BYTES}",
          f"max_queued_messages {MAX_QUEUED_MESSAGES}",
          f"max_inflight_messages {MAX_INFLIGHT_MESSAGES}",
          f"persistent_client_expiration {SESSION_EXPIRY}"]


def seat_topics(room: str, seat: int) -> list[str]:
    """The topics seat `seat` (1-based) writes in `room`: exact names, a fixed set."""
    base = f"{PREFIX}/{room}/seat/{seat}"
    return [f"{base}/{kind}" for kind in (HELLO, ONLINE, LIVE, VIEW, BOARD)] + \
        [page_topic(room, seat, page) for page in (TAIL_INDEX, *range(PAGES))]


def seat_store_bound() -> int:
    """The most bytes one seat's user can make the broker retain in a room (payload, topic
    and properties): one message on each topic it may write, each within the broker's
    packet limit."""
    return (PAGES + FIXED_TOPICS) * MAX_PACKET_BYTES


def acl(rooms: Mapping[str, Mapping[str, Sequence[int]]]) -> str:
    """The ACL file's text: `rooms` maps room -> {user: its home's 1-based seats, or [] for a
    spectator}."""
    lines: list[str] = []
    for room, users in rooms.items():
        for user, seats in users.items():
            lines += [f"user {user}", f"topic read {PREFIX}/{room}/#"]
            lines += [f"topic write {name}" for seat in seats for name in seat_topics(room, seat)]
            lines.append("")
    return "\n".join(lines)


EXAMPLE_ROOMS = {"smith-jones-1": {"ann": [1], "bob": [2], "grandma": []}}


def documented() -> tuple[str, str]:
    """(the configuration file, the ACL file) of the self-hosted broker in docs/remote.md."""
    conf = ["listener 8883", "allow_anonymous false",
            "password_file /etc/mosquitto/knockboard.passwd",
            "acl_file /etc/mosquitto/knockboard.acl",
            "cafile /etc/mosquitto/certs/ca.crt", "certfile /etc/mosquitto/certs/server.crt",
            "keyfile /etc/mosquitto/certs/server.key", *LIMITS, "persistence true"]
    return "\n".join(conf) + "\n", acl(EXAMPLE_ROOMS)


WEBSOCKET_PORT = 8884      # the documented listener for a spectator's browser (wss://)


CERT_DIR = "/etc/mosquitto/certs"     # where docs/remote.md keeps the broker's certificate


def websocket_listener(port: int = WEBSOCKET_PORT, address: Optional[str] = None,
                       tls: bool = True, certs: str = CERT_DIR) -> list[str]:
    """The lines of Mosquitto's MQTT over WebSockets listener, for the static spectator page
    (web/static/spectator.html): TLS with the broker's certificate (a browser sends the
    password over it; `certs`: the folder of server.crt and server.key); with an `address`,
    `socket_domain ipv4`, without which Mosquitto 2.0.11's WebSocket listener ignores the
    address and listens on every interface (IPv6's `::`: found while writing its test)."""
    lines = [f"listener {port}" + (f" {address}" if address else ""), "protocol websockets"]
    if address:
        lines.append("socket_domain ipv4")
    if tls:
        lines += [f"certfile {certs}/server.crt", f"keyfile {certs}/server.key"]
    return lines


def documented_websockets() -> str:
    """The lines docs/remote.md adds to the broker's configuration for a spectator's
    browser."""
    return "\n".join(websocket_listener()) + "\n"


def service_limits() -> str:
    """The systemd drop-in that raises the mosquitto service's file limit
    (`/etc/systemd/system/mosquitto.service.d/knockboard.conf`)."""
    return f"[Service]\nLimitNOFILE={SERVICE_NOFILE}\n"
