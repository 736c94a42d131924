"""An edit in a game's record: saved as played, resumed exactly, stepped through by the
replay, exported and imported, shown; and a database of the schema before edits opens."""

import json
import sqlite3

from knockboard import cli
from knockboard.session import RecordSaver, Session, Setup
from knockboard.session.replay import Replay
from knockboard.store import GameRecord, GameStore, RecordError
from knockboard.store.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION

import pytest

from autoplay import AutoPlayer
from board_driver import VirtualBoard
from test_session_board import menu_choose

SEATS = ["greedy", "random"]
EDIT_AFTER = 20          # the edit is made at the first editable moment after this many plies


def start(vb, saver=None, actions=(), resumed=False):
    vb.session = Session(vb.board, Setup("knockabout", {}, list(SEATS), seed=4),
                         clock=vb.clock, saver=saver, actions=actions, resumed=resumed)
    vb.run(1.0)
    return vb.session


def edit_a_die(vb):
    """Move the die on the lowest-numbered cell to the lowest-numbered empty main cell."""
    s = vb.session
    pieces = s.ui.view(s.state).pieces
    index = {c.space: c.index for c in s.layout.cells}
    src = min(pieces, key=index.get)
    dst = min((c for c in s.layout.cells if c.space not in pieces and c.kind == "main"),
              key=lambda c: c.index).space
    ply = len(s.record.actions)
    menu_choose(vb, "Edit board")
    vb.press_space(src)
    vb.press_space(dst)
    vb.ok()
    assert s.record.actions[ply].startswith("edit ")    # (the bots play on at once)


def play_to_the_edit(vb, player):
    s = vb.session
    while len(s.record.actions) < EDIT_AFTER or s.ui.edit_refusal(s.state) is not None:
        player.act()
    edit_a_die(vb)


@pytest.fixture(scope="module")
def uninterrupted():
    vb = VirtualBoard("knockabout")
    session = start(vb)
    player = AutoPlayer(vb, 4)
    play_to_the_edit(vb, player)
    assert player.play(3000)
    return list(session.record.actions)


def test_a_game_with_an_edit_is_saved_and_resumed_exactly(tmp_path, uninterrupted):
    edits = [a for a in uninterrupted if a.startswith("edit ")]
    assert len(edits) == 1
    edit_ply = uninterrupted.index(edits[0])
    for n, extra in enumerate((0, 6)):               # cut right after the edit, and later
        db = tmp_path / f"run{n}.sqlite3"
        with GameStore(db) as store:                  # the first host, stopped after the cut
            vb = VirtualBoard("knockabout")
            first = start(vb, RecordSaver(store))
            player = AutoPlayer(vb, 7)
            play_to_the_edit(vb, player)
            while len(first.record.actions) < edit_ply + 1 + extra:
                player.act()
            assert store.get(1).actions == first.record.actions
            assert store.get(1).actions[edit_ply] == edits[0]
        with GameStore(db) as store:                  # the next host resumes it
            record = store.get(1)
            if n == 0:
                undo_across_the_edit_after_resuming(record.actions, edit_ply)
            vb = VirtualBoard("knockabout")
            resumed = start(vb, RecordSaver(store, 1), record.actions, True)
            assert resumed.mode == "edit"          # (view only if a die is to be rolled)
            assert vb.oled()[0][1:] == ["resumed: set up", "OK=done"]
            vb.ok()
            assert AutoPlayer(vb, 11).play(3000)
            assert resumed.record.actions == uninterrupted
            assert store.get(1).actions == uninterrupted and store.get(1).status == "finished"


def undo_across_the_edit_after_resuming(actions, edit_ply):
    """A resumed game takes back its edit (and what came before it) like a move."""
    vb = VirtualBoard("knockabout")              # people in both seats: nothing plays on
    session = vb.session = Session(vb.board, Setup("knockabout", {}, [], seed=4),
                                   clock=vb.clock, actions=actions, resumed=True)
    vb.run(0.5)
    vb.ok()
    while len(session.record.actions) > edit_ply - 2:
        vb.back(hold=1.2)
        while session.animation is not None:
            vb.ok()
        assert session.state.to_position() == session.record.replay().to_position()
    assert session.state.history == session.record.replay().history


def test_the_replay_steps_over_an_edit_both_ways(tmp_path, uninterrupted):
    record = GameRecord(game="knockabout", actions=list(uninterrupted))
    edit_ply = next(i for i, a in enumerate(uninterrupted) if a.startswith("edit ")) + 1
    vb = VirtualBoard("knockabout")
    replay = vb.session = Replay(vb.board, record)
    vb.run(0.3)
    for ply in range(1, edit_ply + 3):
        vb.ok()
        assert replay.state.to_position() == record.replay(ply).to_position()
    vb.back()
    vb.back()
    assert vb.oled()[0][1].startswith("edit ")      # the edit, as what the players changed
    assert replay.state.to_position() == record.replay(edit_ply).to_position()
    vb.back()
    assert replay.state.to_position() == record.replay(edit_ply - 1).to_position()
    assert len(replay.state.history) == edit_ply - 1     # the state from before the edit
    for ply in range(edit_ply, len(uninterrupted) + 1):
        vb.ok()
    assert replay.state.to_position() == record.replay().to_position()


def test_export_import_and_show_keep_the_edit(tmp_path, capsys, uninterrupted):
    db = str(tmp_path / "g.sqlite3")
    with GameStore(db) as store:
        store.new_game(GameRecord(game="knockabout", seed=4, actions=list(uninterrupted),
                                  players=[{"name": "White", "bot": "greedy"},
                                           {"name": "Black", "bot": "random"}]))
    out = tmp_path / "g.json"
    assert cli.main(["export", "1", "--db", db, "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["version"] == 2 and data["actions"] == uninterrupted
    # into another database: in this one the same game is game 1 already (not copied)
    other = str(tmp_path / "other.sqlite3")
    assert cli.main(["import", str(out), "--db", other]) == 0
    assert cli.main(["show", "1", "--db", other]) == 0
    shown = capsys.readouterr().out
    edit_ply = next(i for i, a in enumerate(uninterrupted) if a.startswith("edit "))
    assert f"{edit_ply + 1:4}. edit     {uninterrupted[edit_ply][5:]}" in shown
    with GameStore(other) as store:
        again = store.get(1)
    assert again.actions == uninterrupted
    assert again.replay().to_position() == data["final_position"]
    # an edit entry is checked by the engine like any action; version 1 has no edits
    bad = dict(data, actions=uninterrupted[:edit_ply] + ["edit W A1:W4=1 A1:B4=1"],
               final_position=None)
    del bad["final_position"]
    with pytest.raises(RecordError, match=f"action {edit_ply + 1} 'edit W A1:W4=1"):
        GameRecord.from_json(json.dumps(bad))
    with pytest.raises(RecordError, match="version 1 record has no edit entries"):
        GameRecord.from_json(json.dumps(dict(data, version=1)))


def test_a_database_of_the_schema_before_edits_opens_and_takes_edits(tmp_path):
    assert SCHEMA_VERSION >= 3      # 3 took edits; later versions add what edits do not use
    db = tmp_path / "old.sqlite3"
    con = sqlite3.connect(db)                          # what Knockboard wrote before edits
    for step in range(2):
        con.executescript(f"BEGIN; {MIGRATIONS[step]}; PRAGMA application_id={APPLICATION_ID};"
                          f" PRAGMA user_version={step + 1}; COMMIT;")
    con.execute("INSERT INTO games (game, options, players, seed, started, status) VALUES "
                "('knockabout', '{}', ?, 4, '2026-01-01T00:00:00+00:00', 'playing')",
                (json.dumps([{"name": "White", "bot": "greedy"},
                             {"name": "Black", "bot": "random"}]),))
    for ply, action in enumerate(("roll 1-5", "J6-S")):
        con.execute("INSERT INTO actions VALUES (1, ?, ?, '2026-01-01T00:00:01+00:00')",
                    (ply, action))
    con.commit()
    con.close()
    with GameStore(db) as store:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        record = store.get(1)
        assert record.actions == ["roll 1-5", "J6-S"] and record.dice == "electronic"
        assert record.rounds is None                   # schema 5: a single game, not a match
        vb = VirtualBoard("knockabout")
        session = start(vb, RecordSaver(store, 1), record.actions, True)
        vb.ok()
        player = AutoPlayer(vb, 3)
        play_to_the_edit(vb, player)
        assert store.get(1).actions == session.record.actions
        assert any(a.startswith("edit ") for a in store.get(1).actions)
