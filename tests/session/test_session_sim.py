"""The session on the simulator (knockboard.sim) and the `knockboard play` command."""

import io
import threading

import pytest

from knockboard import cli
from knockboard.session import Session, Setup
from knockboard.sim import VirtualBoard, start_pty


def test_the_session_plays_on_the_simulators_virtual_board_too():
    vb = VirtualBoard("knockoff", seed=1)
    board = vb.connect()
    session = Session(board, Setup("knockoff", {}, ["human", "greedy"], seed=8),
                      clock=vb.clock, actions=["roll 6", "roll 1", "roll 3-4"])

    def run(seconds):
        end = vb.clock() + seconds
        while vb.clock() < end:
            session.step(0.01)

    run(1.0)
    assert vb.oled().lines[0] == "Red to move"
    home = vb.cell("H1")
    assert home.effect == "pulse" and home.rgb == (255, 0, 0)
    vb.tap("H1")
    run(0.05)
    assert vb.cell("H1").effect == "blink"
    targets = {c.space for c in map(vb.cell, range(vb.cells)) if c.effect == "pulse"}
    legal = {t.split("-")[1] for t in session.state.legal_action_strings() if "-" in t}
    assert targets == legal
    vb.tap(sorted(targets)[0])
    run(0.05)
    assert session.record.actors[3] == 0 and session.record.actions[3].startswith("H1-")
    assert any(name == "ok" for _, name in vb.take_sounds())


def test_play_with_a_missing_port_is_a_clear_error(capsys):
    assert cli.main(["play", "knockabout", "--port", "/dev/no-such-board"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("knockboard play: serial port /dev/no-such-board: cannot open")
    assert "\n" not in err


@pytest.mark.parametrize("argv,message", [
    (["play", "ko", "--players", "5"], "--players 5"),
    (["play", "knockabout", "--players", "3"], "--players 3"),
    (["play", "ko", "--bots", "9"], "a seat is a number 1..4"),
    (["play", "knockoff", "--bots", "2=smart"], "unknown computer player 'smart'"),
    (["play", "knockabout", "--sim", "--port", "x"], "not allowed with"),
    (["play", "chess"], "unknown game 'chess'"),
])
def test_bad_play_arguments_exit_2_with_one_line(capsys, argv, message):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


def test_play_on_a_pty_board_runs_the_session_until_stopped():
    """`knockboard play --port` on the simulator's pseudo-terminal, in real time."""
    from knockboard.cli.play import _run_on_port
    port = start_pty("dodgeball", seed=3)
    out, stop = io.StringIO(), threading.Event()
    setup = Setup("dodgeball", {}, ["human", "human"], seed=3)

    def session(board):
        return Session(board, setup, out=out)
    thread = threading.Thread(target=_run_on_port, args=(port.path, session, stop.is_set))
    thread.start()
    try:
        for _ in range(100):
            if port.board.oled().lines[:1] == ("Blue: place",):
                break
            stop.wait(0.05)
        assert port.board.oled().lines[0] == "Blue: place"
        assert port.board.cell("c1").effect == "pulse"
    finally:
        stop.set()
        thread.join(5)
        port.close()
    assert "New game: Dodgeball" in out.getvalue()
