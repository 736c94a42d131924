"""Reading a JSON game record someone hands us (`knockboard import FILE`): a file of bounded
size, UTF-8, JSON nested no deeper than a record is, and every field of the right kind, so
that what reaches the engine and the database is what they can take. Each problem is a
RecordError with a message saying what was wrong and what is accepted."""

import json
import re
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from .schema import SQLITE_MAX_INT, SQLITE_MIN_INT

# a finished Dodgeball game of 1,400 plies exports to about 30 KB; a thousand edits of the
# largest board stay well below this
MAX_RECORD_BYTES = 4 * 1024 * 1024
# a record is an object holding lists of objects: three levels; json.loads would otherwise
# recurse as deep as the brackets go
MAX_DEPTH = 8
REMOTE_SEAT = "remote"
FORMAT = "knockboard-game"
STATUSES = ("playing", "finished", "abandoned")
DICE = ("electronic", "physical")

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_OPEN, _CLOSE = "[{", "]}"


class RecordError(ValueError):
    """A record that is malformed or does not replay; the message says where."""


def read_record_file(path: Path) -> str:
    """The text of the record file at `path` (a pathlib.Path)."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except OSError as err:
        raise RecordError(f"cannot read it: {err.strerror}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"larger than {MAX_RECORD_BYTES // (1024 * 1024)} MB; a game "
                          "record is far smaller")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise RecordError(f"not UTF-8 text (byte {err.start} is {data[err.start]:#04x}); "
                          "a game record is JSON in UTF-8") from None


def parse_json(text: str) -> Any:
    """The JSON value of `text`, refused before parsing if nested deeper than MAX_DEPTH."""
    depth = 0
    for bracket in re.sub(r"[^\[\]{}]", "", _STRING.sub("", text)):
        depth += 1 if bracket in _OPEN else -1
        if depth > MAX_DEPTH:
            raise RecordError(f"not a game record: JSON nested more than {MAX_DEPTH} deep")
    try:
        return json.loads(text)
    except ValueError as err:       # JSONDecodeError, and numbers too long to convert
        raise RecordError(f"not JSON: {err}") from None


def check_fields(data: Any, readable_versions: Iterable[int],
                 has_edits: Callable[[list[str]], bool]) -> None:
    """Refuse a parsed record whose fields are not what a record holds."""
    version = _check_version(data, readable_versions)
    _kind(data, "game", str)
    _check_options(data)
    _check_players(data)
    _kind(data, "actions", list)
    if not all(isinstance(a, str) for a in data["actions"]):
        raise RecordError("every action must be a string in the game's notation")
    if version == 1 and has_edits(data["actions"]):
        raise RecordError("a version 1 record has no edit entries; edits need version 2")
    _check_status(data)
    _kind(data, "started", str)
    for key in ("start_position", "ended", "result", "final_position"):
        _kind(data, key, str, optional=True)
    if data.get("seed") is not None and (type(data["seed"]) is not int
                                         or not _storable(data["seed"])):
        raise RecordError(f"field 'seed' must be an integer from {SQLITE_MIN_INT} to "
                          f"{SQLITE_MAX_INT}, or null")
    for value in _strings(data):
        if not _storable(value):
            raise RecordError(f"text {value[:40]!r} holds a lone surrogate, not Unicode "
                              "text")


def check_match_fields(data: dict) -> None:
    """A match of rounds (`rounds`, its "round <n>" entries, `round_points`) is a version 3
    record; the fields must be what a match holds."""
    from ..games import MAX_ROUNDS
    from .entries import has_rounds

    rounds = data.get("rounds")
    if data["version"] < 3 and (rounds is not None or has_rounds(data["actions"])):
        raise RecordError("a match of rounds (field 'rounds', 'round N' entries) needs a "
                          "version 3 record")
    if rounds is not None and (type(rounds) is not int or not 2 <= rounds <= MAX_ROUNDS):
        raise RecordError(f"field 'rounds' must be a whole number from 2 to {MAX_ROUNDS} (a "
                          "match), or null (one game)")
    points = data.get("round_points")
    if points is not None and (rounds is None or not isinstance(points, list) or not all(
            isinstance(p, list) and all(type(v) is int for v in p) for p in points)):
        raise RecordError("field 'round_points' must be a list of the rounds' points per "
                          "seat (whole numbers), in a record with 'rounds'")


def _check_version(data: Any, readable_versions: Iterable[int]) -> int:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f'not a Knockboard game record (no "format": "{FORMAT}")')
    version = data.get("version")
    if type(version) is not int or version not in readable_versions:
        raise RecordError(f"record version {version!r} is not supported (this Knockboard "
                          f"reads versions {', '.join(map(str, readable_versions))})")
    return version


def _check_options(data: dict) -> None:
    _kind(data, "options", dict)
    for key, value in data["options"].items():
        if type(value) not in (str, int) or not _storable(value):
            raise RecordError(f"option {key!r}: {value!r} is not a text or an integer")


def _check_players(data: dict) -> None:
    from .. import bots
    from ..bots.levels import LEVELS

    _kind(data, "players", list)
    # a computer seat is a level or a bot; "remote": a seat played at another home's board
    # (docs/remote.md)
    seat_kinds = (*LEVELS, *bots.BOT_NAMES, REMOTE_SEAT)
    for number, player in enumerate(data["players"], 1):
        if not isinstance(player, dict) or not isinstance(player.get("name"), str) or \
                player.get("bot") not in (None, *seat_kinds):
            raise RecordError(f"player {number}: expected {{\"name\": text, \"bot\": null or "
                              f"one of {', '.join(seat_kinds)}}}")


def _check_status(data: dict) -> None:
    _kind(data, "status", str)
    if data["status"] not in STATUSES:
        raise RecordError(f"status {data['status']!r} is not {'/'.join(STATUSES)}")
    if data.get("dice", DICE[0]) not in DICE:
        raise RecordError(f"dice {data['dice']!r} is not {'/'.join(DICE)}")


def _kind(data: dict, key: str, kind: type, optional: bool = False) -> None:
    value = data.get(key)
    if not (isinstance(value, kind) or (optional and value is None)):
        name = {"str": "string", "dict": "JSON object", "list": "list"}[kind.__name__]
        raise RecordError(f"field {key!r} must be a {name}" + (" or null" if optional else ""))


def _storable(value: Any) -> bool:
    """SQLite takes it: an integer in 64 bits, a text that encodes to UTF-8."""
    if isinstance(value, int):
        return SQLITE_MIN_INT <= value <= SQLITE_MAX_INT
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
