"""`--web [HOST:]PORT`: where the web server listens. Only the loopback address unless the
person names another (0.0.0.0: every interface, the local network)."""

from __future__ import annotations

import ipaddress
import socket

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8080
DEFAULT = f"{DEFAULT_HOST}:{DEFAULT_PORT}"


class WebAddressError(ValueError):
    """A `--web` value that names no address to listen on."""


def parse_web_address(text: str) -> tuple[str, int]:
    """"8080" -> ("127.0.0.1", 8080); "0.0.0.0:8080", "localhost:0" (any free port)."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host = DEFAULT_HOST
    if not (port.isascii() and port.isdigit() and len(port) <= 5 and int(port) <= 65535):
        raise WebAddressError(f"{text!r}: the port must be a number from 0 to 65535 "
                              "([HOST:]PORT, e.g. 8080 or 0.0.0.0:8080)")
    if host == "localhost":
        host = DEFAULT_HOST
    try:
        if ipaddress.ip_address(host).version != 4:
            raise ValueError
    except ValueError:
        raise WebAddressError(f"{text!r}: the host must be an IPv4 address such as "
                              "127.0.0.1 (this computer only) or 0.0.0.0 (the local "
                              "network)") from None
    return host, int(port)


def page_addresses(host: str, port: int) -> list[str]:
    """The addresses a browser opens: the one listened on, or for 0.0.0.0 this computer's
    address on the local network (the first a phone can reach) and the loopback one."""
    if host != "0.0.0.0":
        return [f"http://{host}:{port}/"]
    out = []
    lan = local_network_address()
    if lan is not None:
        out.append(f"http://{lan}:{port}/")
    return out + [f"http://{DEFAULT_HOST}:{port}/"]


def local_network_address():
    """This computer's address on the network its default route leaves by, or None. A UDP
    socket's connect sends nothing; it only picks the route (192.0.2.1 is a documentation
    address, never reached)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address
