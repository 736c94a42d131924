"""The board test from the board's own menu: chosen with MENU and OK during a game, run by
the session on the board being played on, its findings on the OLED and the terminal, and
the game as it was afterwards."""

import io

from knockboard.session import Session, Setup
from knockboard.sim import VirtualBoard
from knockboard.sim.faults import Faults

from .maker import Maker


def test_the_menu_runs_the_board_test_and_names_a_swapped_column_and_a_dark_led():
    vb = VirtualBoard("dodgeball", seed=1)
    vb.inject(Faults(swapped_cols=((1, 6),), dark_leds=frozenset({3})))
    board = vb.connect()
    out = io.StringIO()
    session = Session(board, Setup("dodgeball", {}, []), clock=vb.clock, out=out)

    def run(seconds):
        end = vb.clock() + seconds
        while vb.clock() < end:
            session.step(0.01)

    def tap(target):
        vb.press(target)
        run(0.04)
        vb.release(target)
        run(0.04)
    run(1.0)
    position = session.state.to_position()
    tap("MENU")
    for _ in range(30):
        if vb.oled().lines[1] == "> Board test":
            break
        tap("MENU")
    tap("OK")
    assert session.mode == "board-test"

    def look():
        return vb.oled().lines, {i: any(rgb) for i, rgb in enumerate(vb.leds())}
    maker = Maker(look, tap, vb.layout)
    for _ in range(2000):
        if vb.oled().lines[0].startswith("fault "):
            break
        maker.act()
        run(0.03)
    lines = vb.oled().lines
    assert lines == ("fault 1/2", "LED 3 dark", "MENU=nxt OK=back")
    tap("MENU")
    assert vb.oled().lines[1] == "col 1<>6"
    text = out.getvalue()
    assert "Board test: 2 fault(s) to fix" in text
    assert "column line COL1 (J3 pin 2) and the column line COL6 (J3 pin 7) look swapped" \
        in text
    assert "LED 3 (cell d1 (3)) does not light, but the LEDs after it do" in text
    tap("OK")
    assert session.mode == "playing" and session.state.to_position() == position
    board.close()
