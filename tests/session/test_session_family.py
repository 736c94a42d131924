"""What the terminal and the board say to a family at the table (issue 47, findings 10 and
13): the game-over screen says how to leave and Quit ends the program; the roll-off log
names who rolls and who starts by what rule (Dodgeball's lower total explained); an
unplugged and replugged board is said in the terminal; a resumed game logs "Resumed game
N", a new one "saved as game N"; `hint`/`analyze` read the number of players from a
position that says it; `knockboard boardtest` pages every fault on the OLED."""

import io
import sys
import threading
import time
from pathlib import Path

import pytest
from board_driver import VirtualBoard

from knockboard.cli import main
from knockboard.session import RecordSaver, Session, Setup
from knockboard.sim import VirtualBoard as SimBoard
from knockboard.sim import start_pty
from knockboard.sim.faults import Faults
from knockboard.store import GameStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scripted_game import finished_actions  # noqa: E402


def menu_go(vb, label):
    for _ in range(30):
        if vb.oled()[0][1] == "> " + label:
            return
        vb.menu()
    raise AssertionError(f"no menu entry {label!r}: {vb.text()}")


def test_game_over_says_how_to_leave_and_quit_ends_the_session():
    vb = VirtualBoard("knockabout")
    out = io.StringIO()
    session = vb.start("knockabout", actions=finished_actions("knockabout", 2), out=out)
    assert session.mode == "over"
    assert vb.oled()[0] == ["Game over", session.ui.result(session.state), "MENU=new or quit"]
    assert "MENU on the board: New game, or Quit to end this program" in out.getvalue()
    vb.menu()
    menu_go(vb, "Quit")
    assert session.running
    vb.ok()
    assert not session.running and "\nQuit\n" in out.getvalue()


def test_quit_is_offered_only_once_the_game_is_over():
    vb = VirtualBoard("knockabout")
    vb.start("knockabout", seed=1)
    vb.menu()
    labels = set()
    for _ in range(20):
        labels.add(vb.oled()[0][1])
        vb.menu()
    assert "> New game" in labels and "> Quit" not in labels


@pytest.mark.parametrize("game, options, said", [
    ("knockabout", {}, r"roll-off: White and Black \(each a d6\): roll \d-\d"),
    ("ko", {"players": 3, "quick_start": 1}, r"roll-off: Red: roll \d \d"),
    ("knockoff", {"players": 3}, r"roll-off: Green: roll \d"),
    ("dodgeball", {"setup": "quick"}, r"roll-off: (Blue|Orange): roll \d"),
])
def test_the_roll_off_log_names_who_rolls_and_who_starts(game, options, said):
    import re
    out = io.StringIO()
    session = Session(SimBoard(game).connect(), Setup(game, options, [], seed=4), out=out)
    text = out.getvalue()
    assert re.search(said, text), text
    starter = session.ui.seat_name(session.state.view().turn)
    assert f"roll-off over: {starter} starts" in text


def test_dodgeballs_roll_off_says_the_lower_total_starts_and_why():
    out = io.StringIO()
    session = Session(SimBoard("dodgeball").connect(),
                      Setup("dodgeball", {"setup": "quick"}, [], seed=4), out=out)
    view = session.state.view()
    totals = [sum(dice) for dice, _ in view.team_dice]
    first = view.turn
    assert totals[first] < totals[1 - first]
    assert (f"roll-off over: {session.ui.seat_name(first)} starts: the lower total "
            f"({totals[first]} against {totals[1 - first]}) plays first, since each team "
            "keeps the dice it rolled for its first turn") in out.getvalue()


def test_unplugging_and_replugging_the_board_is_said_in_the_terminal():
    vb = VirtualBoard("knockoff")
    out = io.StringIO()
    vb.start("knockoff", seed=2, out=out)
    vb.unplug()
    vb.run(5.0)                         # the host gives a silent board up after 3 s
    assert out.getvalue().count("The board is unplugged or not answering") == 1
    vb.plug()
    vb.run(6.0)
    assert out.getvalue().count("The board is back: it shows the game again") == 1


def test_a_new_game_says_where_it_is_saved_and_a_resumed_one_says_resumed(tmp_path):
    db = tmp_path / "g.sqlite3"
    with GameStore(db) as store:
        out = io.StringIO()
        saver = RecordSaver(store)
        session = Session(SimBoard("knockabout").connect(),
                          Setup("knockabout", {}, [], seed=1), saver=saver, out=out)
        assert out.getvalue().splitlines()[0].startswith("New game: KNOCKabout, seats ")
        assert out.getvalue().splitlines()[0].endswith("; saved as game 1")
        actions = list(session.record.actions)
        saver.close()
        out = io.StringIO()
        saver = RecordSaver(store, 1)
        Session(SimBoard("knockabout").connect(), Setup("knockabout", {}, [], seed=1),
                saver=saver, out=out, actions=actions, resumed=True)
        saver.close()
    assert out.getvalue().splitlines()[0].startswith("Resumed game 1: KNOCKabout, seats ")
    assert "New game" not in out.getvalue()


@pytest.mark.parametrize("argv", [
    ["analyze", "ko", "--position", "RB/GY rolloff:?,? R=a1,b1,c1,a2,b2,a3 "
     "B=i1,h1,g1,i2,h2,i3 G=a9,b9,c9,a8,b8,a7 Y=i9,h9,g9,i8,h8,i7"],
    ["analyze", "knockoff", "--position", "-/-/- P1 roll", "roll 2-3"],
    ["hint", "knockoff", "--position", "-/- P1 roll", "roll 2-3", "--iterations", "20"],
])
def test_hint_and_analyze_take_the_players_from_the_position(argv, capsys):
    assert main(argv) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert out.strip()


def test_an_explicit_players_option_still_wins_and_is_refused_against_the_position(capsys):
    assert main(["analyze", "knockoff", "--position", "-/- P1 roll", "--option",
                 "players=3"]) == 2
    _, err = capsys.readouterr()
    assert err == ("knockboard analyze: '-/-': lists 2 players but the game has 3 (set the "
                   "option players=2)\n")


def test_boardtest_pages_every_fault_on_the_oled():
    dead = {0, 9, 18}                 # one key dead on each of three rows
    with start_pty("knockoff", seed=1) as port:
        vb = port.board
        vb.inject(Faults(dead_keys=frozenset(dead)))
        result = []
        command = threading.Thread(target=lambda: result.append(main(
            ["boardtest", "--board", "knockoff", "--port", port.path])), daemon=True)

        def tap(target):
            vb.press(target)
            time.sleep(0.06)
            vb.release(target)

        def wait_for(pred):
            end = time.monotonic() + 10
            while time.monotonic() < end:
                if vb.oled().lines and pred():
                    return
                time.sleep(0.02)
            raise AssertionError(f"never shown: {vb.oled().lines}")
        command.start()
        for k in range(19):
            wait_for(lambda: vb.oled().lines[0].startswith(f"{k + 1}/52 "))
            tap(k)
            if k in dead:             # the key did nothing: MENU says so
                time.sleep(0.3)
                tap("MENU")
        wait_for(lambda: vb.oled().lines[0].startswith("20/52 "))
        tap("OK")                     # ends the test: 3 dead keys and the cells left
        pages = []
        for _ in range(4):
            wait_for(lambda: vb.oled().lines[0].startswith("fault ")
                     and vb.oled().lines[0] not in [p[0] for p in pages])
            pages.append(vb.oled().lines)
            time.sleep(0.1)
            tap("MENU")
        assert command.is_alive()     # it waits for OK on the pages
        tap("OK")
        command.join(10)
    assert result == [1]
    assert [p[:2] for p in pages] == [("fault 1/4", "key 1a dead"), ("fault 2/4", "key 3b dead"),
                                      ("fault 3/4", "key 6d dead"),
                                      ("fault 4/4", "33 not tested")]
    assert all(p[2] == "MENU=nxt OK=end" for p in pages)
