"""`knockboard boardtest` on the simulator's board behind a pseudo-terminal (as a real
board's port), with a fault built in and a person pressing in real time."""

import threading
import time

from knockboard.cli.main import main
from knockboard.sim import start_pty
from knockboard.sim.faults import Faults


def wait_for(pred, seconds=10.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.02)
    raise AssertionError("the board never showed what was waited for")


def test_boardtest_names_a_dead_key_and_the_cells_left_when_ended_early(capsys):
    with start_pty("knockoff", seed=1) as port:
        vb = port.board
        vb.inject(Faults(dead_keys=frozenset({1})))
        result = []
        command = threading.Thread(
            target=lambda: result.append(main(["boardtest", "--board", "knockoff",
                                               "--port", port.path])))
        command.start()

        def tap(target):
            vb.press(target)
            time.sleep(0.06)
            vb.release(target)

        def shows(head):
            return lambda: vb.oled().lines[:1] == (head,)
        wait_for(shows("1/52 1a"))
        tap(0)
        wait_for(shows("2/52 2a"))
        tap(1)                         # the dead key: nothing happens
        time.sleep(0.3)
        assert vb.oled().lines[0] == "2/52 2a"
        tap("MENU")
        wait_for(shows("3/52 3a"))
        tap("OK")                      # ends the test
        command.join(10)
    out = capsys.readouterr().out
    assert result == [1]
    assert "Board test: 2 fault(s) to fix:" in out
    assert "- The key of cell 2a (1) never answers: check SW1's two solder joints" in out
    assert "The test was ended early: 50 cells were not tested (from cell 3a (2))." in out
    assert "1/52 cell 1a (0) lit: press its key" in out


def test_boardtest_refuses_a_board_of_another_game(capsys):
    with start_pty("ko", seed=1) as port:
        assert main(["boardtest", "--board", "knockoff", "--port", port.path]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["knockboard boardtest: the connected board is a 'ko' board, not "
                   "'knockoff' (install its firmware, or give --board ko)"]
