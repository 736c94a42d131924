"""Where a remote game meets: `mqtt[s]://[USER@]HOST[:PORT]/ROOM`, and the broker password
(from a file, the environment or a prompt; never the command line, where other users of the
computer could read it)."""

import getpass
import os
import re
from dataclasses import dataclass
from typing import Callable, Mapping, Optional, Union

PASSWORD_ENV = "KNOCKBOARD_MQTT_PASSWORD"
DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}
# a room is one topic level: no wildcards, no separators, nothing a shell or a broker's ACL
# file would read differently
ROOM = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")
USER = re.compile(r"[A-Za-z0-9_.-]{1,64}\Z")
HOST = re.compile(r"[A-Za-z0-9.-]{1,253}\Z|\[[0-9A-Fa-f:.]+\]\Z")


class AddressError(ValueError):
    """A bad room address or password source; the message says what is wrong."""


@dataclass(frozen=True)
class RoomAddress:
    tls: bool
    user: Optional[str]
    host: str
    port: int
    room: str

    def __str__(self) -> str:
        user = f"{self.user}@" if self.user else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{user}{self.host}:{self.port}/{self.room}"


def parse_address(text: str) -> RoomAddress:
    """`mqtt[s]://[USER@]HOST[:PORT]/ROOM` -> RoomAddress, or AddressError."""
    scheme, sep, rest = text.partition("://")
    if not sep or scheme not in DEFAULT_PORTS:
        raise AddressError(f"{text!r}: a room address is mqtt://[USER@]HOST[:PORT]/ROOM "
                           "(or mqtts:// for TLS)")
    where, slash, room = rest.partition("/")
    if not slash or not ROOM.match(room):
        raise AddressError(f"{text!r}: the room (after the host and a '/') is 1-64 letters, "
                           "digits, '-' or '_'")
    user, at, hostport = where.rpartition("@")
    if at and not USER.match(user):
        raise AddressError(f"{text!r}: the user name is 1-64 letters, digits, '.', '-' or "
                           "'_' (the password is never part of the address)")
    host, port = _host_port(text, hostport, scheme)
    return RoomAddress(scheme == "mqtts", user if at else None, host, port, room)


def _host_port(text: str, hostport: str, scheme: str) -> tuple[str, int]:
    colon: Union[bool, str]                           # a bool for [IPv6], else the ':' or ''
    if hostport.startswith("["):                      # [IPv6]:port
        close = hostport.find("]")
        host, rest = hostport[:close + 1], hostport[close + 1:]
        colon, port = rest[:1] == ":", rest[1:]
        if rest and not colon:
            host = hostport
    else:
        host, colon, port = hostport.partition(":")
    if not HOST.match(host or ""):
        raise AddressError(f"{text!r}: no host name")
    if not colon:
        return host, DEFAULT_PORTS[scheme]
    if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        raise AddressError(f"{text!r}: the port {port!r} is not a number from 1 to 65535")
    return host, int(port)


def read_password(address: RoomAddress,
                  password_file: Union[str, "os.PathLike[str]", None] = None,
                  environ: Optional[Mapping[str, str]] = None,
                  prompt: Callable[[str], str] = getpass.getpass) -> Optional[str]:
    """The broker password for `address`: the first line of `password_file`, else the
    environment variable KNOCKBOARD_MQTT_PASSWORD, else a prompt; None without a user."""
    environ = os.environ if environ is None else environ
    if password_file is not None:
        try:
            with open(password_file, encoding="utf-8") as f:
                line = f.readline().rstrip("\r\n")
        except (OSError, UnicodeDecodeError) as err:
            raise AddressError(f"--password-file {password_file}: "
                               f"{getattr(err, 'strerror', None) or err}") from None
        if not line:
            raise AddressError(f"--password-file {password_file}: the first line is empty")
        return line
    if address.user is None:
        return None
    if environ.get(PASSWORD_ENV):
        return environ[PASSWORD_ENV]
    return prompt(f"password for {address.user} on {address.host}: ")
