"""One program per saved game: a program that plays, resumes, deletes or abandons a game
holds an advisory lock on a small file beside the database (`games.sqlite3.game-12.lock`)
for as long as it has the game open, with its pid written in it.

The lock is the kernel's (flock), not the file's existence: a program killed with kill -9,
or a laptop that lost power, leaves the file behind but not the lock, so the next program
takes the game over without anybody deleting anything, and two programs can never both
believe they hold it. The lock is the program's: the same game opened twice within one
program shares it. On a platform without flock (Windows) games are not locked."""

from __future__ import annotations

import errno
import os
import sys
import threading
from pathlib import Path
from typing import Union

from .database import StoreError

try:
    import fcntl
except ImportError:                     # Windows: no advisory locks of this kind
    fcntl = None  # type: ignore[assignment]

# a holder writes its pid right after it gets the lock; a reader that comes in between
# looks this many times before it says the pid is unknown
READ_TRIES = 50


class GameInUse(StoreError):
    """The game is open in another program (its pid in the message); nothing was done."""


def lock_path(db_path: Union[str, Path], game_id: int) -> Path:
    return Path(f"{db_path}.game-{game_id}.lock")


# The locks this program holds: path -> [fd, holders]. The lock is one program's, not one
# object's: the same game opened twice in one program (a test, a saver replaced while the
# old one is still about) shares it, and it goes when the last holder lets go.
_HELD: dict = {}
_HELD_LOCK = threading.Lock()


class GameLock:
    """Held from `acquire()` until `release()` (or until this process ends, however)."""

    def __init__(self, db_path: Union[str, Path], game_id: int) -> None:
        self.path = lock_path(db_path, game_id)
        self.key = os.path.abspath(self.path)
        self.game_id = game_id
        self.held = False

    def acquire(self) -> "GameLock":
        """GameInUse naming the other program's pid if it has the game open."""
        if fcntl is None or self.held:
            return self
        with _HELD_LOCK:
            if self.key in _HELD:
                _HELD[self.key][1] += 1
            else:
                _HELD[self.key] = [self._lock_file(), 1]
        self.held = True
        return self

    def _lock_file(self) -> int:
        assert fcntl is not None
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as err:
                if err.errno == errno.EROFS:
                    # a read-only file system: no program can write the game there, so
                    # there is nothing to keep two of them from
                    return -1
                raise StoreError(f"{self.path}: {err.strerror}; game {self.game_id} could "
                                 "not be locked for this program") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = _holder(fd)
                os.close(fd)
                raise GameInUse(f"game {self.game_id} is open in another program "
                                f"({holder}): close it there first") from None
            # the file may have been removed (a game deleted) between open and flock: a
            # lock on a name nobody else can open is no lock
            try:
                same = os.stat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n{_program()}\n".encode())
        return fd

    def release(self, remove: bool = False) -> None:
        """Let go; `remove`: the game is gone (deleted), its lock file too."""
        if not self.held:
            return
        self.held = False
        with _HELD_LOCK:
            entry = _HELD[self.key]
            entry[1] -= 1
            if entry[1]:
                return
            del _HELD[self.key]
        if remove:
            try:
                self.path.unlink()
            except OSError:
                pass
        if entry[0] >= 0:
            os.close(entry[0])          # closing drops the lock

    def __enter__(self) -> "GameLock":
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _holder(fd: int) -> str:
    """"pid 1234, knockboard resume 12", as the holder wrote it."""
    import time
    for _ in range(READ_TRIES):
        text = os.pread(fd, 512, 0).decode("utf-8", "replace").split("\n")
        if text[0].strip().isdigit():
            what = text[1].strip() if len(text) > 1 else ""
            return f"pid {text[0].strip()}" + (f", {what}" if what else "")
        time.sleep(0.01)
    return "pid unknown"


def _program() -> str:
    """What this program is, as a person would recognise it in `ps`."""
    words = [os.path.basename(sys.argv[0] or "python")] + sys.argv[1:3]
    if words[0] in ("__main__.py", "-m", "-c"):
        words[0] = "knockboard"
    return " ".join(w for w in words if w and "\n" not in w)[:80]
