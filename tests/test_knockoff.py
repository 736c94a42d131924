"""Knock-Off rules (RULES.md section 4): every sheet example and ruling, with hand-derived
expectations.  Board geometry used below, from the arrows of the standard board:
H1->1a; 1a->2a,2b; 2a->3a,3h; 2b->3b,3c; 2c->3c,3b; 3b->4b,4a; 3c->4c,4d; 3e->4e,4f;
4a->5a,5h; 4c->5c,5b; 5a->6a,6b; 5h->6h,6g.  Prices: home->1: 1, home->2: 3, home->3: 6,
home->4: 10, 1->2: 2, 1->3: 5, 2->3: 3, 2->4: 7, 3->4: 4, 3->5: 9, 4->5: 5, 4->6: 11, 5->6: 6.
"""

import pytest

from knockboard.games import (CHANCE, TERMINAL, IllegalMoveError, NotationError, OptionError,
                              PositionError, get_game)
from knockboard.games.base import BoardDataError
from knockboard.games.knockoff.board import STANDARD, KnockoffBoard, get_board

ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def game(players=2, **kw):
    return get_game("knockoff", players=players, **kw)


def pos(text, players=2):
    return game(players).from_position(text)


def legal(state):
    return set(state.legal_action_strings())


def play(state, *moves):
    for m in moves:
        state.apply_text(m)
    return state


def dice(roll):
    a, b = roll
    return f"{a}{b}" + ("+" if a == b else "")


# --- KO-F0: the standard board as data -----------------------------------------------------
def test_KOF0_standard_board_shape():
    b = get_board("standard")
    assert b.num_platforms == 48
    assert b.top == 6
    assert b.home_names == ["H1", "H2", "H3", "H4"]
    assert [b.names[i] for i in range(8)] == [f"1{c}" for c in "abcdefgh"]
    assert sum(len(a) for a in b.arrows) == 5 * 8 * 2 + 4
    assert all(not b.arrows[i] for i in range(b.num_platforms) if b.level[i] == 6)


@pytest.mark.parametrize("src,dsts", [
    ("1a", {"2a", "2b"}), ("1b", {"2b", "2a"}), ("1c", {"2c", "2d"}), ("5h", {"6h", "6g"}),
    ("2b", {"3b", "3c"}), ("2c", {"3c", "3b"}), ("2h", {"3h", "3a"}), ("2a", {"3a", "3h"}),
    ("4d", {"5d", "5e"}), ("3g", {"4g", "4h"}),
    ("H1", {"1a"}), ("H2", {"1c"}), ("H3", {"1e"}), ("H4", {"1g"}),
])
def test_KOF0_arrows_as_listed(src, dsts):
    b = get_board("standard")
    assert {b.names[i] for i in b.arrows[b.index[src]]} == dsts


def test_KOF0_seats_by_player_count():
    b = get_board("standard")
    names = lambda n: [b.names[h] for h in b.seats[n]]  # noqa: E731
    assert names(2) == ["H1", "H3"]
    assert names(3) == ["H1", "H2", "H3"]
    assert names(4) == ["H1", "H2", "H3", "H4"]


def test_KOF0_prices_are_sums_of_levels_climbed():
    b = get_board("standard")
    cost = lambda s, d: b.cost[b.index[s]][b.index[d]]  # noqa: E731
    assert cost("H1", "1a") == 1
    assert cost("H1", "3a") == 6          # example A: 1 + 2 + 3
    assert cost("3c", "5c") == 9          # example B: 4 + 5
    assert cost("4a", "5a") == 5
    assert cost("H1", "6a") == 21
    assert b.index["3e"] not in b.cost[b.index["H1"]]   # no arrowed path H1 -> 3e


def test_KOF0_reach_from_home():
    b = get_board("standard")
    reach = lambda n, c: {b.names[i] for i in b.reach[b.index[n]][c]}  # noqa: E731
    assert reach("H1", 1) == {"1a"}
    assert reach("H1", 3) == {"2a", "2b"}
    assert reach("H1", 6) == {"3a", "3h", "3b", "3c"}
    assert reach("H1", 10) == {"4a", "4b", "4c", "4d", "4g", "4h"}
    assert reach("H1", 2) == set() and reach("H1", 4) == set()


SMALL = """\
# a two-level test board: one home each, three top platforms
homes H1>1a H2>1b
seats 2 H1 H2
arrows 1a>2a,2b,2c 1b>2b,2c,2d
"""


def test_KOF0_another_board_is_data_only():
    g = game(board=SMALL)
    s = g.from_position("-/- P1 dice 13")
    # H1 -> 1a costs 1, H1 -> level 2 costs 1 + 2 = 3; the leap 4 reaches nothing
    assert legal(s) == {"pass", "H1-1a", "H1-2a", "H1-2b", "H1-2c"}
    play(s, "H1-2c")
    assert s.to_position() == "2c/- P1 dice 1"
    s = g.from_position("1a,2a,2b/- P1 dice 24")
    play(s, "1a-2c")                                   # third pawn on the top row
    assert s.to_position() == "2a,2b,2c/- P1 wins"


@pytest.mark.parametrize("text,why", [
    ("homes H1>1a\nseats 2 H1 H1\narrows 1a>2a", "twice"),
    ("homes H1>1a H2>1b\nseats 2 H1 H2\narrows 1a>3a 1b>2b", "climb exactly one level"),
    ("homes H1>2a\nseats 1 H1\narrows 1a>2a", "level 1"),
    ("homes H1>1a\nseats 2 H1 H9\narrows 1a>2a", "unknown home base H9"),
    ("homes H1>1a\nseats 2 H1\narrows 1a>2a", "lists 1"),
    ("homes H1-1a", "H1-1a"),
    ("homes H1>1a\nseats 1 H1\nladders 1a>2a", "ladders"),
    ("seats 1 H1", "no home bases"),
    ("homes H1>1a\nseats 1 H1\nseats 1 H1\narrows 1a>2a", "given twice"),
])
def test_KOF0_bad_board_description(text, why):
    with pytest.raises(BoardDataError, match=why):
        KnockoffBoard(text)
    with pytest.raises(OptionError):
        game(board=text + "\n")


def test_KOF0_standard_text_compiles_to_the_builtin():
    assert KnockoffBoard(STANDARD).arrows == get_board("standard").arrows


def test_options():
    assert game(3).num_players == 3
    with pytest.raises(OptionError):
        game(5)
    with pytest.raises(OptionError):
        game(board="hexagon")
    with pytest.raises(OptionError):
        game(3, board=SMALL)                     # the small board seats 2 only
    assert [game(4).player_name(p) for p in range(4)] == ["P1", "P2", "P3", "P4"]


# --- set-up: roll-off and seats ------------------------------------------------------------
def test_rolloff_highest_starts():
    s = game(2).new_initial_state()
    assert s.current_player() == CHANCE
    assert s.to_position() == "-/- rolloff ??"
    assert s.chance_outcomes() == [(d, pytest.approx(1 / 6)) for d in range(1, 7)]
    play(s, "roll 2", "roll 5")
    assert s.to_position() == "-/- P2 roll"


def test_rolloff_ties_roll_again_only_the_tied():
    s = game(4).new_initial_state()
    play(s, "roll 3", "roll 6", "roll 6", "roll 6")
    assert s.to_position() == "-/-/-/- rolloff -???"
    play(s, "roll 2", "roll 2")
    assert s.to_position() == "-/-/-/- rolloff -22?"
    play(s, "roll 5")
    assert s.to_position() == "-/-/-/- P4 roll"
    s = game(2).new_initial_state()
    play(s, "roll 4", "roll 4")
    assert s.to_position() == "-/- rolloff ??"


def test_rolloff_takes_single_dice_only():
    s = game(2).new_initial_state()
    with pytest.raises(IllegalMoveError, match="roll-off"):
        s.parse_action("roll 3-4")
    with pytest.raises(IllegalMoveError):
        s.parse_action("pass")


def test_turns_go_clockwise_with_seat_homes():
    s = pos("-/-/- P3 dice 12", players=3)
    assert legal(s) == {"pass", "H3-1e", "H3-2e", "H3-2f"}     # 1, or 1 + 2 = 3
    play(s, "pass")
    assert s.to_position() == "-/-/- P1 roll"      # P3 -> P1, wrapping round
    s = pos("-/-/- P2 dice 12", players=3)
    assert legal(s) == {"pass", "H2-1c", "H2-2c", "H2-2d"}
    s = pos("-/- P2 dice 13")                      # 2 players: P2 sits at H3
    assert legal(s) == {"pass", "H3-1e", "H3-2e", "H3-2f"}
    s = pos("-/-/-/- P4 dice 16", players=4)
    play(s, "H4-1g", "pass")
    assert s.to_position() == "-/-/-/1g P1 roll"


def test_turn_roll_outcomes():
    s = pos("-/- P1 roll")
    assert s.current_player() == CHANCE
    out = dict(s.chance_outcomes())
    assert len(out) == 21
    assert out[34] == pytest.approx(2 / 36) and out[55] == pytest.approx(1 / 36)
    assert sum(out.values()) == pytest.approx(1)
    play(s, "roll 4-3")
    assert s.to_position() == "-/- P1 dice 34"
    assert s.current_player() == 0


# --- the sheet's examples ------------------------------------------------------------------
def test_single_level_move_4_to_5_needs_a_5():
    # "(5,#) one of the two dice, or (1,4) or (2,3) the combined value of both dice"
    allowed = {(1, 5), (2, 5), (3, 5), (4, 5), (5, 5), (5, 6), (1, 4), (2, 3)}
    for roll in ALL_ROLLS:
        s = pos(f"4a/- P1 dice {dice(roll)}")
        assert ("4a-5a" in legal(s)) == (roll in allowed), roll


def test_example_A_home_to_level_3_needs_6():
    # "(6,x) or (1,5) or (2,4) or (3,3)"
    allowed = {(1, 6), (2, 6), (3, 6), (4, 6), (5, 6), (6, 6), (1, 5), (2, 4), (3, 3)}
    for roll in ALL_ROLLS:
        s = pos(f"-/- P1 dice {dice(roll)}")
        assert ("H1-3a" in legal(s)) == (roll in allowed), roll


def test_example_A_with_3_3_full_choice():
    s = pos("-/- P1 dice 33+")
    # one die: home -> level 2 (3); both as one leap: home -> level 3 (6)
    assert legal(s) == {"pass", "H1-2a", "H1-2b", "H1-3a", "H1-3b", "H1-3c", "H1-3h"}


def test_example_B_level_3_to_5_needs_9():
    allowed = {(3, 6), (4, 5)}
    for roll in ALL_ROLLS:
        s = pos(f"3c/- P1 dice {dice(roll)}")
        assert ("3c-5c" in legal(s)) == (roll in allowed), roll


def test_example_B1_two_landings_knock_both():
    s = pos("3c/4c,5c P1 dice 45")
    play(s, "3c-4c")                      # the 4 lands on 4c: knocked off
    assert s.to_position() == "4c/5c P1 dice 5"
    play(s, "4c-5c")                      # the 5 lands on 5c: knocked off
    assert s.to_position() == "5c/- P2 roll"
    assert s.home == [3, 4]


def test_example_B1_the_leap_is_also_offered_and_leap_frogs():
    s = pos("3c/4c,5c P1 dice 45")
    assert {"3c-4c", "3c-4d", "3c-5b", "3c-5c", "3c-5d", "3c-5e"} <= legal(s)
    play(s, "3c-5c")
    assert s.to_position() == "5c/4c P2 roll"


def test_example_B2_3_6_leap_frogs_level_4():
    s = pos("3c/4c,5c P1 dice 36")
    assert legal(s) == {"pass", "H1-2a", "H1-2b", "H1-3a", "H1-3b", "H1-3c", "H1-3h",
                        "3c-5b", "3c-5c", "3c-5d", "3c-5e"}
    with pytest.raises(IllegalMoveError, match="costs 4"):
        s.parse_action("3c-4c")
    play(s, "3c-5c")
    assert s.to_position() == "5c/4c P2 roll"   # 4c leap-frogged, 5c knocked off


def test_example_5_5_two_pawns_4_to_5_then_roll_again():
    s = pos("4a,4c/- P1 dice 55+")
    assert legal(s) == {"pass", "4a-5a", "4a-5h", "4c-5b", "4c-5c",
                        "H1-4a", "H1-4b", "H1-4c", "H1-4d", "H1-4g", "H1-4h"}
    play(s, "4a-5a")
    assert s.to_position() == "4c,5a/- P1 dice 5+"
    assert legal(s) == {"pass", "4c-5b", "4c-5c"}      # 5a -> 6 would cost 6
    play(s, "4c-5c")
    assert s.to_position() == "5a,5c/- P1 roll"          # the double's extra roll


def test_example_3_4_revalue_rule():
    s = pos("1a,2c,3e,5a/- P1 dice 34")
    # 3 or 4 or 7 only: never 1&6, 2&5, 1&3&3 ... (1a needs 2 or 5, 5a needs 6)
    assert legal(s) == {"pass", "2c-3b", "2c-3c", "2c-4a", "2c-4b", "2c-4c", "2c-4d",
                        "3e-4e", "3e-4f"}
    for bad, cost in (("1a-2a", 2), ("1a-3a", 5), ("5a-6a", 6)):
        with pytest.raises(IllegalMoveError, match=f"costs {cost}.*3, 4 or 7"):
            s.parse_action(bad)
    play(s, "2c-3c")
    assert s.to_position() == "1a,3c,3e,5a/- P1 dice 4"
    assert legal(s) == {"pass", "3c-4c", "3c-4d", "3e-4e", "3e-4f"}


def test_example_4_6_one_pawn_4_another_6_or_one_10_never_2_and_8():
    s = pos("1a,3e/- P1 dice 46")
    assert legal(s) == {"pass", "H1-3a", "H1-3b", "H1-3c", "H1-3h",
                        "H1-4a", "H1-4b", "H1-4c", "H1-4d", "H1-4g", "H1-4h",
                        "3e-4e", "3e-4f"}
    with pytest.raises(IllegalMoveError, match="costs 2"):
        s.parse_action("1a-2a")
    play(s, "3e-4e", "H1-3a")
    assert s.to_position() == "1a,3a,4e/- P2 roll"


# --- the turn ------------------------------------------------------------------------------
def test_two_single_die_moves_of_the_same_pawn_each_land():
    s = pos("-/2a P1 dice 12")
    play(s, "H1-1a")                      # die 1
    assert legal(s) == {"pass", "1a-2a", "1a-2b"}
    play(s, "1a-2a")                      # die 2 lands on 2a: knocked off
    assert s.to_position() == "2a/- P2 roll"


def test_single_die_multi_level_move_leap_frogs():
    s = pos("1a/2b P1 dice 16")
    play(s, "H1-3c")                      # the 6 alone: H1 -> 1a -> 2b -> 3c
    assert s.to_position() == "1a,3c/2b P1 dice 1"


def test_landing_knocks_own_pawn():
    s = pos("1a,2b/- P1 dice 23")
    play(s, "1a-2b")
    assert s.to_position() == "2b/- P1 dice 3"
    assert s.home[0] == 3


def test_knock_off_from_the_top_row():
    s = pos("5a,6c/6a,6b P1 dice 16")
    play(s, "5a-6a")
    assert s.to_position() == "6a,6c/6b P1 dice 1"
    assert s.home == [2, 3] and s.top == [2, 1]


def test_upwards_rule():
    s = pos("3c/- P1 dice 12")
    with pytest.raises(IllegalMoveError, match="upwards"):
        s.parse_action("3c-2c")
    with pytest.raises(IllegalMoveError, match="upwards"):
        s.parse_action("3c-3d")
    with pytest.raises(IllegalMoveError, match="only go home"):
        s.parse_action("3c-H1")


def test_path_rule():
    s = pos("1a/- P1 dice 23")
    with pytest.raises(IllegalMoveError, match="no arrowed path"):
        s.parse_action("1a-2c")           # costs 2 like the die, but no arrow 1a -> 2c
    assert "1a-2b" in legal(s)


def test_pass_rule_all_or_part():
    s = pos("-/- P1 dice 12")
    play(s, "pass")
    assert s.to_position() == "-/- P2 roll"
    s = pos("-/- P1 dice 12")
    play(s, "H1-1a", "pass")
    assert s.to_position() == "1a/- P2 roll"


def test_pass_is_the_only_action_when_nothing_moves():
    s = pos("6a,6b/- P1 dice 45")         # two pawns at the top, home needs 1, 3, 6 or 10
    assert s.legal_actions() == [0]
    assert legal(s) == {"pass"}


def test_doubles_roll_again_without_moving():
    s = pos("-/- P1 dice 22+")
    play(s, "pass")
    assert s.to_position() == "-/- P1 roll"
    s = pos("-/- P1 dice 11+")
    play(s, "H1-1a", "pass")
    assert s.to_position() == "1a/- P1 roll"
    s = pos("-/- P1 dice 33+")
    play(s, "H1-3c")                      # both dice as one leap, then the extra roll
    assert s.to_position() == "3c/- P1 roll"


def test_leap_uses_both_dice():
    s = pos("2a/- P1 dice 25")
    play(s, "2a-4a")                      # 7 = 2 + 5
    assert s.to_position() == "4a/- P2 roll"


# --- KOF-1 ---------------------------------------------------------------------------------
def test_KOF1_third_pawn_on_top_wins_mid_turn():
    s = pos("5a,6c,6e/- P1 dice 16")
    play(s, "5a-6a")
    assert s.to_position() == "6a,6c,6e/- P1 wins"
    assert s.current_player() == TERMINAL and s.is_terminal()
    assert s.legal_actions() == [] and s.chance_outcomes() == []
    assert s.returns() == [1, -1] and s.result() == "P1 wins"
    with pytest.raises(IllegalMoveError, match="over"):
        s.apply(0)
    with pytest.raises(IllegalMoveError, match="over"):
        s.parse_action("pass")


def test_KOF1_double_gives_no_roll_after_the_win():
    s = pos("5a,6c,6e/- P1 dice 66+")
    play(s, "5a-6b")
    assert s.to_position() == "6b,6c,6e/- P1 wins"


def test_KOF1_win_by_leap_in_4_players():
    s = pos("-/6a,6c,4a/-/- P2 dice 56", players=4)
    play(s, "4a-6h")                      # 11 = 5 + 6: 4a -> 5h -> 6h
    assert s.to_position() == "-/6a,6c,6h/-/- P2 wins"
    assert s.returns() == [-1, 1, -1, -1]


def test_KOF1_not_yet_while_a_top_pawn_is_knocked():
    s = pos("6a,6c/5b,6e P2 dice 16")
    play(s, "5b-6a")                      # P2 knocks P1's 6a: P2 has 2 on top, P1 has 1
    assert s.to_position() == "6c/6a,6e P2 dice 1"
    assert not s.is_terminal()


# --- notation and positions ----------------------------------------------------------------
def test_notation_forms():
    s = pos("-/- P1 roll")
    assert s.action_to_string(s.parse_action("roll 4-3")) == "roll 3-4"
    assert s.parse_action("roll 34") == s.parse_action("roll 3,4") == s.parse_action("ROLL 3 4")
    s = pos("-/- P1 dice 13")
    assert s.action_to_string(s.parse_action(" h1-2A ")) == "H1-2a"
    assert s.action_to_string(0) == "pass"


@pytest.mark.parametrize("text,error,why", [
    ("hop", NotationError, "not Knock-Off notation"),
    ("1a-9z", NotationError, "9z"),
    ("roll 7", NotationError, "not Knock-Off notation"),
    ("roll 3-", NotationError, "not Knock-Off notation"),
    ("roll 3-4", IllegalMoveError, "P1 is moving"),
    ("roll 5", IllegalMoveError, "P1 is moving"),
    ("H3-1e", IllegalMoveError, "H3 is not P1's home base"),
    ("2a-3a", IllegalMoveError, "no pawn of P1 on 2a"),
    ("1e-2e", IllegalMoveError, "no pawn of P1 on 1e"),
])
def test_bad_moves_change_nothing(text, error, why):
    s = pos("1a/1e P1 dice 13")
    before, hist = s.to_position(), list(s.history)
    with pytest.raises(error, match=why):
        s.parse_action(text)
    with pytest.raises(error):
        s.apply_text(text)
    assert s.to_position() == before and s.history == hist


def test_apply_rejects_foreign_values():
    s = pos("1a/1e P1 dice 13")
    before = s.to_position()
    for bad in (12345, -3, 34, 5, "H1-1a", None, 1.5):
        with pytest.raises(IllegalMoveError):
            s.apply(bad)
    assert s.to_position() == before and s.history == []
    with pytest.raises(NotationError):
        s.action_to_string(12345678)
    s = pos("-/- P1 roll")
    with pytest.raises(IllegalMoveError, match="roll two dice"):
        s.apply_text("roll 5")
    with pytest.raises(IllegalMoveError):
        s.apply(0)
    with pytest.raises(IllegalMoveError):
        s.apply(100)


def test_home_without_pawns():
    s = pos("1a,2a,3a,4a/- P1 dice 12")
    with pytest.raises(IllegalMoveError, match="no pawn at home"):
        s.parse_action("H1-1a")


@pytest.mark.parametrize("text,why", [
    ("", "expected"),
    ("-/-", "expected"),
    ("-/-/- P1 roll", "lists 3 players but the game has 2"),
    ("- P1 roll", "Knock-Off has 2-4"),
    ("9z/- P1 roll", "'9z'"),
    ("H1/- P1 roll", "'H1'"),
    ("1a/1a P1 roll", "two pawns"),
    ("1a,2a,3a,4a,5a/- P1 roll", "only 4 pawns"),
    ("-/- P3 roll", "'P3'"),
    ("-/- P1 jump", "'P1 jump'"),
    ("-/- P1 dice 7", "'7'"),
    ("-/- P1 dice 123", "'123'"),
    ("-/- P1 dice 55", "double"),
    ("-/- P1 dice 34+", "only a double"),
    ("-/- P1 wins", "exactly 3"),
    ("6a,6b,6c/- P2 roll", "P1 has 3 pawns on level 6"),
    ("6a,6b,6c/6d,6e,6f P1 wins", "P2 has 3"),
    ("-/- rolloff", "expected 'rolloff <marks>'"),
    ("-/- rolloff ?x", "'\\?x'"),
    ("-/- rolloff 34", "decided"),
    ("-/-/- rolloff ?--", "two players"),
    ("1a/- rolloff ??", "during the roll-off"),
])
def test_bad_positions(text, why):
    players = 3 if text.startswith("-/-/- rolloff") else 2
    with pytest.raises(PositionError, match=why):
        pos(text, players)


def test_positions_are_written_in_canonical_order():
    assert pos("3c,1a/- P2 roll").to_position() == "1a,3c/- P2 roll"
    assert pos("-/- P1 dice 43").to_position() == "-/- P1 dice 34"


def test_rolloff_position_next_roller():
    s = pos("-/-/-/- rolloff -4?-", 4)
    play(s, "roll 4")
    assert s.to_position() == "-/-/-/- rolloff -??-"
    play(s, "roll 1", "roll 3")
    assert s.to_position() == "-/-/-/- P3 roll"


def test_analysis_start_skips_the_rolloff():
    s = game(3).analysis_start()
    assert s.to_position() == "-/-/- P1 roll"
    assert game(3).new_initial_state().to_position() == "-/-/- rolloff ???"
