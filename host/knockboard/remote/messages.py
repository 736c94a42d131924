"""The messages of a remote game, as JSON on the broker, and their strict reading.

Every message names its room, its seat (1-based, as players count them) and its kind;
game messages carry `ply`, the project's own sequence number: the index in the game's
record of the entry the message is about, so a message delivered twice is recognised and
applied once.  Every message is retained, each on a topic of its own, so whoever subscribes
to the room later (a spectator, a home back from a fault) gets the whole game from the
broker: `knockboard/ROOM/seat/N/PLY/KIND` (seat N's act, commit or reveal for entry PLY),
`.../seat/N/hello` (the seat's set-up and how far its record goes) and `.../seat/N/online`
(also the broker's last will: is the seat's host connected).  A broker ACL lets each seat's
user write only under its own seat."""

import json
import re
from dataclasses import dataclass, field

VERSION = 1
MAX_BYTES = 4096
MAX_PLY = 1_000_000
PREFIX = "knockboard"

ACT, COMMIT, REVEAL, HELLO, ONLINE = "act", "commit", "reveal", "hello", "online"
HEX64 = re.compile(r"[0-9a-f]{64}\Z")
DICE_MODES = ("electronic", "physical")

# per kind: its own fields and their checks (besides v, room, seat, kind, ply)
_FIELDS = {
    ACT: {"action": lambda v: isinstance(v, str) and 0 < len(v) <= 64 and v.isprintable()},
    COMMIT: {"hash": lambda v: isinstance(v, str) and bool(HEX64.match(v))},
    REVEAL: {"nonce": lambda v: isinstance(v, str) and bool(HEX64.match(v))},
    HELLO: {"game": lambda v: isinstance(v, str) and 0 < len(v) <= 32,
            "options": lambda v: isinstance(v, dict) and len(v) <= 16 and all(
                isinstance(k, str) and len(k) <= 32 and type(x) in (int, str, bool)
                and len(str(x)) <= 32 for k, x in v.items()),
            "players": lambda v: type(v) is int and 1 <= v <= 8,
            "dice": lambda v: v in DICE_MODES,
            "seats": lambda v: isinstance(v, list) and 0 < len(v) <= 8
            and all(type(s) is int and 1 <= s <= 8 for s in v)},
    ONLINE: {"online": lambda v: type(v) is bool,
             "seats": lambda v: isinstance(v, list) and 0 < len(v) <= 8
             and all(type(s) is int and 1 <= s <= 8 for s in v)},
}


class MessageError(ValueError):
    """A message that is not one of ours, or not well formed."""


@dataclass(frozen=True)
class Message:
    room: str
    seat: int                 # 1-based
    kind: str
    ply: int
    body: dict = field(default_factory=dict)    # the kind's own fields

    def encode(self):
        data = {"v": VERSION, "room": self.room, "seat": self.seat, "kind": self.kind,
                "ply": self.ply, **self.body}
        return json.dumps(data, separators=(",", ":"), sort_keys=True).encode()

    def topic(self):
        return topic(self.room, self.seat, self.kind, self.ply)

    def __getitem__(self, key):
        return self.body[key]


def topic(room, seat, kind, ply=0):
    base = f"{PREFIX}/{room}/seat/{seat}"
    if kind in (HELLO, ONLINE):
        return f"{base}/{kind}"
    return f"{base}/{ply}/{kind}"


def room_filter(room):
    return f"{PREFIX}/{room}/#"


def seat_of_topic(room, name):
    """(seat, the kinds that topic carries, its ply or None) for a seat's topic `name` in
    `room`; None for any other topic."""
    parts = name.split("/")
    if len(parts) not in (5, 6) or parts[:3] != [PREFIX, room, "seat"] \
            or not parts[3].isdigit() or len(parts[3]) > 1:
        return None
    seat = int(parts[3])
    if len(parts) == 5:
        return (seat, (parts[4],), None) if parts[4] in (HELLO, ONLINE) else None
    ply, kind = parts[4], parts[5]
    if kind not in (ACT, COMMIT, REVEAL) or not (ply.isascii() and ply.isdigit()) \
            or len(ply) > 7 or (len(ply) > 1 and ply[0] == "0"):
        return None
    return seat, (kind,), int(ply)


def decode(topic_name, payload, room):
    """The Message in `payload`, received on `topic_name`; MessageError saying what is wrong.
    The seat must be the topic's (the broker's ACL is what stops a seat writing another's
    topic; a message claiming another seat than its topic is forged)."""
    where = seat_of_topic(room, topic_name)
    if where is None:
        raise MessageError(f"topic {topic_name!r} is not a seat's topic in room {room!r}")
    if len(payload) > MAX_BYTES:
        raise MessageError(f"{len(payload)} bytes (at most {MAX_BYTES})")
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise MessageError("not UTF-8 JSON") from None
    if not isinstance(data, dict):
        raise MessageError("not a JSON object")
    if data.get("v") != VERSION:
        raise MessageError(f"version {data.get('v')!r} (this program reads {VERSION})")
    kind = data.get("kind")
    if kind not in _FIELDS:
        raise MessageError(f"unknown kind {kind!r}")
    expected = {"v", "room", "seat", "kind", "ply"} | set(_FIELDS[kind])
    if set(data) != expected:
        wrong = sorted(set(data) ^ expected)
        raise MessageError(f"{kind}: fields {', '.join(wrong)} missing or unknown")
    if data["room"] != room:
        raise MessageError(f"room {data['room']!r}, not {room!r}")
    seat, ply = data["seat"], data["ply"]
    if type(seat) is not int or seat != where[0]:
        raise MessageError(f"seat {seat!r} on seat {where[0]}'s topic (forged seat)")
    if kind not in where[1]:
        raise MessageError(f"a {kind} message on the wrong topic {topic_name!r}")
    if type(ply) is not int or not 0 <= ply <= MAX_PLY:
        raise MessageError(f"bad sequence number {ply!r}")
    if where[2] is not None and ply != where[2]:
        raise MessageError(f"sequence number {ply} on the topic of ply {where[2]}")
    for name, check in _FIELDS[kind].items():
        if not check(data[name]):
            raise MessageError(f"{kind}: bad {name} {str(data[name])[:40]!r}")
    return Message(room, seat, kind, ply, {k: data[k] for k in _FIELDS[kind]})
