"""The messages of a remote game, as JSON on the broker, and their strict reading.

Every message names its room, its seat (1-based, as players count them) and its kind;
game messages carry `ply`, the project's own sequence number: the index in the game's
record of the entry the message is about, so a message delivered twice is recognised and
applied once.  A seat writes only a fixed set of exact topics, the same in every game, so
that the broker's ACL bounds what its user can store (pages.py): its messages about the
game go on `knockboard/ROOM/seat/N/live` as they are sent (acts, commits and reveals;
`resign`, `offer`, `accept` and `decline`: a home resigns, offers to end the game by
agreement at entry PLY, or answers such an offer) and are kept, retained, in the seat's
pages (`.../seat/N/page/K`, pages.py); `.../seat/N/hello` (the seat's set-up and how far
its record goes) and `.../seat/N/online` (also the broker's last will: is the seat's host
connected) are retained on their own.  A broker ACL lets each seat's user write only
those names of its own seat."""

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, NoReturn, Optional, Union

VERSION = 4                 # 2: every message about the game carries its chain (transcript.py);
                            # 3: and its seat's own chain (`own`); 4: a seat's fixed topics,
                            # its history in pages (pages.py)
MAX_BYTES = 4096
MAX_PLY = 1_000_000
# what a message may hold, checked before or while it is parsed, so that no payload a peer
# can send costs more than reading 4 KB once: our messages nest two deep (a hello's options),
# have at most 16 keys an object, and no string or number longer than these
MAX_DEPTH = 2
MAX_KEYS = 16
MAX_STRING = 256
MAX_DIGITS = 20
MAX_TOPIC = 128           # longer topic names are not ours (and are cut in log lines)
PREFIX = "knockboard"

ACT, COMMIT, REVEAL, HELLO, ONLINE = "act", "commit", "reveal", "hello", "online"
LIVE = "live"               # the topic of a seat's messages about the game
# a home's history does not fit its pages any more: the game cannot go on in the room
FULL = "full"
# how a game ends before its rules end it: a home resigns, or every home agrees to stop
RESIGN, OFFER, ACCEPT, DECLINE = "resign", "offer", "accept", "decline"
ENDING = (RESIGN, OFFER, ACCEPT, DECLINE)
GAME_KINDS = (ACT, COMMIT, REVEAL) + ENDING     # the kinds kept in a seat's pages
HEX64 = re.compile(r"[0-9a-f]{64}\Z")
DICE_MODES = ("electronic", "physical")


def _seats(value: Any) -> bool:
    return isinstance(value, list) and 0 < len(value) <= 8 \
        and all(type(s) is int and 1 <= s <= 8 for s in value)


def _hex64(v: Any) -> bool:
    return isinstance(v, str) and bool(HEX64.match(v))


# per kind: its own fields and their checks (besides v, room, seat, kind, ply); `chain`: the
# chain of the record the message follows, `own`: the chain of its seat's own part in it
# (transcript.py)
_FIELDS: dict[str, dict[str, Callable[[Any], bool]]] = {
    ACT: {"action": lambda v: isinstance(v, str) and 0 < len(v) <= 64 and v.isprintable(),
          "chain": _hex64, "own": _hex64},
    COMMIT: {"hash": _hex64, "chain": _hex64, "own": _hex64},
    REVEAL: {"nonce": _hex64, "chain": _hex64, "own": _hex64},
    HELLO: {"chain": _hex64, "own": _hex64,
            "game": lambda v: isinstance(v, str) and 0 < len(v) <= 32,
            "options": lambda v: isinstance(v, dict) and len(v) <= 16 and all(
                isinstance(k, str) and len(k) <= 32 and type(x) in (int, str, bool)
                and len(str(x)) <= 32 for k, x in v.items()),
            "players": lambda v: type(v) is int and 1 <= v <= 8,
            "dice": lambda v: v in DICE_MODES,
            "seats": _seats},
    ONLINE: {"online": lambda v: type(v) is bool, "seats": _seats},
    # a resignation and an acceptance speak for the seats of the sender's home
    RESIGN: {"seats": _seats, "chain": _hex64, "own": _hex64},
    OFFER: {"chain": _hex64, "own": _hex64},
    ACCEPT: {"seats": _seats, "chain": _hex64, "own": _hex64},
    DECLINE: {"chain": _hex64, "own": _hex64},
    FULL: {"chain": _hex64, "own": _hex64},
}


class MessageError(ValueError):
    """A message that is not one of ours, or not well formed."""


def _nesting(text: str) -> int:
    """How deep the arrays and objects of the JSON `text` nest (brackets inside strings do
    not count); scanned before parsing, since the parser recurses once a level."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                break
        elif char in "]}":
            depth -= 1
    return deepest


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len(pairs) > MAX_KEYS:
        raise MessageError(f"an object with {len(pairs)} keys (at most {MAX_KEYS})")
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise MessageError(f"the key {key[:32]!r} twice")
        if len(key) > MAX_STRING or (isinstance(value, str) and len(value) > MAX_STRING):
            raise MessageError(f"a string longer than {MAX_STRING} characters")
        data[key] = value
    return data


def _integer(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise MessageError(f"a number of {len(text)} digits (at most {MAX_DIGITS})")
    return int(text)


def _no_fraction(text: str) -> NoReturn:
    raise MessageError(f"a number with a fraction or exponent {text[:MAX_DIGITS]!r}")


def _parse(payload: Union[bytes, bytearray]) -> dict[str, Any]:
    """The JSON object in `payload`, read within the bounds above; MessageError if not."""
    if len(payload) > MAX_BYTES:
        raise MessageError(f"{len(payload)} bytes (at most {MAX_BYTES})")
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError:
        raise MessageError("not UTF-8 JSON") from None
    if _nesting(text) > MAX_DEPTH:
        raise MessageError(f"nested more than {MAX_DEPTH} deep")
    try:
        data = json.loads(text, object_pairs_hook=_object, parse_int=_integer,
                          parse_float=_no_fraction, parse_constant=_no_fraction)
    except MessageError:
        raise
    except ValueError:
        raise MessageError("not UTF-8 JSON") from None
    if not isinstance(data, dict):
        raise MessageError("not a JSON object")
    return data


@dataclass(frozen=True)
class Message:
    room: str
    seat: int                 # 1-based
    kind: str
    ply: int
    body: dict[str, Any] = field(default_factory=dict)    # the kind's own fields

    def encode(self) -> bytes:
        data = {"v": VERSION, "room": self.room, "seat": self.seat, "kind": self.kind,
                "ply": self.ply, **self.body}
        return json.dumps(data, separators=(",", ":"), sort_keys=True).encode()

    def topic(self) -> str:
        return topic(self.room, self.seat, self.kind, self.ply)

    def __getitem__(self, key: str) -> Any:
        return self.body[key]


def short(value: object, limit: int = 40) -> str:
    """`value` for a log line: its repr, cut to `limit` characters (a peer chooses it)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def topic(room: str, seat: int, kind: str, ply: int = 0) -> str:
    """The topic a message of `kind` by 1-based `seat` goes on (`ply`: unused, every entry's
    messages share the seat's live topic)."""
    base = f"{PREFIX}/{room}/seat/{seat}"
    return f"{base}/{kind}" if kind in (HELLO, ONLINE) else f"{base}/{LIVE}"


def room_filter(room: str) -> str:
    return f"{PREFIX}/{room}/#"


def seat_of_topic(room: str, name: str) -> Optional[tuple[int, tuple[str, ...]]]:
    """(seat, the kinds that topic carries) for a seat's topic `name` in `room` (its pages
    are read by catchup.py); None for any other topic."""
    if len(name) > MAX_TOPIC:
        return None
    parts = name.split("/")
    if len(parts) != 5 or parts[:3] != [PREFIX, room, "seat"] \
            or not parts[3].isdigit() or len(parts[3]) > 1:
        return None
    kind = parts[4]
    if kind in (HELLO, ONLINE):
        return int(parts[3]), (kind,)
    return (int(parts[3]), GAME_KINDS + (FULL,)) if kind == LIVE else None


def _other_version(version: Any) -> str:
    if type(version) is int and 0 < version < VERSION:
        return (f"protocol version {version}, from an older Knockboard: this one speaks "
                f"version {VERSION} (every home of a room must run it: update that home)")
    if type(version) is int and version > VERSION:
        return (f"protocol version {version}, from a newer Knockboard: this one speaks "
                f"version {VERSION} (update this home)")
    return f"version {short(version)} (this program reads {VERSION})"


def decode(topic_name: str, payload: Union[bytes, bytearray], room: str) -> Message:
    """The Message in `payload`, received on `topic_name`; MessageError saying what is wrong.
    The seat must be the topic's (the broker's ACL is what stops a seat writing another's
    topic; a message claiming another seat than its topic is forged)."""
    where = seat_of_topic(room, topic_name)
    if where is None:
        raise MessageError(f"topic {short(topic_name)} is not a seat's topic in room "
                           f"{room!r}")
    data = _parse(payload)
    version = data.get("v")
    if version != VERSION:
        raise MessageError(_other_version(version))
    kind = data.get("kind")
    if kind not in _FIELDS:
        raise MessageError(f"unknown kind {short(kind)}")
    expected = {"v", "room", "seat", "kind", "ply"} | set(_FIELDS[kind])
    if set(data) != expected:
        wrong = sorted(set(data) ^ expected)[:4]
        raise MessageError(f"{kind}: fields {short(', '.join(wrong))} missing or unknown")
    if data["room"] != room:
        raise MessageError(f"room {short(data['room'])}, not {room!r}")
    seat, ply = data["seat"], data["ply"]
    if type(seat) is not int or seat != where[0]:
        raise MessageError(f"seat {short(seat)} on seat {where[0]}'s topic (forged seat)")
    if kind not in where[1]:
        raise MessageError(f"a {kind} message on the wrong topic {short(topic_name)}")
    if type(ply) is not int or not 0 <= ply <= MAX_PLY:
        raise MessageError(f"bad sequence number {short(ply)}")
    for name, check in _FIELDS[kind].items():
        if not check(data[name]):
            raise MessageError(f"{kind}: bad {name} {short(data[name])}")
    return Message(room, seat, kind, ply, {k: data[k] for k in _FIELDS[kind]})
