"""This home's secret for a room: the dice nonces are HMAC-SHA256(secret, ply/seat), so a
host killed and resumed reveals the nonces it committed to before, with nothing else to
keep.  The secret lives in a small file only this user can read, one per room; a new game
in the room (`play`) makes a new secret, `resume` reads it back."""

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path
from typing import Optional, Protocol, Union

from .dice import NONCE_BYTES


class _Secret(Protocol):
    secret: bytes


class RoomKeys:
    def __init__(self, path: Union[str, "os.PathLike[str]"], room: str, fresh: bool) -> None:
        """`path`: the keys file; `fresh`: a new game (new secret), else the room's secret
        from the file (OSError/ValueError with the reason if it is not there)."""
        self.path = Path(path)
        rooms = self._read()
        if fresh:
            rooms[room] = secrets.token_hex(32)
            self._write(rooms)
        elif room not in rooms:
            raise ValueError(f"{self.path}: no secret for room {room!r} (was the game "
                             "started on this computer?)")
        self.secret = bytes.fromhex(rooms[room])

    def nonce(self: _Secret, ply: int, seat: int) -> bytes:    # MemoryKeys' too
        return hmac.new(self.secret, f"{ply}/{seat}".encode(), hashlib.sha256) \
            .digest()[:NONCE_BYTES]

    def _read(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text())
        except FileNotFoundError:
            return {}
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            raise ValueError(f"{self.path}: not a knockboard room keys file")
        return data

    def _write(self, rooms: dict[str, str]) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(rooms, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)


class MemoryKeys:
    """A secret kept in memory only (hosts that will not be resumed, benchmarks); tests give
    a fixed one so that their games are the same every run."""

    def __init__(self, secret: Optional[bytes] = None) -> None:
        self.secret = secrets.token_bytes(32) if secret is None else secret

    nonce = RoomKeys.nonce


# where a remote game's dice nonces come from
Keys = Union[RoomKeys, MemoryKeys]
