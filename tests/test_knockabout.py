"""KNOCKabout: board, set-up, every ruling, the sheet's examples, notation and positions."""

import pytest

from knockboard.games import (CHANCE, TERMINAL, IllegalMoveError, NotationError, PositionError,
                              get_game)
from knockboard.games.knockabout.notation import PASS
from knockboard.games.knockabout.board import (CELL_INDEX, CELL_NAMES, COLUMN_HEIGHT, IS_GUTTER,
                                               RING, STEP)

GAME = get_game("knockabout")


def play(position, *moves):
    state = GAME.from_position(position)
    for move in moves:
        state.apply_text(move)
    return state


# --- board ----------------------------------------------------------------------------------

def test_board_has_127_cells_in_13_columns_of_7_to_13():
    assert len(CELL_NAMES) == 127
    assert [COLUMN_HEIGHT[c] for c in "ABCDEFGHIJKLM"] == [7, 8, 9, 10, 11, 12, 13, 12, 11,
                                                           10, 9, 8, 7]
    assert CELL_NAMES[0] == "A1" and CELL_NAMES[-1] == "M7" and "G13" in CELL_INDEX


def test_gutter_is_first_and_last_of_every_column_and_columns_a_and_m():
    expected = set()
    for col in "ABCDEFGHIJKLM":
        n = COLUMN_HEIGHT[col]
        rows = range(1, n + 1) if col in "AM" else (1, n)
        expected |= {f"{col}{k}" for k in rows}
    assert {CELL_NAMES[i] for i in range(127) if IS_GUTTER[i]} == expected
    assert len(expected) == 36


def test_directions_follow_the_axial_deltas():
    # N goes up a column; NE from F6 (q=-1, r=1) is (0, 0) = G7; SE is (0, 1) = G6.
    f6 = CELL_INDEX["F6"]
    names = [CELL_NAMES[n] for n in STEP[f6]]
    assert names == ["F7", "G7", "G6", "F5", "E5", "E6"]   # N NE SE S SW NW


def test_ring_is_a_closed_loop_of_adjacent_gutter_cells():
    assert len(RING) == 36 and len(set(RING)) == 36
    for a, b in zip(RING, RING[1:] + RING[:1]):
        assert b in STEP[a]


# --- set-up ---------------------------------------------------------------------------------

STANDARD = ("W D5:W4=1 D6:B4=1 E4:W6=2 E8:B6=2 F3:W8=3 F6:W4=1 F7:B4=1 F10:B8=3 G5:W6=2 "
            "G9:B6=2 H3:W8=3 H6:W4=1 H7:B4=1 H10:B8=3 I4:W6=2 I8:B6=2 J5:W4=1 J6:B4=1")


def test_standard_setup_matches_rules_and_black_mirrors_white():
    # Written out by hand from RULES.md: Black's rows are n - k + 1 in a column of n cells.
    assert GAME.analysis_start().to_position() == STANDARD


def test_standard_start_has_54_moves_for_white():
    state = GAME.analysis_start()
    assert state.current_player() == 0
    assert len(state.legal_actions()) == 9 * 6


# --- moves and collisions (the sheet's examples) --------------------------------------------

def test_straight_move_goes_exactly_the_face_value():
    assert play("W D5:W4=3 M1:B4=1", "D5-N").to_position() == "B D8:W4=3 M1:B4=1"


def test_move_without_collision_rerolls_nothing_and_passes_the_turn():
    # G5 is (q=0, r=2); SE keeps r: (1, 2) is H4 and (2, 2) is I3, as columns shrink.
    state = play("W G5:W6=2 M1:B4=1", "G5-SE")
    assert state.to_position() == "B I3:W6=2 M1:B4=1"
    assert state.current_player() == 1


def test_sheet_d8_showing_4_moves_one_cell_and_passes_three_to_a_d4():
    state = play("W F3:W8=4 F5:W4=1 M1:B4=1", "F3-N")
    assert state.to_position() == "W F4:W8=4 F8:W4=1 M1:B4=1 roll:F8"
    assert state.current_player() == CHANCE
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == \
        ["roll 1", "roll 2", "roll 3", "roll 4"]
    assert all(abs(p - 0.25) < 1e-12 for _, p in state.chance_outcomes())
    state.apply_text("roll 3")
    assert state.to_position() == "B F4:W8=4 F8:W4=3 M1:B4=1"


def test_moving_into_an_adjacent_die_gives_it_the_full_count():
    state = play("W F3:W8=2 F4:B6=5 M1:B4=1", "F3-N")
    assert state.to_position() == "W F3:W8=2 F6:B6=5 M1:B4=1 roll:F6"


def test_sheet_chain_knocks_enemy_d6_into_gutter_only_last_die_rerolled():
    # d8 (7) at F5 -> F6, hits the friendly d4 at F7 which goes to F8 and hits Black's d6 at
    # F9; the d6 takes the last 3+: F10, F11, F12 (the gutter) and stops there.
    state = play("W F5:W8=7 F7:W4=2 F9:B6=3 M1:B4=1", "F5-N")
    assert state.to_position() == "W F6:W8=7 F8:W4=2 F12:B6=3 M1:B4=1 roll:F12"
    assert state.chance_outcomes()[-1][0] - state.chance_outcomes()[0][0] == 5   # a d6
    state.apply_text("roll 6")
    assert state.to_position() == "B F6:W8=7 F8:W4=2 F12:B6=6 M1:B4=1"
    assert state.in_gutter == [0, 2]


def test_die_entering_the_gutter_stops_there_with_movement_left():
    assert play("W F10:W8=8 M1:B4=1", "F10-N").to_position() == "B F12:W8=8 M1:B4=1"


def test_sheet_chain_into_an_occupied_gutter_cell():
    # The d6 pushed towards F12 stops on F11; the die in the gutter is the last one hit.
    state = play("W F8:W8=4 F9:B6=1 F12:B4=2 M1:B4=1", "F8-N")
    assert state.to_position() == "W F8:W8=4 F11:B6=1 F12:B4=2 M1:B4=1 roll:F12"
    assert [a for a, _ in state.chance_outcomes()] == state.legal_actions()
    assert len(state.legal_actions()) == 4


def test_occupied_gutter_next_to_the_mover():
    state = play("W F11:W6=3 F12:B4=2 M1:B4=1", "F11-N")
    assert state.to_position() == "W F11:W6=3 F12:B4=2 M1:B4=1 roll:F12"


def test_sheet_gutter_die_moves_around_the_corner_into_another_gutter_die():
    # A5 up column A: A6, A7 (the corner), round to B8, then C9 holds a d4 which takes the
    # remaining 2 along the ring: D10, E11.
    state = play("W A5:W8=5 C9:B4=1 M1:B4=1", "A5-N")
    assert state.to_position() == "W B8:W8=5 E11:B4=1 M1:B4=1 roll:E11"


def test_gutter_die_moves_the_other_way_round():
    state = play("W A5:W4=3 M1:B4=1", "A5-S")
    assert state.to_position() == "B A2:W4=3 M1:B4=1"


def test_gutter_corner_directions_are_the_first_step_along_the_ring():
    state = GAME.from_position("W A7:W4=2 M1:B4=1")
    assert sorted(state.legal_action_strings()) == ["A7-NE", "A7-S"]
    assert play("W A7:W4=2 M1:B4=1", "A7-NE").to_position() == "B C9:W4=2 M1:B4=1"
    with pytest.raises(IllegalMoveError, match="only moves along the gutter"):
        state.parse_action("A7-N")


def test_gutter_dice_never_leave_the_gutter_towards_the_board():
    with pytest.raises(IllegalMoveError):
        GAME.from_position("W A4:W4=2 M1:B4=1").parse_action("A4-SE")


def test_each_main_board_die_has_six_moves_even_into_the_gutter():
    state = GAME.from_position("W G7:W8=8 A2:B4=1")     # A2 is on no line through G7
    assert len(state.legal_actions()) == 6
    for move in state.legal_action_strings():
        after = play("W G7:W8=8 A2:B4=1", move)
        assert after.in_gutter[0] == 1       # 8 steps from the centre always reach the gutter


# --- end and rulings K-1..K-4 --------------------------------------------------------------

FOUR_BLACK_IN_GUTTER = "A1:B4=1 A2:B4=1 A3:B4=1 A4:B4=1"


def test_five_in_the_gutter_loses():
    state = play(f"W {FOUR_BLACK_IN_GUTTER} F10:B6=1 F11:W4=1 G7:W8=1", "F11-SE")
    # no collision: F11 -> G11? F11 is (q=-1, r=-4); SE is (0, -4) = G11, main board.
    assert state.winner() is None
    state = play(f"W {FOUR_BLACK_IN_GUTTER} F10:B6=1 F9:W4=2 G7:W8=1", "F9-N")
    assert state.to_position().endswith("roll:F12")
    assert state.current_player() == CHANCE and state.result() is None   # K-2
    state.apply_text("roll 2")
    assert state.current_player() == TERMINAL
    assert state.result() == "White wins" and state.returns() == [1.0, -1.0]
    assert state.legal_actions() == []


def test_K1_both_players_at_five_the_mover_loses():
    five_white = "B1:W4=1 B8:W4=1 C1:W4=1 C9:W4=1 D1:W6=1"
    five_black = "E1:B4=1 E11:B4=1 F1:B4=1 F12:B4=1 G1:B6=1"
    # After a move by White (Black to move) both have five: White, the mover, loses.
    state = GAME.from_position(f"B {five_white} {five_black} G7:W8=1")
    assert state.result() == "Black wins"
    # The same with White's reroll still pending: decided by the roll (K-2), then K-1.
    state = GAME.from_position(f"W {five_white} {five_black} G7:W8=1 roll:G7")
    assert state.current_player() == CHANCE
    state.apply_text("roll 5")
    assert state.result() == "Black wins"


def test_K2_result_waits_for_the_reroll_even_when_the_gutter_count_is_reached():
    state = GAME.from_position(f"W {FOUR_BLACK_IN_GUTTER} F12:B6=2 G7:W8=1 roll:F12")
    assert state.winner() is None and not state.is_terminal()
    state.apply_text("roll 1")
    assert state.winner() == 0


def test_K3_roll_off_decides_who_starts_ties_roll_again():
    state = get_game("knockabout").new_initial_state()
    assert state.current_player() == CHANCE
    assert state.to_position() == "-" + STANDARD[1:]
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 36 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    state.apply_text("roll 3-3")
    assert state.current_player() == CHANCE
    state.apply_text("roll 2-5")
    assert state.current_player() == 1 and state.to_position() == "B" + STANDARD[1:]
    state.undo()
    state.apply_text("roll 6-1")
    assert state.current_player() == 0


def test_K3_option_fixes_white_to_start():
    state = get_game("knockabout", first="white").new_initial_state()
    assert state.current_player() == 0 and state.to_position() == STANDARD


def test_K4_a_player_without_a_legal_move_passes():
    state = GAME.from_position("W G7:B8=1")
    assert state.legal_action_strings() == ["pass"]
    state.apply_text("pass")
    assert state.to_position() == "B G7:B8=1" and state.history == [PASS]
    with pytest.raises(IllegalMoveError, match="K-4"):
        state.parse_action("pass")


# --- bad input changes nothing --------------------------------------------------------------

@pytest.mark.parametrize("text, culprit", [
    ("", "empty"),
    ("X D5:W4=1", "'X'"),
    ("W D5:W4=9", "D5:W4=9"),
    ("W D5:W5=1", "D5:W5=1"),
    ("W Z5:W4=1", "Z5"),
    ("W A8:W4=1", "A8"),
    ("W D5:W4=1 D5:B4=1", "already holds"),
    ("W D5:W4=1  D6:B4=1", "empty"),
    ("W D5:W4=1 roll:D6", "no die there"),
    ("W D5:W4=1 roll:D5 D6:B4=1", "nothing may follow"),
    ("W A1:W8=1 A2:W8=1 A3:W8=1", "only 2 d8"),
    ("- D5:W4=1 roll:D5", "before the roll-off"),
    ("W D5:W4=1 roll:Q1", "Q1"),
])
def test_malformed_positions_are_refused_with_the_culprit_named(text, culprit):
    with pytest.raises(PositionError, match=culprit.replace("(", r"\(")):
        GAME.from_position(text)


@pytest.mark.parametrize("text", ["F3N", "F3-X", "f3-N", "roll", "roll 9", "roll x", "F3-N ",
                                  "Z3-N", "F14-N", "roll 1-7", ""])
def test_malformed_notation(text):
    state = GAME.analysis_start()
    with pytest.raises(NotationError):
        state.parse_action(text)


@pytest.mark.parametrize("position, move, why", [
    (STANDARD, "E8-S", "no White die on E8"),
    (STANDARD, "E5-S", "no White die on E5"),
    (STANDARD, "roll 3", "no roll is due"),
    ("W F4:W8=4 F8:W4=1 M1:B4=1 roll:F8", "F4-N", "reroll"),
    ("W F4:W8=4 F8:W4=1 M1:B4=1 roll:F8", "roll 5", "roll 1..4"),
    ("- " + STANDARD[2:], "F3-N", "roll-off"),
])
def test_illegal_moves_raise_and_change_nothing(position, move, why):
    state = GAME.from_position(position)
    with pytest.raises(IllegalMoveError, match=why):
        state.apply_text(move)
    assert state.to_position() == position and state.history == []


def test_no_move_after_the_end():
    state = GAME.from_position(f"W {FOUR_BLACK_IN_GUTTER} A5:B6=1 G7:W8=1")
    assert state.is_terminal()
    with pytest.raises(IllegalMoveError, match="over"):
        state.apply_text("G7-N")


def test_unknown_option_is_refused():
    from knockboard.games import OptionError
    with pytest.raises(OptionError, match="first"):
        get_game("knockabout", first="black")
    with pytest.raises(OptionError, match="speed"):
        get_game("knockabout", speed=3)


def test_move_trace_lists_the_chain_in_order_and_changes_nothing():
    state = GAME.from_position("W F5:W8=7 F7:W4=2 F9:B6=3 M1:B4=1")
    before = state.to_position()
    assert state.move_trace(state.parse_action("F5-N")) == [
        ("F5", "F6"), ("F7", "F8"), ("F9", "F12")]
    assert state.to_position() == before and state.history == []
    # moving into an adjacent die: the mover does not move, the hit die takes it all
    state = GAME.from_position("W F3:W8=4 F4:B4=1 M1:B4=1")
    assert state.move_trace(state.parse_action("F3-N")) == [("F4", "F8")]
    assert state.move_trace(state.parse_action("F3-S")) == [("F3", "F1")]
    with pytest.raises(IllegalMoveError):
        state.move_trace(CELL_INDEX["M1"] * 6)   # Black's die, White to move
