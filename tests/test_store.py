"""Game records: the SQLite store, the JSON format, bad files, and kill-and-resume."""

import json
import os
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from knockboard.cli import main
from knockboard.store import GameRecord, GameStore, RecordError, StoreError
from knockboard.store.schema import APPLICATION_ID, SCHEMA_VERSION

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
import scripted_game  # noqa: E402


def play_record(game="knockabout", seed=3, options=None):
    """A complete record made by the scripted player, without any database."""
    record = GameRecord(game=game, options=options or {}, seed=seed,
                        players=[{"name": "A", "bot": None}, {"name": "B", "bot": "greedy"}])
    state = record.initial_state()
    while not state.is_terminal():
        action = scripted_game.choose(state, seed, len(state.history))
        record.actions.append(state.action_to_string(action))
        state.apply(action)
    record.result = state.result()
    record.status = "finished"
    return record


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.sqlite3"


def test_actions_are_stored_in_order_and_replay(db):
    full = play_record()
    with GameStore(db) as store:
        gid = store.new_game(GameRecord(game="knockabout", seed=3, players=full.players))
        for ply, action in enumerate(full.actions):
            store.append(gid, ply, action)
        store.finish(gid, full.result)
    with GameStore(db) as store:
        got = store.get(gid)
    assert got.actions == full.actions and got.status == "finished"
    assert got.replay().to_position() == full.replay().to_position()
    assert got.replay().result() == full.result


def test_append_refuses_gaps_and_overwrites(db):
    with GameStore(db) as store:
        gid = store.new_game(GameRecord(game="knockabout"))
        store.append(gid, 0, "roll 1-5")
        with pytest.raises(StoreError, match="has 1 actions"):
            store.append(gid, 0, "roll 2-5")
        with pytest.raises(StoreError, match="has 1 actions"):
            store.append(gid, 2, "J6-S")
        assert store.get(gid).actions == ["roll 1-5"]


def test_undo_truncates_and_reopens_a_finished_game(db):
    full = play_record()
    with GameStore(db) as store:
        gid = store.new_game(full)
        store.finish(gid, full.result)
        store.truncate(gid, len(full.actions) - 1)
        record = store.get(gid)
        assert record.actions == full.actions[:-1] and record.status == "playing"
        assert store.last_unfinished() == gid


def test_export_import_round_trip(db, tmp_path):
    full = play_record("dodgeball", seed=5, options={"setup": "quick"})
    with GameStore(db) as store:
        gid = store.new_game(full)
        text = store.get(gid).to_json()
    data = json.loads(text)
    assert data["format"] == "knockboard-game" and data["version"] == 1
    assert data["final_position"] == full.replay().to_position()
    again = GameRecord.from_json(text)
    assert (again.game, again.options, again.actions, again.players, again.seed) == \
        (full.game, full.options, full.actions, full.players, full.seed)
    with GameStore(db) as store:
        gid2 = store.new_game(again)
        assert gid2 != gid and store.get(gid2).actions == full.actions


@pytest.mark.parametrize("mutate, message", [
    (lambda d: "not json {", "not JSON"),
    (lambda d: json.dumps([1, 2]), "not a Knockboard game record"),
    (lambda d: json.dumps({**d, "format": "pgn"}), "not a Knockboard game record"),
    (lambda d: json.dumps({**d, "version": 99}), "version 99"),
    (lambda d: json.dumps({**d, "game": "chess"}), "chess"),
    (lambda d: json.dumps({**d, "actions": "F3-N"}), "'actions' must be a list"),
    (lambda d: json.dumps({**d, "actions": d["actions"][:3] + ["Z9-N"]}), "action 4 'Z9-N'"),
    (lambda d: json.dumps({**d, "final_position": "W"}), "not to the recorded final"),
    (lambda d: json.dumps({**d, "status": "won"}), "status 'won'"),
])
def test_import_refuses_foreign_or_broken_records(mutate, message):
    data = json.loads(play_record().to_json())
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(mutate(data))


def test_a_file_that_is_not_sqlite_is_refused_and_left_alone(db):
    db.write_bytes(b"these are my notes, not a database\n")
    with pytest.raises(StoreError, match="not an SQLite file"):
        GameStore(db)
    assert db.read_bytes() == b"these are my notes, not a database\n"


def test_another_programs_sqlite_database_is_refused_and_left_alone(db):
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE photos (name TEXT)")
    con.commit()
    con.close()
    before = db.read_bytes()
    with pytest.raises(StoreError, match="another program"):
        GameStore(db)
    assert db.read_bytes() == before


def test_a_database_from_a_newer_version_is_refused_and_left_alone(db):
    GameStore(db).close()
    con = sqlite3.connect(db)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.close()
    before = db.read_bytes()
    with pytest.raises(StoreError, match="newer Knockboard"):
        GameStore(db)
    assert db.read_bytes() == before


def test_a_damaged_database_is_refused(db):
    GameStore(db).close()
    raw = bytearray(db.read_bytes())
    raw[100:4096] = b"\xff" * (4096 - 100)
    db.write_bytes(bytes(raw))
    with pytest.raises(StoreError):
        with GameStore(db) as store:
            store.summaries()


def test_a_new_database_is_marked_and_migrated(db):
    GameStore(db).close()
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_locked_database_gives_a_clear_error_and_loses_nothing(db):
    with GameStore(db) as store:
        gid = store.new_game(GameRecord(game="knockabout"))
        store.append(gid, 0, "roll 1-5")
    blocker = sqlite3.connect(db, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        store = GameStore(db, timeout=0.05)
    except StoreError as err:
        assert "locked" in str(err)
    else:
        with pytest.raises(StoreError, match="locked"):
            store.append(gid, 1, "J6-S")
        store.close()
    blocker.execute("ROLLBACK")
    blocker.close()
    with GameStore(db) as store:
        assert store.get(gid).actions == ["roll 1-5"]


def _child(db, game, seed):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(HERE.parent / "host"), os.environ.get("PYTHONPATH", "")]))
    return subprocess.Popen([sys.executable, str(HERE / "scripted_game.py"), str(db), game,
                             str(seed)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env)


@pytest.mark.parametrize("game", ["knockabout", "knockoff"])
def test_killed_at_random_points_the_resumed_game_equals_the_uninterrupted_one(tmp_path,
                                                                                game):
    seed = 17
    expected = play_record(game, seed)
    rng = random.Random(2024)
    kills = 0
    for attempt in range(12):
        db = tmp_path / f"{game}-{attempt}.sqlite3"
        child = _child(db, game, seed)
        # let it store a random number of actions, then kill it without warning
        target = rng.randrange(1, len(expected.actions))
        seen = 0
        while seen < target and child.stdout.readline():
            seen += 1
        time.sleep(rng.random() * 0.002)
        child.kill()
        child.wait()
        kills += 1
        with GameStore(db) as store:
            stored = store.get(1).actions
        assert stored == expected.actions[:len(stored)]          # a prefix, nothing garbled
        assert len(stored) >= seen                               # every reported ply kept
        resumed = _child(db, game, seed)
        resumed.communicate(timeout=120)
        assert resumed.returncode == 0
        with GameStore(db) as store:
            final = store.get(1)
        assert final.actions == expected.actions and final.status == "finished"
        assert final.result == expected.result
    assert kills == 12


def test_cli_history_show_export_import(tmp_path, capsys):
    dbfile = tmp_path / "g.sqlite3"
    full = play_record()
    with GameStore(dbfile) as store:
        store.new_game(full)
    assert main(["history", "--db", str(dbfile)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["id", "date", "game", "players", "result", "length"]
    assert lines[1].split()[0] == "1" and lines[1].rstrip().endswith(str(len(full.actions)))
    assert main(["show", "1", "--db", str(dbfile)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2] == "final position: " + full.replay().to_position()
    # a score sheet: the roll-off labelled, then each move with its player's name (White
    # is "A", Black "B": the names the record gives)
    assert out[3] == f"   1. roll-off {full.actions[0]}" and len(out) == 3 + len(full.actions)
    assert out[4].split()[1:] == ["A", full.actions[1]]
    assert {line.split()[1] for line in out[3:]} == {"roll-off", "A", "B", "dice"}
    export = tmp_path / "g.json"
    assert main(["export", "1", "--db", str(dbfile), "-o", str(export)]) == 0
    # the same game again is the game already there, not a copy; --again copies on purpose
    for _ in range(2):
        assert main(["import", str(export), "--db", str(dbfile)]) == 0
        assert "is game 1 already" in capsys.readouterr().out
    assert main(["import", str(export), "--db", str(dbfile), "--again"]) == 0
    assert "as game 2" in capsys.readouterr().out
    with GameStore(dbfile) as store:
        assert store.get(2).actions == full.actions
        assert [row[0] for row in store.summaries()] == [2, 1]
    # a record that differs in anything (here one action fewer) is another game
    data = json.loads(export.read_text())
    data["actions"].pop()
    del data["final_position"]
    export.write_text(json.dumps(data))
    assert main(["import", str(export), "--db", str(dbfile)]) == 0
    assert "as game 3" in capsys.readouterr().out


@pytest.mark.parametrize("argv, culprit", [
    (["show", "7"], "no game 7"),
    (["show", "x"], "'x' is not a game id"),
    (["export", "0"], "'0' is not a game id (a whole number from 1 to"),
    (["show", "99999999999999999999999"], "from 1 to 9223372036854775807"),
    (["import", "/nonexistent/g.json"], "'/nonexistent/g.json': no such file"),
])
def test_cli_record_errors_exit_2_with_one_line(tmp_path, capsys, argv, culprit):
    assert main(argv + ["--db", str(tmp_path / "g.sqlite3")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and culprit in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv, said, status", [
    (["history"], "no games saved yet in", 0),
    (["show", "3"], "no game 3 in", 2),
    (["export", "3"], "no game 3 in", 2),
    (["replay", "3"], "no game 3 in", 2),
    (["resume"], "no unfinished game in", 2),
    (["view", "3"], "no game 3 in", 2),
])
def test_commands_that_only_read_create_no_database(tmp_path, capsys, argv, said, status):
    dbfile = tmp_path / "typo.sqlite3"
    assert main(argv + ["--db", str(dbfile)]) == status
    out, err = capsys.readouterr()
    assert said in (out if status == 0 else err)
    assert not dbfile.exists()


def test_cli_refuses_a_foreign_file_as_database(tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    assert main(["history", "--db", str(notes)]) == 2
    assert "not an SQLite file" in capsys.readouterr().err
    assert notes.read_text() == "hello"


def test_database_location_follows_flag_then_environment(tmp_path, monkeypatch):
    from knockboard.store import default_db_path
    monkeypatch.setenv("KNOCKBOARD_DB", str(tmp_path / "env.sqlite3"))
    assert default_db_path() == tmp_path / "env.sqlite3"
    assert default_db_path(str(tmp_path / "flag.sqlite3")) == tmp_path / "flag.sqlite3"
    monkeypatch.delenv("KNOCKBOARD_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert default_db_path() == tmp_path / "xdg" / "knockboard" / "games.sqlite3"
