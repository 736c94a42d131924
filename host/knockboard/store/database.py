"""The SQLite game store: every action is committed as it is played (WAL journal, full
sync), so killing the host at any moment loses at most the action being entered.

One store may be used from several threads (the simulator window runs the session beside
Tk's main loop): each thread gets its own SQLite connection, made on its first use, because
an SQLite connection must never be shared between threads."""

from __future__ import annotations

import json
import sqlite3
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Optional, Union

from .paths import db_path_problem
from .records import GameRecord
from .schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION

SQLITE_HEADER = b"SQLite format 3\x00"


class StoreError(Exception):
    """A database that cannot be used as it is; the file is left untouched."""


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class GameStore:
    def __init__(self, path: Union[str, Path], timeout: float = 2.0) -> None:
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
        if header and header != SQLITE_HEADER:
            raise StoreError(f"{self.path} is not a Knockboard database "
                             "(not an SQLite file); it was left as it is")
        self._timeout = timeout
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []   # every thread's, for close()
        self._lock = threading.Lock()
        try:
            self._prepare()
        except sqlite3.OperationalError as err:
            self.close()
            raise StoreError(_explain(self.path, err)) from None
        except sqlite3.DatabaseError as err:
            self.close()
            raise StoreError(f"{self.path} is damaged or not a database ({err}); "
                             "it was left as it is") from None
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
            db = sqlite3.connect(str(self.path), timeout=self._timeout, isolation_level=None,
                                 check_same_thread=False)
            # per-connection settings (the WAL journal mode is kept in the file itself)
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            self._local.db = db
            with self._lock:
                self._connections.append(db)
        return db

    def _prepare(self) -> None:
        app_id = self.db.execute("PRAGMA application_id").fetchone()[0]
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        tables = self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id != APPLICATION_ID and (app_id != 0 or version != 0 or tables):
            raise StoreError(f"{self.path} is an SQLite database of another program, "
                             "not Knockboard's; it was left as it is")
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer Knockboard (schema "
                             f"{version}; this one knows up to {SCHEMA_VERSION}): upgrade "
                             "Knockboard to use it")
        self.db.execute("PRAGMA journal_mode=WAL")
        for step in range(version, SCHEMA_VERSION):
            self.db.executescript(f"BEGIN IMMEDIATE; {MIGRATIONS[step]}; "
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

    def _write(self, sql: str, args: tuple = ()) -> sqlite3.Cursor:
        try:
            return self.db.execute(sql, args)
        except sqlite3.OperationalError as err:
            raise StoreError(_explain(self.path, err)) from None

    # --- writing ----------------------------------------------------------------------------
    def new_game(self, record: GameRecord) -> int:
        """Store a new game (with any actions it already has); sets and returns its id."""
        self._write("BEGIN IMMEDIATE")
        try:
            cur = self._write(
                "INSERT INTO games (game, options, players, seed, start_position, started, "
                "ended, result, status, dice) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (record.game, json.dumps(record.options, sort_keys=True),
                 json.dumps(record.players), record.seed, record.start_position,
                 record.started or now(), record.ended, record.result, record.status,
                 record.dice))
            game_id = cur.lastrowid
            assert game_id is not None      # an INSERT that succeeded made a row
            record.id = game_id
            stamp = now()
            for ply, action in enumerate(record.actions):
                self._write("INSERT INTO actions VALUES (?, ?, ?, ?)",
                            (record.id, ply, action, stamp))
            self._write("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return game_id

    def append(self, game_id: int, ply: int, action: str) -> None:
        """Commit one action at position `ply`; refuses a gap or an overwrite."""
        count = self.length(game_id)
        if ply != count:
            raise StoreError(f"game {game_id} has {count} actions; cannot store action "
                             f"{ply + 1}")
        self._write("INSERT INTO actions VALUES (?, ?, ?, ?)", (game_id, ply, action, now()))

    def truncate(self, game_id: int, plies: int) -> None:
        """Forget every action from position `plies` on (an undo); reopens a finished game."""
        self._write("BEGIN IMMEDIATE")
        self._write("DELETE FROM actions WHERE game_id = ? AND ply >= ?", (game_id, plies))
        self._write("UPDATE games SET status = 'playing', ended = NULL, result = NULL "
                    "WHERE id = ? AND status = 'finished'", (game_id,))
        self._write("COMMIT")

    def finish(self, game_id: int, result: Optional[str], status: str = "finished") -> None:
        self._write("UPDATE games SET status = ?, result = ?, ended = ? WHERE id = ?",
                    (status, result, now(), game_id))

    # --- a remote game's room (remote/journal.py) -------------------------------------------
    def save_room_commitment(self, room: str, ply: int, seat: int, commitment: str) -> None:
        """Keep the first commitment of `seat` for the roll at `ply`; a later one is not
        written (the caller compares it with the one kept)."""
        self._write("INSERT OR IGNORE INTO room_commitments VALUES (?, ?, ?, ?)",
                    (room, ply, seat, commitment))

    def room_commitments(self, room: str, ply: int) -> dict[int, str]:
        return dict(self.db.execute("SELECT seat, hash FROM room_commitments WHERE room = ? "
                                    "AND ply = ?", (room, ply)).fetchall())

    def save_room_stop(self, room: str, reason: str) -> None:
        self._write("INSERT OR IGNORE INTO room_stops VALUES (?, ?, ?)", (room, reason, now()))

    def room_stop(self, room: str) -> Optional[str]:
        row = self.db.execute("SELECT reason FROM room_stops WHERE room = ?",
                              (room,)).fetchone()
        return row[0] if row else None

    def forget_room(self, room: str) -> None:
        """A new game in `room`: what an earlier game there saved does not apply to it."""
        self._write("BEGIN IMMEDIATE")
        self._write("DELETE FROM room_commitments WHERE room = ?", (room,))
        self._write("DELETE FROM room_stops WHERE room = ?", (room,))
        self._write("COMMIT")

    # --- reading ----------------------------------------------------------------------------
    def length(self, game_id: int) -> int:
        return self.db.execute("SELECT count(*) FROM actions WHERE game_id = ?",
                               (game_id,)).fetchone()[0]

    def get(self, game_id: int) -> GameRecord:
        row = self.db.execute("SELECT id, game, options, players, seed, start_position, "
                              "started, ended, result, status, dice FROM games WHERE id = ?",
                              (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id} in {self.path}")
        actions = [a for (a,) in self.db.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY ply", (game_id,))]
        return GameRecord(id=row[0], game=row[1], options=json.loads(row[2]),
                          players=json.loads(row[3]), seed=row[4], start_position=row[5],
                          started=row[6], ended=row[7], result=row[8], status=row[9],
                          dice=row[10], actions=actions)

    def last_unfinished(self) -> Optional[int]:
        row = self.db.execute("SELECT id FROM games WHERE status = 'playing' "
                              "ORDER BY started DESC, id DESC LIMIT 1").fetchone()
        return row[0] if row else None

    def newest(self) -> Optional[int]:
        """The id of the game started last, or None in an empty store."""
        row = self.db.execute("SELECT id FROM games ORDER BY started DESC, id DESC "
                              "LIMIT 1").fetchone()
        return row[0] if row else None

    def summaries(self) -> list[tuple[Any, ...]]:
        """(id, started, game, players, status, result, length) for every game, newest first."""
        rows = self.db.execute(
            "SELECT g.id, g.started, g.game, g.players, g.status, g.result, "
            "(SELECT count(*) FROM actions a WHERE a.game_id = g.id) "
            "FROM games g ORDER BY g.started DESC, g.id DESC").fetchall()
        return [(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], r[6]) for r in rows]


def _explain(path: Path, err: Exception) -> str:
    text = str(err)
    if "locked" in text or "busy" in text:
        return (f"{path} is locked by another program (is another knockboard running?); "
                "nothing was written")
    if "readonly" in text or "read-only" in text:
        return f"{path} is read-only; nothing was written"
    if "unable to open" in text:
        return f"cannot open {path}: {text}"
    return f"{path}: {text}"
