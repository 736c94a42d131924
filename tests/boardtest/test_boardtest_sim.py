"""The guided board test on the simulator, with a cell board's faults built in
(knockboard.sim.faults) and a maker who answers what the board asks."""

import io

from knockboard.boardtest import BoardTest, Wiring
from knockboard.sim import VirtualBoard
from knockboard.sim.faults import Faults

from .maker import Maker, run_with_maker


def board_test(game, faults=None, cells=None):
    vb = VirtualBoard(game)
    if faults is not None:
        vb.inject(faults)
    board = vb.connect()

    def look():
        return vb.oled().lines, {i: any(rgb) for i, rgb in enumerate(vb.leds())}
    maker = Maker(look, vb.tap, vb.layout)
    out = io.StringIO()
    test = BoardTest(Wiring.of(game), cells)
    try:
        findings = run_with_maker(board, test, maker, out, settle=lambda: vb.advance(30))
    finally:
        board.close()
    return findings, out.getvalue(), vb


def test_a_good_board_has_no_findings_and_says_so():
    findings, out, vb = board_test("knockoff")
    assert findings == []
    assert "every LED lit and every key answered" in out
    assert vb.oled().lines[:2] == ("Board test done", "no faults found")


def kinds(findings):
    return [f.kind for f in findings]


def test_a_chain_broken_at_one_led_is_named_with_the_joints_to_check():
    findings, _, vb = board_test("knockoff", Faults(dark_chain_from=20))
    assert kinds(findings) == ["chain"]
    text = findings[0].text
    space = vb.layout.space_of(20)
    assert text.startswith(f"LED 20 (cell {space} (20)) does not light, nor any LED after it")
    assert "LED 19's DOUT and LED 20's DIN" in text and "5 V/GND at LED 20" in text
    assert vb.oled().lines == ("1 fault(s):", "chain stop 20")


def test_a_chain_dark_from_the_first_led_points_at_the_cable():
    findings, _, _ = board_test("knockoff", Faults(dark_chain_from=0))
    assert kinds(findings) == ["chain"]
    assert "the LED cable (J1 DIN on the cell board" in findings[0].text


def test_one_dark_led_that_passes_the_data_on_is_told_apart_from_a_broken_chain():
    findings, _, _ = board_test("knockoff", Faults(dark_leds=frozenset({5})))
    assert kinds(findings) == ["led"]
    assert "the LEDs after it do" in findings[0].text and "Replace LED 5" in findings[0].text


def test_swapped_column_lines_are_named_as_a_pair():
    w = Wiring.of("knockoff")
    findings, _, _ = board_test("knockoff", Faults(swapped_cols=((2, 5),)))
    swaps = [f for f in findings if f.kind == "wrong-cell"]
    assert len(swaps) == 1
    assert "column line COL2 (J3 pin 3) and the column line COL5 (J3 pin 6) look swapped" \
        in swaps[0].text
    # the last row has no column 5: its column-2 key answers nowhere, and is named so
    last = [c for c in w.in_row(w.rows - 1) if w.col(c) == 2]
    assert [f.text for f in findings if f.kind == "dead-key"] == [
        f for f in (x.text for x in findings) if f"cell {w.spaces[last[0]]}" in f]


def test_swapped_row_lines_are_named_as_a_pair():
    findings, _, _ = board_test("ko", Faults(swapped_rows=((1, 2),)), cells=range(0, 36))
    assert kinds(findings) == ["wrong-cell"]
    assert "row line ROW1 (J2 pin 2) and the row line ROW2 (J2 pin 3) look swapped" \
        in findings[0].text


def test_a_dead_key_names_its_diode_and_lines():
    w = Wiring.of("knockoff")
    findings, _, _ = board_test("knockoff", Faults(dead_keys=frozenset({17})))
    assert kinds(findings) == ["dead-key"]
    text = findings[0].text
    assert text.startswith(f"The key of cell {w.spaces[17]} (17) never answers")
    assert "D17 (1N4148W" in text and "ROW2 (J2 pin 3)" in text and "COL1 (J3 pin 2)" in text


def test_an_open_row_line_is_one_finding_not_a_key_each():
    w = Wiring.of("knockoff")
    findings, _, _ = board_test("knockoff", Faults(dead_keys=frozenset(w.in_row(3))))
    assert kinds(findings) == ["dead-row"]
    assert "row line ROW3 (J2 pin 4) is open" in findings[0].text


def test_two_column_lines_touching_answer_two_cells_at_once():
    w = Wiring.of("knockoff")
    findings, _, _ = board_test("knockoff", Faults(bridged_cols=((3, 4),)), cells=range(0, 16))
    twice = [f for f in findings if f.kind == "two-at-once"]
    assert kinds(findings) == ["two-at-once"] * 4          # cells 3, 4, 11, 12
    assert "column line COL3 (J3 pin 4) and the column line COL4 (J3 pin 5) touch" \
        in twice[0].text
    assert f"at cell {w.spaces[3]} (3) and cell {w.spaces[4]} (4) at once" in twice[0].text


def test_a_column_line_shorted_to_ground_shows_as_every_key_of_it_held():
    findings, _, _ = board_test("knockoff", Faults(grounded_cols=frozenset({6})),
                                cells=range(0, 10))
    assert kinds(findings) == ["stuck"]
    assert "column line COL6 (J3 pin 7) is held low" in findings[0].text


def test_several_faults_at_once_are_all_named():
    findings, out, _ = board_test("knockoff", Faults(dark_chain_from=30, swapped_cols=((0, 1),),
                                                     dead_keys=frozenset({9})))
    assert sorted(set(kinds(findings))) == ["chain", "dead-key", "wrong-cell"]
    assert "Board test: 3 fault(s) to fix:" in out
