"""Remote play: one game between boards in several homes, through an MQTT broker
(`docs/remote.md`).  Each home runs its own engine; the broker carries the game's actions
and the commit-reveal dice, and every received action is checked by the receiving home."""

from .address import AddressError, RoomAddress, parse_address, read_password
from .game import RemoteGame, RemoteRefusal
from .keys import MemoryKeys, RoomKeys
from .link import HeadlessHost, RemoteLink
from .room import Room, RoomError

__all__ = ["AddressError", "HeadlessHost", "MemoryKeys", "RemoteGame", "RemoteLink",
           "RemoteRefusal", "Room", "RoomAddress", "RoomError", "RoomKeys", "parse_address",
           "read_password"]
