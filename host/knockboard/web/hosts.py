"""The names a page may reach the server by (the request's Host header): an IP address,
localhost, or this computer's own name. A web site a person visits could otherwise point a
name of its own at 127.0.0.1 (DNS rebinding) and read the game through the person's
browser; such a request names the site, and is refused."""

from __future__ import annotations

import ipaddress
import socket


def own_names() -> frozenset:
    names = {"localhost"}
    for name in (socket.gethostname(), socket.getfqdn()):
        name = name.lower().rstrip(".")
        if name:
            names |= {name, f"{name}.local", name.split(".")[0], f"{name.split('.')[0]}.local"}
    return frozenset(names)


def host_allowed(header, names) -> bool:
    """Whether a Host header (None: none sent, as an HTTP/1.0 client may) names this
    server."""
    if header is None:
        return True
    host = header.strip().lower()
    if host.startswith("["):                      # [IPv6]:port
        host = host[1:host.find("]")] if "]" in host else host
    elif host.count(":") == 1:
        host = host.partition(":")[0]
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return host.rstrip(".") in names
