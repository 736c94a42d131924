"""`knockboard play --remote` and `resume --remote` from the command line, on a simulated
board (the place where the command would open a board is given the test's virtual board),
against a home of the test's own: the game is played, stopped, resumed from the database
and finished, and the database ends with the other home's record."""

from knockboard import cli
from knockboard.store import GameRecord, GameStore

from autoplay import AutoPlayer
from board_driver import VirtualBoard
from broker import password
from homes import BoardHome, run_until

GAME, OPTIONS = "knockoff", {"players": 2}
STOP_AT = 20


def _board_runner(other, until):
    """Stands in for cli.play._run_on_board: the session on a virtual board, played by an
    AutoPlayer beside the other home until `until(session)`."""
    def run(args, game, seed, make_runner, out, view=None):
        vb = VirtualBoard(game)
        vb.session = make_runner(vb.board)
        # the session runs on the board's simulated time, as in the other session tests: a
        # held OK (a pass among moves) lasts as long for the session as for the board
        vb.session.clock = vb.clock
        player = AutoPlayer(vb, 3, aggressive=True)

        def step():
            s = vb.session
            if s.mode == "edit":              # resumed: the pieces stand as lit; OK
                vb.ok()
                return True
            if s.mode in ("remote", "over"):
                vb.run(0.02)
                return False
            return player.act()
        run_until([step, other.step], lambda: until(vb.session), "the command's game")
        return 0
    return run


def test_play_stopped_then_resume_finishes_the_game_with_the_other_homes_record(
        make_broker, tmp_path, monkeypatch, capsys):
    broker = make_broker({"cli": 2})
    other = BoardHome(broker, "cli", GAME, OPTIONS, [1], 5).start()
    db = str(tmp_path / "home2.sqlite3")
    pw = tmp_path / "pw"
    pw.write_text(password("cli-2") + "\n")
    url = broker.url("cli", "cli-2")
    try:
        monkeypatch.setattr("knockboard.cli.play._run_on_board", _board_runner(
            other, lambda s: len(s.record.actions) >= STOP_AT))
        assert cli.main(["play", GAME, "--db", db, "--remote", url, "--seat", "2",
                         "--password-file", str(pw)]) == 0
        with GameStore(db) as store:
            gid = store.last_unfinished()
            assert len(store.get(gid).actions) >= STOP_AT
            assert [p["bot"] for p in store.get(gid).players] == ["remote", None]
        monkeypatch.setattr("knockboard.cli.play._run_on_board", _board_runner(
            other, lambda s: s.mode == "over" and other.session.mode == "over"))
        assert cli.main(["resume", "--db", db, "--remote", url,
                         "--password-file", str(pw)]) == 0
        with GameStore(db) as store:
            record = store.get(gid)
        assert record.status == "finished"
        assert record.actions == other.game.record == other.session.record.actions
        assert "refused" not in capsys.readouterr().out
        # the record leaves this home and comes back whole, its remote seat with it
        exported = tmp_path / "game.json"
        assert cli.main(["export", str(gid), "--db", db, "-o", str(exported)]) == 0
        assert cli.main(["import", str(exported), "--db", db]) == 0
        with GameStore(db) as store:
            copy = store.get(max(row[0] for row in store.summaries()))
        assert copy.actions == record.actions and copy.players == record.players
    finally:
        other.close()


def test_resume_refuses_a_local_game_in_a_room(tmp_path, capsys):
    db = str(tmp_path / "g.sqlite3")
    with GameStore(db) as store:
        store.new_game(GameRecord.seated(GAME, OPTIONS, ["human", "human"], 1))
    assert cli.main(["resume", "--db", db, "--remote", "mqtt://127.0.0.1:1/cli"]) == 2
    err = capsys.readouterr().err
    assert "played at one board" in err and len(err.strip().splitlines()) == 1


def test_resume_refuses_a_remote_game_without_its_room_or_with_other_seats(tmp_path, capsys):
    db = str(tmp_path / "g.sqlite3")
    with GameStore(db) as store:
        store.new_game(GameRecord.seated(GAME, OPTIONS, ["remote", "human"], 1))
    assert cli.main(["resume", "--db", db]) == 2
    assert "give its --remote URL" in capsys.readouterr().err
    assert cli.main(["resume", "--db", db, "--remote", "mqtt://127.0.0.1:1/r",
                     "--seat", "1"]) == 2
    assert "this board played seat 2" in capsys.readouterr().err
