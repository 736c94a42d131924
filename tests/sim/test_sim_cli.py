"""`knockboard sim` and `knockboard demo`: the headless serial port a host connects to, the
window and its absence, and the demo: the play session with two computer seats, on the
virtual board and in the window."""

import io
import os
import re
import signal
import subprocess
import sys

import pytest

from knockboard.cli import main
from knockboard.demo import run_demo
from knockboard.device import protocol as P
from knockboard.device.board import Board
from knockboard.session import RecordSaver, Session, Setup
from knockboard.session.scene import REST, scaled
from knockboard.session.seats import DEFAULT_BOT
from knockboard.sim import VirtualBoard
from knockboard.store import GameStore

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def knockboard(*args, env=None, preexec_fn=None):
    return subprocess.Popen([sys.executable, "-m", "knockboard.cli", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": os.path.join(ROOT, "host"),
                                 **(env or {})}, preexec_fn=preexec_fn)


def test_headless_sim_serves_a_board_on_a_pty_until_ctrl_c():
    proc = knockboard("sim", "--headless", "--board", "knockoff", "--seed", "4")
    try:
        line = proc.stdout.readline()
        m = re.match(r"knockboard sim: Knock-Off board on (\S+) \(host: knockboard play \.\.\. "
                     r"--port \1\); Ctrl-C ends it$", line.strip())
        assert m, line
        with Board.open(m.group(1)) as board:
            assert (board.info.board, board.info.cells) == ("knockoff", 52)
            board.set_scene(P.Scene.blank(52, 99))
            assert board.flush(3.0)
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=5)
    assert proc.returncode == 0, err


def _ignore_sigint():
    # what a shell's background job (`cmd &`) or a service inherits
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize("ending", [signal.SIGINT, signal.SIGTERM])
def test_headless_sim_ends_cleanly_on_a_signal_even_started_with_sigint_ignored(ending):
    proc = knockboard("sim", "--headless", "--board", "ko", preexec_fn=_ignore_sigint)
    try:
        line = proc.stdout.readline()
        assert line.startswith("knockboard sim: K.O. board on /dev/pts/"), line
    finally:
        proc.send_signal(ending)
        try:
            out, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise AssertionError(f"the simulator did not end on {ending.name}") from None
    assert proc.returncode == 0 and err == "", err


def test_bad_board_is_one_line_and_exit_2(capsys):
    assert main(["sim", "--board", "chess"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "chess" in err and "knockabout" in err and err.count("\n") == 1


def test_without_a_display_sim_says_so_and_demo_plays_in_the_terminal(monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main(["sim"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "no display" in err and "--headless" in err
    assert main(["demo", "--seed", "11", "--delay", "0"]) == 0
    out, _ = capsys.readouterr()
    assert "wins the roll-off and starts" in out


def _demo_session(vb, seed, store=None, pace=0.05):
    """The window demo's session (`cli/demo.py`) on a virtual board in simulated time."""
    setup = Setup("knockabout", {}, [DEFAULT_BOT, DEFAULT_BOT], seed=seed)
    return Session(vb.connect(), setup, clock=vb.clock, pace=pace,
                   saver=RecordSaver(store) if store is not None else None)


def _run(session, vb, seconds):
    end = vb.clock() + seconds
    while vb.clock() < end:
        session.step(0.01)


def test_demo_on_a_board_plays_the_terminal_demos_game_and_saves_it(tmp_path):
    vb = VirtualBoard("knockabout", seed=1)
    store = GameStore(tmp_path / "games.db")
    session = _demo_session(vb, 11, store)
    for _ in range(600):
        if session.mode == "over":
            break
        _run(session, vb, 1.0)
    _run(session, vb, 0.5)                  # the last scene reaches the board
    state = session.state
    assert state.is_terminal(), "two computers with a 0.05 s pace ended no game"
    moves = sum(1 for actor in session.record.actors if actor >= 0)
    text = io.StringIO()
    run_demo(seed=11, delay=0, out=text)
    assert text.getvalue().strip().splitlines()[-1] == f"{state.result()} after {moves} moves."
    # the board shows where every die ended, in its owner's colour
    ui = session.ui
    for cell in vb.layout.cells:
        piece = state.view().piece_at(cell.space)
        want = scaled(ui.color(piece.owner), REST) if piece else (0, 0, 0)
        assert vb.cell(cell.index).rgb == want, cell.space
    assert vb.oled().lines == ("Game over", state.result(), "MENU=new or quit")
    # saved as it was played, finished, with both seats the computer's
    stored = store.get(session.saver.game_id)
    assert stored.actions == session.record.actions and stored.status == "finished"
    assert stored.result == state.result()
    assert [p.get("bot") for p in stored.players] == [DEFAULT_BOT, DEFAULT_BOT]


def test_the_demo_waits_in_the_menu_and_goes_on_after_it():
    vb = VirtualBoard("knockabout", seed=1)
    session = _demo_session(vb, 4, pace=0.2)
    _run(session, vb, 1.0)
    played = len(session.record.actions)
    assert played >= 2 and session.mode == "playing"
    vb.tap("MENU")
    _run(session, vb, 3.0)
    assert session.mode == "menu" and len(session.record.actions) == played
    vb.tap("BACK")
    _run(session, vb, 3.0)
    assert session.mode == "playing" and len(session.record.actions) > played


# Tk's objects freed on another thread than Tk's (the session's) raise in __del__, or abort
# the process when the interpreter itself goes there (Tcl_AsyncDelete)
@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")
def test_demo_opens_the_window_where_there_is_a_display(display, monkeypatch, tmp_path,
                                                         capsys):
    from knockboard.sim import window as sim_window
    monkeypatch.setenv("DISPLAY", display)
    real_run_window, seen = sim_window.run_window, {}

    def run_window(board, *, seed=None, out=sys.stdout, on_ready=None, **kw):
        def ready(port, window):
            on_ready(port, window)          # the demo's session starts on the port

            def look():
                seen["lit"] = len(port.board.lit())
                seen["lines"] = port.board.oled().lines
                seen["pieces"] = len(window.canvas.find_withtag("piece"))
                window.close()
            window.root.after(2500, look)
        return real_run_window(board, seed=seed, out=out, on_ready=ready, **kw)
    monkeypatch.setattr(sim_window, "run_window", run_window)
    db = tmp_path / "games.db"
    assert main(["demo", "--seed", "5", "--delay", "0.05", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("knockboard sim: KNOCKabout board on /dev/pts/")
    assert seen["lit"] >= 9 and seen["lines"], seen
    assert seen["pieces"] >= 18 * 2, seen       # the dice drawn on their cells (disc, face)
    assert out.rstrip().endswith(f"knockboard: saved as game 1 in {db}")
    stored = GameStore(db).get(1)
    assert [p.get("bot") for p in stored.players] == [DEFAULT_BOT, DEFAULT_BOT]
    assert len(stored.actions) >= 4 and stored.replay() is not None
