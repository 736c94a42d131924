"""The game store when the disk misbehaves: the real store, the real commands (`main(argv)`
in this process) and the real session, on SQLite files damaged page by page or cut short,
empty, locked by another program, on a full filesystem (a 256 KB tmpfs: the test runs as
root, as CI does) and on a read-only one. What must hold: every command ends with exit
status 0 (showing what the undamaged file shows) or 2 with one line on stderr, never a
traceback; a command refused leaves the file byte for byte as it was; the session goes on
playing, says NOT SAVED, and once the fault is gone the store holds the whole game."""

import contextlib
import io
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from autoplay import AutoPlayer
from board_driver import VirtualBoard

from knockboard.cli import main
from knockboard.session import RecordSaver, Session, Setup
from knockboard.session.saving import SAVE_WAIT
from knockboard.store import GameRecord, GameStore, StoreError

sys.path.insert(0, str(Path(__file__).parent.parent))
from test_store import play_record  # noqa: E402


def cli(*argv):
    """(exit status, stdout, stderr) of `knockboard ARGV`; an exception fails the test."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(a) for a in argv])
    return status, out.getvalue(), err.getvalue()


def refused(status, err, *words):
    """Exit 2 with one line naming the problem."""
    return status == 2 and len(err.splitlines()) == 1 and all(w in err for w in words)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A database of three finished games and one unfinished, a record to import, and what
    each read command prints for the undamaged file."""
    folder = tmp_path_factory.mktemp("store")
    db = folder / "games.sqlite3"
    with GameStore(db) as store:
        for seed in range(3):
            store.new_game(play_record(seed=seed))
        unfinished = play_record(seed=5)
        unfinished.actions, unfinished.status, unfinished.result = \
            unfinished.actions[:9], "playing", None
        store.new_game(unfinished)
    record = folder / "record.json"
    record.write_text(play_record(seed=9).to_json())
    reads = {name: cli(*argv, "--db", db) for name, argv in READS.items()}
    assert all(status == 0 for status, _, _ in reads.values())
    return db, record, reads


READS = {"history": ["history"], "show": ["show", 2], "export": ["export", 3]}


def commands(db, record):
    for name, argv in READS.items():
        yield name, [*argv, "--db", db]
    # resume opens the store and reads the game before it looks for the board
    yield "resume", ["resume", "--db", db, "--port", "/dev/null/no-board"]
    yield "import", ["import", record, "--db", db]


def damaged_copies(source, folder):
    """(name, path) of copies of `source` with one page overwritten (random bytes, then
    zeros) or the file cut short."""
    data = source.read_bytes()
    page = 4096
    assert len(data) % page == 0
    rnd = random.Random(35)
    for k in range(len(data) // page):
        for fill in ("random", "zeros"):
            hurt = bytearray(data)
            hurt[k * page:(k + 1) * page] = rnd.randbytes(page) if fill == "random" \
                else bytes(page)
            yield f"page {k + 1} {fill}", bytes(hurt)
    for cut in (50, 100, page, page + 1000, len(data) - page, len(data) - 1):
        yield f"cut to {cut} bytes", data[:cut]


def test_a_damaged_or_cut_database_is_one_line_and_stays_as_it_is(saved, tmp_path):
    db, record, reads = saved
    seen = set()
    for name, data in damaged_copies(db, tmp_path):
        copy = tmp_path / "damaged.sqlite3"
        for command, argv in commands(copy, record):
            copy.write_bytes(data)
            status, out, err = cli(*[copy if a == db else a for a in argv])
            what = (name, command, err)
            if status == 0:
                # it may only succeed on what the damage did not touch, showing it whole
                assert command in reads and (status, out, err) == reads[command], what
            else:
                assert refused(status, err, "damaged" if "cut" not in name or
                               "100" not in name else ""), what
                assert copy.read_bytes() == data, what
            seen.add((command, status))
    # every command was refused somewhere; import never wrote into a damaged file
    assert {c for c, s in seen if s == 2} == {"history", "show", "export", "resume", "import"}
    assert ("import", 0) not in seen


def test_an_empty_file_is_reported_by_readers_and_never_given_a_schema(tmp_path):
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    for argv in (["history"], ["show", 1], ["export", 1], ["resume", "--port", "/dev/null/x"],
                 ["replay", 1, "--port", "/dev/null/x"]):
        status, out, err = cli(*argv, "--db", empty)
        assert refused(status, err, "empty (0 bytes)"), (argv, err)
        assert empty.stat().st_size == 0 and not out


def lock(db):
    """Another program holding the write lock (until closed)."""
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    return other


def test_a_locked_database_refuses_a_write_in_one_line_and_still_reads(saved, tmp_path):
    db = tmp_path / "locked.sqlite3"
    shutil.copy(saved[0], db)
    reads = {name: cli(*argv, "--db", db) for name, argv in READS.items()}
    other = lock(db)
    try:
        before = db.read_bytes()
        status, out, err = cli("import", saved[1], "--db", db)
        assert refused(status, err, "locked by another program", "nothing was written")
        assert db.read_bytes() == before
        for name, argv in READS.items():        # WAL: readers are not locked out
            assert cli(*argv, "--db", db) == reads[name]
    finally:
        other.close()
    assert cli("import", saved[1], "--db", db)[0] == 0


def knockabout_session(store, out):
    vb = VirtualBoard("knockabout")
    vb.session = Session(vb.board, Setup("knockabout", {}, ["greedy", "random"], seed=4),
                         clock=vb.clock, saver=RecordSaver(store), out=out)
    vb.run(1.0)
    return vb, vb.session, AutoPlayer(vb, 4)


def test_a_session_plays_on_while_the_database_is_locked_and_saves_once_it_is_free(tmp_path):
    db, out = tmp_path / "g.sqlite3", io.StringIO()
    with GameStore(db) as store:
        vb, session, player = knockabout_session(store, out)
        for _ in range(6):
            player.act()
        # each save waits SAVE_WAIT at most for the lock (SQLite's busy timeout), not 2 s
        assert store.db.execute("PRAGMA busy_timeout").fetchone()[0] == SAVE_WAIT * 1000
        other = lock(db)
        saved_before = len(store.get(1).actions)
        while len(session.record.actions) < saved_before + 6:
            player.act()
            assert session.saver.error and "locked" in session.saver.error
            assert vb.dev.display.lines[2] == "NOT SAVED"
        assert len(store.get(1).actions) == saved_before
        other.close()
        vb.run(1.5)                             # the retry, a second later at most
        assert store.get(1).actions == session.record.actions
        assert session.saver.error is None
        assert player.play(3000)
        assert store.get(1).actions == session.record.actions
    log = out.getvalue()
    assert log.count("NOT SAVED: ") == 1 and "saved: the store holds the game again" in log


def test_an_undo_that_fails_mid_transaction_leaves_no_transaction_open(saved, tmp_path):
    """SQLite rolls back a failing statement but not the transaction around it (here a
    trigger refuses the UPDATE after the DELETE went through): before the fix the next
    appends went into that open transaction and were lost when the program ended."""
    db = tmp_path / "undo.sqlite3"
    with GameStore(db) as store:
        gid = store.new_game(GameRecord(game="knockabout"))
        actions = play_record(seed=1).actions[:8]
        for ply, action in enumerate(actions[:6]):
            store.append(gid, ply, action)
        store.finish(gid, "1-0")                  # an undo reopens it: an UPDATE
        store.db.execute("CREATE TRIGGER refuse BEFORE UPDATE ON games "
                         "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
        with pytest.raises(StoreError, match="refused by the test; nothing was changed"):
            store.truncate(gid, 3)
        assert not store.db.in_transaction
        store.append(gid, 6, actions[6])
        store.append(gid, 7, actions[7])
        # another program sees every append, and no undo
        other = sqlite3.connect(db)
        assert [a for (a,) in other.execute("SELECT action FROM actions ORDER BY ply")] \
            == actions
        other.close()


def test_a_rollback_that_fails_does_not_hide_the_error(tmp_path):
    """A full disk: SQLite has rolled the transaction back itself, so ROLLBACK fails with
    "no transaction is active"; the error shown must be the disk's."""
    db = tmp_path / "full.sqlite3"
    with GameStore(db) as store:
        store.new_game(play_record(seed=0))
        pages = store.db.execute("PRAGMA page_count").fetchone()[0]
        store.db.execute(f"PRAGMA max_page_count={pages}")   # SQLite's own "disk full"
        with pytest.raises(StoreError, match="the disk is full; nothing was written"):
            store.new_game(play_record(seed=1))
        assert not store.db.in_transaction
        assert len(store.summaries()) == 1


@pytest.fixture
def small_disk(tmp_path):
    """A 256 KB tmpfs, to be filled up or made read-only (needs root, as CI has)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(disk)],
                          capture_output=True, text=True)
    if done.returncode:
        why = f"cannot mount a small tmpfs (not root?): {done.stderr.strip()}"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=True)


def fill(disk):
    """Write a file until the filesystem is full; returns it."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as f:
        with contextlib.suppress(OSError):
            while True:
                f.write(bytes(4096))
    return filler


def test_a_full_disk_costs_saves_not_the_game_and_they_land_once_there_is_room(small_disk):
    db, out = small_disk / "g.sqlite3", io.StringIO()
    with GameStore(db) as store:
        vb, session, player = knockabout_session(store, out)
        player.act()
        filler = fill(small_disk)
        while session.saver.error is None:
            player.act()
        assert "the disk is full; nothing was written" in session.saver.error
        for _ in range(4):
            player.act()                          # the game goes on, NOT SAVED shown
        assert vb.dev.display.lines[2] == "NOT SAVED"
        # what the store holds is a prefix of the game, and commands read it in one line
        held = store.get(1).actions
        assert held == session.record.actions[:len(held)] and len(held) < len(
            session.record.actions)
        record = small_disk.parent / "record.json"
        record.write_text(play_record(seed=9).to_json())
        status, _, err = cli("import", record, "--db", db)
        assert refused(status, err, "disk is full", "nothing was written"), err
        filler.unlink()
        vb.run(1.5)
        assert store.get(1).actions == session.record.actions
    assert out.getvalue().count("NOT SAVED: ") == 1


def test_a_read_only_filesystem_reads_and_refuses_writes_in_one_line(small_disk, saved):
    db = small_disk / "games.sqlite3"
    shutil.copy(saved[0], db)
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    for name, argv in READS.items():
        assert cli(*argv, "--db", db) == saved[2][name], name
    status, _, err = cli("import", saved[1], "--db", db)
    assert refused(status, err, "read-only", "nothing was changed"), err
    # resume reads the game, then would need the board: it gets that far
    status, _, err = cli("resume", "--db", db, "--port", "/dev/null/no-board")
    assert refused(status, err, "/dev/null/no-board"), err
    assert db.read_bytes() == saved[0].read_bytes()
