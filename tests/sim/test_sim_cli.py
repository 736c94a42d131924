"""`knockboard sim` and `knockboard demo`: the headless serial port a host connects to, the
window and its absence, and the demo played on the virtual board."""

import io
import os
import re
import signal
import subprocess
import sys

from knockboard.board_demo import OWNER_RGB, play_on_board
from knockboard.cli import main
from knockboard.demo import run_demo
from knockboard.device import protocol as P
from knockboard.device.board import Board
from knockboard.sim import VirtualBoard

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def knockboard(*args, env=None):
    return subprocess.Popen([sys.executable, "-m", "knockboard.cli", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": os.path.join(ROOT, "host"),
                                 **(env or {})})


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


def test_demo_on_a_board_plays_the_terminal_demos_game():
    vb = VirtualBoard("knockabout", seed=1)
    result, state = play_on_board(vb.connect(), seed=11, delay=0.05)
    text = io.StringIO()
    run_demo(seed=11, delay=0, out=text)
    assert text.getvalue().strip().splitlines()[-1] == result + "."
    # the board shows where every die ended, in its owner's colour
    for cell in vb.layout.cells:
        die = state.die_at(cell.space)
        assert vb.cell(cell.index).rgb == (OWNER_RGB[die[0]] if die else (0, 0, 0)), cell.space
    assert vb.oled().lines == (state.result(), result.split(" ", 2)[2])


def test_demo_opens_the_window_where_there_is_a_display(display, monkeypatch):
    from knockboard.board_demo import run_window_demo
    monkeypatch.setenv("DISPLAY", display)
    seen = {}

    def on_ready(port, window):
        def look():
            seen["lit"] = len(port.board.lit())
            seen["lines"] = port.board.oled().lines
            window.close()
        window.root.after(2500, look)
    out = io.StringIO()
    assert run_window_demo(seed=5, delay=0.05, out=out, on_ready=on_ready) == 0
    assert out.getvalue().startswith("knockboard sim: KNOCKabout board on /dev/pts/")
    assert seen["lit"] >= 9 and seen["lines"], seen
