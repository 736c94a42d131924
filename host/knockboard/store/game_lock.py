"""One program per saved game: a program that plays, resumes, deletes or abandons a game
holds an advisory lock on a small file beside the database (`games.sqlite3.game-12.lock`)
for as long as it has the game open, with its pid written in it.

The lock is the kernel's (flock), not the file's existence: a program killed with kill -9,
or a laptop that lost power, leaves the file behind but not the lock, so the next program
takes the game over without anybody deleting anything, and two programs can never both
believe they hold it. On a platform without flock (Windows) games are not locked."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional, Union

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


class GameLock:
    """Held from `acquire()` until `release()` (or until this process ends, however)."""

    def __init__(self, db_path: Union[str, Path], game_id: int) -> None:
        self.path = lock_path(db_path, game_id)
        self.game_id = game_id
        self._fd: Optional[int] = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> "GameLock":
        """GameInUse naming the other program's pid if it has the game open."""
        if fcntl is None or self._fd is not None:
            return self
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as err:
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
        self._fd = fd
        return self

    def release(self, remove: bool = False) -> None:
        """Let go; `remove`: the game is gone (deleted), its lock file too."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        if remove:
            try:
                self.path.unlink()
            except OSError:
                pass
        os.close(fd)                    # closing drops the lock

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
