"""Saving games from the session: every action stored as played, undo cuts the store,
a game resumed from the store goes on exactly, and a replay steps through on the board."""

from board_driver import VirtualBoard
from autoplay import AutoPlayer

from knockboard import cli
from knockboard.session import RecordSaver, Session, Setup
from knockboard.session.replay import Replay
from knockboard.store import GameStore

SEATS = ["greedy", "random"]


def start(vb, game, saver=None, actions=(), resumed=False, seats=SEATS, seed=4):
    vb.session = Session(vb.board, Setup(game, {}, list(seats), seed=seed), clock=vb.clock,
                         saver=saver, actions=actions, resumed=resumed)
    vb.run(1.0)
    return vb.session


def test_every_action_is_in_the_store_as_it_is_played(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        vb = VirtualBoard("knockabout")
        session = start(vb, "knockabout", RecordSaver(store))
        player = AutoPlayer(vb, 4)
        for _ in range(40):
            player.act()
            assert store.get(1).actions == session.record.actions
        assert player.play(3000)
        saved = store.get(1)
        assert saved.actions == session.record.actions and saved.status == "finished"
        assert saved.result == session.state.result()
        assert [p["bot"] for p in saved.players] == SEATS


def test_show_names_the_seats_by_colour_in_its_players_result_and_moves(tmp_path, capsys):
    """Knock-Off's engine numbers its seats P1, P2; the players know them by colour, and
    `show` says what they would."""
    db = tmp_path / "g.sqlite3"
    with GameStore(db) as store:
        vb = VirtualBoard("knockoff")
        session = start(vb, "knockoff", RecordSaver(store))
        assert AutoPlayer(vb, 4).play(3000)
        assert session.record.result in ("Red wins", "Green wins")
    assert cli.main(["show", "1", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "game 1: Knock-Off  Red (greedy), Green (random)"
    assert f"result {session.record.result}" in lines[1]
    moves = [line.split()[1] for line in lines[3:]]
    assert {"Red", "Green", "roll-off"} <= set(moves) and not {"P1", "P2"} & set(moves)


def test_the_session_keeps_the_record_the_store_holds(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        vb = VirtualBoard("knockoff")
        session = start(vb, "knockoff", RecordSaver(store), seats=["human", "greedy"])
        player = AutoPlayer(vb, 3)
        for _ in range(20):
            player.act()
        assert dict(store.get(1).to_dict(), started="") == session.record.to_dict()
        assert player.play(3000)
        saved = store.get(1).to_dict()
        assert saved["status"] == "finished" and saved["ended"]
        assert dict(saved, started="", ended=None) == session.record.to_dict()


def test_undo_takes_the_actions_out_of_the_store(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        vb = VirtualBoard("knockabout")
        session = start(vb, "knockabout", RecordSaver(store), seats=["human", "greedy"])
        player = AutoPlayer(vb, 2)
        while len([a for a in session.record.actors if a == 0]) < 3:
            player.act()
        before = len(store.get(1).actions)
        vb.back(hold=1.2)                           # BACK held: undo
        after = store.get(1).actions
        assert len(after) < before and after == session.record.actions


def test_a_game_resumed_from_the_store_goes_on_exactly(tmp_path):
    vb = VirtualBoard("knockabout")
    uninterrupted = start(vb, "knockabout")
    assert AutoPlayer(vb, 4).play(3000)
    expected = list(uninterrupted.record.actions)
    for n, cut in enumerate((3, 25, len(expected) - 2)):
        db = tmp_path / f"run{n}.sqlite3"
        with GameStore(db) as store:                # the first host, killed after `cut`
            vb = VirtualBoard("knockabout")
            first = start(vb, "knockabout", RecordSaver(store))
            player = AutoPlayer(vb, 7)
            while len(first.record.actions) < cut:
                player.act()
            assert store.get(1).actions == first.record.actions
        with GameStore(db) as store:                # the next host resumes it
            record = store.get(1)
            vb = VirtualBoard("knockabout")
            resumed = start(vb, "knockabout", RecordSaver(store, 1), record.actions, True)
            assert resumed.mode == "edit" and "resumed" in vb.text()
            lit = vb.lit()
            assert lit, "the board shows where the pieces must stand"
            vb.ok()
            assert AutoPlayer(vb, 11).play(3000)
            assert resumed.record.actions == expected
            assert store.get(1).actions == expected and store.get(1).status == "finished"


def test_replay_steps_through_a_saved_game_on_the_board(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        vb = VirtualBoard("knockabout")
        session = start(vb, "knockabout", RecordSaver(store))
        AutoPlayer(vb, 4).play(3000)
        record = store.get(1)
    vb = VirtualBoard("knockabout")
    vb.session = Replay(vb.board, record)
    vb.run(0.5)
    assert vb.text().startswith(f"Replay 0/{len(record.actions)}")
    layout = session.layout
    total = len(record.actions)
    for ply in range(1, total + 1):                 # every position of the game
        vb.ok()
        state = record.replay(ply)
        assert vb.text().startswith(f"Replay {ply}/{total}")
        assert record.actions[ply - 1][:16] in vb.text()
        dice = {layout.cell(name).index for name in _occupied(state)}
        assert vb.lit() == dice
    vb.ok()                                          # past the end: refused, nothing moves
    assert vb.text().startswith(f"Replay {total}/{total}")
    vb.back()
    assert vb.text().startswith(f"Replay {total - 1}/")
    vb.menu()
    assert vb.session.running is False


def _occupied(state):
    from knockboard.games.knockabout.board import CELL_NAMES
    return [CELL_NAMES[c] for c, code in enumerate(state.board) if code]


def test_resume_and_replay_commands_refuse_what_they_cannot_do(tmp_path, capsys):
    db = str(tmp_path / "g.sqlite3")
    assert cli.main(["resume", "--db", db]) == 2
    assert "no unfinished game" in capsys.readouterr().err
    assert cli.main(["replay", "4", "--db", db]) == 2
    assert "no game 4" in capsys.readouterr().err
    assert cli.main(["replay", "x", "--db", db]) == 2
    assert "not a game id" in capsys.readouterr().err
    with GameStore(db) as store:
        vb = VirtualBoard("knockabout")
        start(vb, "knockabout", RecordSaver(store))
        AutoPlayer(vb, 4).play(3000)
    assert cli.main(["resume", "1", "--db", db]) == 2
    err = capsys.readouterr().err
    assert "game 1 is finished" in err and len(err.strip().splitlines()) == 1


def test_the_strong_bot_takes_a_seat_and_its_games_resume_exactly(tmp_path):
    seats = ["strong", "greedy"]
    vb = VirtualBoard("knockoff")
    whole = start(vb, "knockoff", seats=seats, seed=6)
    assert AutoPlayer(vb, 1).play(3000)
    expected = list(whole.record.actions)
    with GameStore(tmp_path / "g.sqlite3") as store:
        vb = VirtualBoard("knockoff")
        first = start(vb, "knockoff", RecordSaver(store), seats=seats, seed=6)
        player = AutoPlayer(vb, 2)
        while len(first.record.actions) < len(expected) // 2:
            player.act()
        vb = VirtualBoard("knockoff")
        resumed = start(vb, "knockoff", RecordSaver(store, 1), store.get(1).actions, True,
                        seats=seats, seed=6)
        vb.ok()
        assert AutoPlayer(vb, 3).play(3000)
        assert resumed.record.actions == expected
