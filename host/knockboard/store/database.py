"""The SQLite game store: every action is committed as it is played (WAL journal, full
sync), so killing the host at any moment loses at most the action being entered.

One store may be used from several threads (the simulator window runs the session beside
Tk's main loop): each thread gets its own SQLite connection, made on its first use, because
an SQLite connection must never be shared between threads.

Every SQLite error, of whatever class (locked, read-only, full disk, I/O error, a damaged
file), leaves here as a StoreError whose one line says what is wrong and that nothing was
changed; a write that fails first rolls back whatever SQLite left open, so no later write
can land in a transaction that is never committed (docs/reliability.md)."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator, Optional, Union
from urllib.parse import quote

from .paths import db_path_problem
from .records import GameRecord
from .schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION

SQLITE_HEADER = b"SQLite format 3\x00"


class StoreError(Exception):
    """A database that cannot be used as it is; the file is left untouched."""


class CommitmentConflict(ValueError):
    """A remote game's dice commitment saved again for the same roll and seat, different
    from the one saved: refused, the saved one kept (remote/journal.py)."""


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class GameStore:
    def __init__(self, path: Union[str, Path], timeout: float = 2.0,
                 create: bool = True) -> None:
        """`timeout`: how long a write waits for another program's lock. Without `create`
        (a command that only reads) a missing or empty file is refused, not made a
        database: nothing is written into a file this program did not create."""
        self.path = Path(path)
        problem = db_path_problem(self.path)
        if problem:
            raise StoreError(f"{self.path}: {problem}")
        header = b""
        try:
            if self.path.exists():
                with open(self.path, "rb") as f:
                    header = f.read(len(SQLITE_HEADER))
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:                  # changed since the check above
            raise StoreError(f"{self.path}: {err.strerror}") from None
        if not create and not header:
            state = "empty (0 bytes)" if self.path.exists() else "missing"
            raise StoreError(f"{self.path} is {state}: no Knockboard games in it; it was "
                             "left as it is")
        if header and header != SQLITE_HEADER:
            raise StoreError(f"{self.path} is not a Knockboard database "
                             "(not an SQLite file); it was left as it is")
        self._timeout = timeout
        # A reader in a folder it cannot write (a read-only filesystem): SQLite must open
        # the file read-only, and without a -wal file nothing is in flight, so it may also
        # do without the -shm file it cannot make there ("immutable").
        self._uri: Optional[str] = None
        if not create and _read_only_folder(self.path):
            wal = Path(f"{self.path}-wal")
            in_flight = wal.exists() and wal.stat().st_size > 0
            self._uri = (f"file:{quote(str(self.path.absolute()))}?mode=ro"
                         + ("" if in_flight else "&immutable=1"))
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []   # every thread's, for close()
        self._lock = threading.Lock()
        try:
            self._prepare()
        except StoreError:
            self.close()
            raise

    @property
    def db(self) -> sqlite3.Connection:
        """This thread's connection (made on first use)."""
        db = getattr(self._local, "db", None)
        if db is None:
            # autocommit: each statement is its own transaction unless BEGIN says otherwise.
            # check_same_thread=False only so that close() may close a finished thread's
            # connection; each connection is still used by its own thread alone.
            db = sqlite3.connect(self._uri or str(self.path), timeout=self._timeout,
                                 isolation_level=None, check_same_thread=False,
                                 uri=self._uri is not None)
            # per-connection settings (the WAL journal mode is kept in the file itself)
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            self._local.db = db
            with self._lock:
                self._connections.append(db)
        return db

    def set_timeout(self, seconds: float) -> None:
        """How long a write waits for another program's lock from now on (this thread's
        connection and every one made later)."""
        self._timeout = seconds
        with self._sql() as db:
            db.execute(f"PRAGMA busy_timeout={int(seconds * 1000)}")

    def _prepare(self) -> None:
        with self._sql() as db:
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id != APPLICATION_ID and (app_id != 0 or version != 0 or tables):
            raise StoreError(f"{self.path} is an SQLite database of another program, "
                             "not Knockboard's; it was left as it is")
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer Knockboard (schema "
                             f"{version}; this one knows up to {SCHEMA_VERSION}): upgrade "
                             "Knockboard to use it")
        if self._uri is not None:
            if version < SCHEMA_VERSION:
                raise StoreError(f"{self.path} needs upgrading to schema {SCHEMA_VERSION}, "
                                 "but its folder is read-only; nothing was changed")
            return
        with self._sql() as db:
            db.execute("PRAGMA journal_mode=WAL")
        for step in range(version, SCHEMA_VERSION):
            # one script (executescript would commit a transaction begun outside it)
            with self._sql() as db:
                db.executescript(f"BEGIN IMMEDIATE; {MIGRATIONS[step]}; "
                                 f"PRAGMA application_id={APPLICATION_ID}; "
                                 f"PRAGMA user_version={step + 1}; COMMIT;")

    def close(self) -> None:
        """Close every thread's connection; call it once the threads using the store are
        done (a thread that uses the store after this gets a fresh connection)."""
        with self._lock:
            connections, self._connections = self._connections, []
        for db in connections:
            db.close()
        self._local = threading.local()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _sql(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection, for statements whose SQLite errors (any class) become
        StoreError; whatever transaction a failure left open is rolled back first."""
        try:
            yield self.db
        except sqlite3.Error as err:
            self._roll_back()
            raise StoreError(_explain(self.path, err)) from None
        except BaseException:
            self._roll_back()
            raise

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any failure."""
        with self._sql() as db:
            db.execute("BEGIN IMMEDIATE")
            yield db
            db.execute("COMMIT")

    def _roll_back(self) -> None:
        """End a transaction a failed statement left open. SQLite has rolled some back
        itself (a full disk, an I/O error), and its ROLLBACK then fails: that failure must
        not hide the error being reported, so it is not raised. If the transaction still
        stays open, the connection is dropped, which ends it: the next use opens a fresh one
        instead of writing into a transaction never committed."""
        db = getattr(self._local, "db", None)
        if db is None or not db.in_transaction:
            return
        try:
            db.execute("ROLLBACK")
        except sqlite3.Error:
            pass
        if db.in_transaction:
            self._local.db = None
            with self._lock:
                self._connections.remove(db)
            try:
                db.close()
            except sqlite3.Error:
                pass

    # --- writing ----------------------------------------------------------------------------
    def new_game(self, record: GameRecord) -> int:
        """Store a new game (with any actions it already has); sets and returns its id."""
        with self._transaction() as db:
            cur = db.execute(
                "INSERT INTO games (game, options, players, seed, start_position, started, "
                "ended, result, status, dice, rounds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (record.game, json.dumps(record.options, sort_keys=True),
                 json.dumps(record.players), record.seed, record.start_position,
                 record.started or now(), record.ended, record.result, record.status,
                 record.dice, record.rounds))
            game_id = cur.lastrowid
            assert game_id is not None      # an INSERT that succeeded made a row
            stamp = now()
            db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?)",
                           [(game_id, ply, action, stamp)
                            for ply, action in enumerate(record.actions)])
        record.id = game_id                 # only once the game is committed
        return game_id

    def append(self, game_id: int, ply: int, action: str) -> None:
        """Commit one action at position `ply`; refuses a gap or an overwrite."""
        count = self.length(game_id)
        if ply != count:
            raise StoreError(f"game {game_id} has {count} actions; cannot store action "
                             f"{ply + 1}")
        with self._sql() as db:
            db.execute("INSERT INTO actions VALUES (?, ?, ?, ?)", (game_id, ply, action, now()))

    def truncate(self, game_id: int, plies: int) -> None:
        """Forget every action from position `plies` on (an undo); reopens a finished game."""
        with self._transaction() as db:
            db.execute("DELETE FROM actions WHERE game_id = ? AND ply >= ?", (game_id, plies))
            db.execute("UPDATE games SET status = 'playing', ended = NULL, result = NULL "
                       "WHERE id = ? AND status = 'finished'", (game_id,))

    def finish(self, game_id: int, result: Optional[str], status: str = "finished") -> None:
        with self._sql() as db:
            db.execute("UPDATE games SET status = ?, result = ?, ended = ? WHERE id = ?",
                       (status, result, now(), game_id))

    def set_players(self, game_id: int, players: list) -> None:
        """The game's players as they are now: a name given or a seat's kind changed on
        the board's menu during the game."""
        with self._sql() as db:
            db.execute("UPDATE games SET players = ? WHERE id = ?",
                       (json.dumps(players), game_id))

    def delete(self, game_id: int) -> None:
        """Remove the game and its actions for good; StoreError if there is no such game."""
        with self._transaction() as db:
            gone = db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount
        if not gone:
            raise StoreError(f"no game {game_id} in {self.path}")

    # --- a remote game's room (remote/journal.py) -------------------------------------------
    def save_room_commitment(self, room: str, ply: int, seat: int, commitment: str) -> None:
        """Keep the commitment of `seat` for the roll at `ply`; saving it again is nothing,
        saving another one is refused (CommitmentConflict), the first one kept: a
        commitment saved is what every reveal for that roll is checked against."""
        with self._transaction() as db:
            row = db.execute("SELECT hash FROM room_commitments WHERE room = ? AND ply = ? "
                             "AND seat = ?", (room, ply, seat)).fetchone()
            if row is None:
                db.execute("INSERT INTO room_commitments VALUES (?, ?, ?, ?)",
                           (room, ply, seat, commitment))
            elif row[0] != commitment:
                raise CommitmentConflict(f"room {room}: seat {seat + 1}'s commitment for ply "
                                         f"{ply} is saved as {row[0][:12]}..., not "
                                         f"{commitment[:12]}...")

    def room_commitments(self, room: str, ply: int) -> dict[int, str]:
        with self._sql() as db:
            return dict(db.execute("SELECT seat, hash FROM room_commitments WHERE room = ? "
                                   "AND ply = ?", (room, ply)).fetchall())

    def save_room_stop(self, room: str, reason: str) -> None:
        with self._sql() as db:
            db.execute("INSERT OR IGNORE INTO room_stops VALUES (?, ?, ?)",
                       (room, reason, now()))

    def room_stop(self, room: str) -> Optional[str]:
        with self._sql() as db:
            row = db.execute("SELECT reason FROM room_stops WHERE room = ?",
                             (room,)).fetchone()
        return row[0] if row else None

    def forget_room(self, room: str) -> None:
        """A new game in `room`: what an earlier game there saved does not apply to it."""
        with self._transaction() as db:
            db.execute("DELETE FROM room_commitments WHERE room = ?", (room,))
            db.execute("DELETE FROM room_stops WHERE room = ?", (room,))

    # --- reading ----------------------------------------------------------------------------
    def length(self, game_id: int) -> int:
        with self._sql() as db:
            return db.execute("SELECT count(*) FROM actions WHERE game_id = ?",
                              (game_id,)).fetchone()[0]

    def get(self, game_id: int) -> GameRecord:
        with self._sql() as db:
            row = db.execute("SELECT id, game, options, players, seed, start_position, "
                             "started, ended, result, status, dice, rounds FROM games "
                             "WHERE id = ?",
                             (game_id,)).fetchone()
            if row is None:
                self.check()                # "no game 4" only if the file is whole
                raise StoreError(f"no game {game_id} in {self.path}")
            actions = [a for (a,) in db.execute(
                "SELECT action FROM actions WHERE game_id = ? ORDER BY ply", (game_id,))]
        return GameRecord(id=row[0], game=row[1], options=self._json(row[2], game_id),
                          players=self._json(row[3], game_id), seed=row[4],
                          start_position=row[5], started=row[6], ended=row[7], result=row[8],
                          status=row[9], dice=row[10], rounds=row[11], actions=actions)

    def _json(self, text: str, game_id: int) -> Any:
        try:
            return json.loads(text)
        except (TypeError, ValueError):
            raise StoreError(f"{self.path} is damaged: game {game_id}'s players or options "
                             "are not JSON; nothing was changed") from None

    def find(self, record: GameRecord) -> Optional[int]:
        """The first stored game equal to `record` in all but its id (the same game, by
        content: an import of a record that is here already), or None."""
        with self._sql() as db:
            rows = db.execute("SELECT id FROM games WHERE game = ? AND started = ? "
                              "ORDER BY id", (record.game, record.started)).fetchall()
        for (game_id,) in rows:
            if replace(self.get(game_id), id=None) == replace(record, id=None):
                return game_id
        return None

    def last_unfinished(self) -> Optional[int]:
        with self._sql() as db:
            row = db.execute("SELECT id FROM games WHERE status = 'playing' "
                             "ORDER BY started DESC, id DESC LIMIT 1").fetchone()
        if row is None:
            self.check()
        return row[0] if row else None

    def newest(self) -> Optional[int]:
        """The id of the game started last, or None in an empty store."""
        with self._sql() as db:
            row = db.execute("SELECT id FROM games ORDER BY started DESC, id DESC "
                             "LIMIT 1").fetchone()
        return row[0] if row else None

    def summaries(self) -> list[tuple[Any, ...]]:
        """(id, started, game, players, status, result, length, rounds) for every game, newest
        first (rounds: a match's, else None);
        check() first: a damaged page may hide rows without an SQLite error."""
        with self._sql() as db:
            rows = db.execute(
                "SELECT g.id, g.started, g.game, g.players, g.status, g.result, "
                "(SELECT count(*) FROM actions a WHERE a.game_id = g.id), g.rounds "
                "FROM games g ORDER BY g.started DESC, g.id DESC").fetchall()
        return [(r[0], r[1], r[2], self._json(r[3], r[0]), r[4], r[5], r[6], r[7])
                for r in rows]

    def check(self) -> None:
        """StoreError if SQLite finds the file damaged (its quick check: every page and
        index readable and consistent, without comparing index contents to the rows)."""
        with self._sql() as db:
            problem = db.execute("PRAGMA quick_check(1)").fetchone()[0]
            page = db.execute("PRAGMA page_size").fetchone()[0]
        try:
            size = self.path.stat().st_size
        except OSError as err:
            raise StoreError(f"{self.path}: {err.strerror}; nothing was changed") from None
        if size % page:
            # SQLite reads the missing end of a cut page as zeros, without an error
            problem = f"cut short: {size} bytes is not a whole number of {page}-byte pages"
        if problem != "ok":
            raise StoreError(_damaged(self.path, problem))


def _damaged(path: Path, detail: str) -> str:
    # quick_check's first line may be a heading ("*** in database main ***")
    lines = [line for line in detail.splitlines() if line and not line.startswith("***")]
    return (f"{path} is damaged ({(lines or ['malformed'])[0]}); nothing was changed: "
            "restore it from a copy, or move it away to start a new one")


def _explain(path: Path, err: sqlite3.Error) -> str:
    """One line for an SQLite error: what is wrong, and that nothing was changed (the
    statement failed, and its transaction was rolled back)."""
    text = str(err)
    if "locked" in text or "busy" in text:
        return (f"{path} is locked by another program (is another knockboard running?); "
                "nothing was written")
    if "readonly" in text or "read-only" in text:
        return f"{path} is read-only; nothing was written"
    if "full" in text:
        return f"{path}: the disk is full; nothing was written"
    if "unable to open" in text and _read_only_folder(path):
        # even to read, SQLite makes the WAL index (a -shm file) beside the database
        return (f"cannot open {path}: its folder is read-only, and SQLite must write a "
                "-shm file beside the database even to read it; nothing was changed")
    if "unable to open" in text:
        return f"cannot open {path}: {text}; nothing was changed"
    if "malformed" in text or "not a database" in text or "corrupt" in text:
        return _damaged(path, text)
    return f"{path}: {text}; nothing was changed"


def _read_only_folder(path: Path) -> bool:
    try:
        return bool(os.statvfs(path.parent).f_flag & os.ST_RDONLY) or \
            not os.access(path.parent, os.W_OK)
    except OSError:
        return False
