"""Dodgeball rules (shared/RULES.md section 2), one test or more per rule and ruling D-1..D-8.

Positions are written in the format of docs/rules/dodgeball.md:
  <stage> 1:<team 1 pawns> 2:<team 2 pawns> balls:<balls> dice:<team 1>/<team 2> [throw:...]
"""

import pytest

from knockboard.games import (CHANCE, TERMINAL, IllegalMoveError, NotationError, OptionError,
                              PositionError, get_game)

GAME = get_game("dodgeball")
START = "setup1 1:- 2:- balls:ab,de,gh dice:-/-"
QUICK = "rolloff 1:b1,c1,d1,e1,f1 2:b8,c8,d8,e8,f8 balls:ab,de,gh dice:-/-"


def at(position, *moves):
    state = GAME.from_position(position)
    for move in moves:
        state.apply_text(move)
    return state


def legal(state):
    return set(state.legal_action_strings())


def moves_of(state, square):
    """Destinations of the MOVE actions of the pawn on `square`, by die: {die: {dest}}."""
    found = {}
    for text in legal(state):
        die, _, rest = text.partition(":")
        if rest.startswith(f"move {square}-"):
            found.setdefault(int(die), set()).add(rest.split("-")[1])
    return found


def fields(state):
    return dict(f.split(":", 1) for f in state.to_position().split()[1:])


# --- set-up and roll-off ---------------------------------------------------------------------

def test_standard_start_is_team_1_placing_on_rank_1():
    state = GAME.new_initial_state()
    assert state.to_position() == START
    assert state.current_player() == 0
    assert legal(state) == {f"place {f}1" for f in "abcdefgh"}


def test_d1_team_1_places_all_five_first_then_team_2_then_the_rolloff():
    state = GAME.new_initial_state()
    for square in ("a1", "c1", "d1", "g1"):
        state.apply_text(f"place {square}")
        assert state.current_player() == 0
    with pytest.raises(IllegalMoveError):
        state.parse_action("place b8")          # team 2 waits for team 1's five pawns
    with pytest.raises(IllegalMoveError):
        state.parse_action("place a1")          # occupied
    with pytest.raises(IllegalMoveError):
        state.parse_action("place b2")          # not the back row
    state.apply_text("place h1")
    assert state.to_position() == "setup2 1:a1,c1,d1,g1,h1 2:- balls:ab,de,gh dice:-/-"
    assert state.current_player() == 1
    assert legal(state) == {f"place {f}8" for f in "abcdefgh"}
    for square in ("a8", "b8", "c8", "d8", "e8"):
        state.apply_text(f"place {square}")
    assert state.to_position() == \
        "rolloff 1:a1,c1,d1,g1,h1 2:a8,b8,c8,d8,e8 balls:ab,de,gh dice:-/-"
    assert state.current_player() == CHANCE


def test_d1_quick_start_option_puts_pawns_on_files_b_to_f():
    state = get_game("dodgeball", setup="quick").new_initial_state()
    assert state.to_position() == QUICK
    assert state.current_player() == CHANCE
    with pytest.raises(OptionError):
        get_game("dodgeball", setup="fast")
    with pytest.raises(OptionError):
        get_game("dodgeball", players=3)


def test_rolloff_is_six_chance_steps_and_the_lower_total_starts():
    state = at(QUICK)
    assert state.chance_outcomes() == [(state.parse_action(f"roll {v}"), 1 / 6)
                                       for v in range(1, 7)]
    for value in (6, 2, 5):
        state.apply_text(f"roll {value}")
    assert fields(state)["dice"] == "256/-"
    assert state.current_player() == CHANCE
    for value in (1, 1, 4):
        state.apply_text(f"roll {value}")
    # 13 against 6: team 2 acts first; both keep the dice they rolled, visible to both.
    assert state.to_position().startswith("turn2 ")
    assert fields(state)["dice"] == "256/114"
    assert state.current_player() == 1
    assert state.dice(0) == ((2, 5, 6), 0) and state.dice(1) == ((1, 1, 4), 0)


def test_rolloff_tie_rolls_again():
    state = at(QUICK, "roll 1", "roll 2", "roll 6", "roll 3", "roll 3", "roll 3")
    assert state.to_position() == QUICK          # 9 = 9: everything is rolled again
    state = at(QUICK, "roll 1", "roll 2", "roll 3", "roll 3", "roll 3", "roll 3")
    assert state.to_position().startswith("turn1 ") and fields(state)["dice"] == "123/333"


def test_the_second_team_plays_its_rolloff_dice_on_its_first_turn():
    state = at(QUICK, "roll 1", "roll 1", "roll 1", "roll 6", "roll 5", "roll 4", "end")
    assert state.current_player() == CHANCE       # team 1 rolls its next dice
    state.apply_text("roll 2")
    assert fields(state)["dice"] == "2/456" and state.current_player() == CHANCE
    state.apply_text("roll 2")
    state.apply_text("roll 3")
    assert state.to_position().startswith("turn2 ")
    assert fields(state)["dice"] == "223/456"


# --- MOVE: king-step paths on the own half (D-2) ---------------------------------------------

def test_move_reaches_every_empty_square_within_n_king_steps():
    state = at("turn1 1:d2 2:h8 balls:ab,de,gh dice:111/111")
    assert moves_of(state, "d2") == {1: {"c1", "d1", "e1", "c2", "e2", "c3", "d3", "e3"}}
    state = at("turn1 1:a1 2:h8 balls:ab,de,gh dice:222/111")
    assert moves_of(state, "a1")[2] == {"b1", "a2", "b2", "c1", "c2", "c3", "a3", "b3"}


def test_a_pawn_is_blocked_from_crossing_the_center_line():
    state = at("turn1 1:c4 2:h8 balls:ab,de,gh dice:666/111")
    destinations = moves_of(state, "c4")[6]
    assert all(d[1] in "1234" for d in destinations)
    assert len(destinations) == 31                # the whole own half but c4 itself
    for target in ("c5", "d5", "c8"):
        with pytest.raises(IllegalMoveError):
            state.parse_action(f"6:move c4-{target}")
    state = at("turn2 1:h1 2:f5 balls:ab,de,gh dice:111/666")
    assert all(d[1] in "5678" for d in moves_of(state, "f5")[6])
    with pytest.raises(IllegalMoveError):
        state.parse_action("6:move f5-f4")


def test_d2_paths_go_around_pawns_no_jumping():
    # a1 hemmed in by its own pawns on a2 and b2: a3 is four steps away (b1 c2 b3 a3).
    state = at("turn1 1:a1,a2,b2 2:h8 balls:ab,de,gh dice:346/111")
    with pytest.raises(IllegalMoveError):
        state.parse_action("3:move a1-a3")
    state.parse_action("4:move a1-a3")
    state = at("turn1 1:a1,a2,b1,b2 2:h8 balls:ab,de,gh dice:666/111")
    assert moves_of(state, "a1") == {}            # walled in: no jump over its own pawns


def test_d2_paths_stay_on_the_own_half():
    # a4 to c4 around the own pawns on b3 and b4: three steps through a5 b5 would be on the
    # opponent's half, so it takes four (a3 b2 c3 c4).
    state = at("turn1 1:a4+,b3,b4 2:h8 balls:de,gh dice:346/111")
    with pytest.raises(IllegalMoveError):
        state.parse_action("3:move a4-c4")
    state.parse_action("4:move a4-c4")


def test_d2_passing_over_a_ball_does_not_pick_it_up():
    # The only two-step path from a1 to c3 crosses b2, where a loose ball lies.
    state = at("turn1 1:a1 2:h8+ balls:gh,b2 dice:222/111", "2:move a1-c3")
    assert fields(state)["1"] == "c3" and fields(state)["balls"] == "gh,b2"
    # Passing a square next to a starting ball does not pick the starting ball up either.
    state = at("turn1 1:a3 2:h8 balls:ab,de,gh dice:222/111", "2:move a3-c4")
    assert fields(state)["1"] == "c4" and fields(state)["balls"] == "ab,de,gh"


def test_balls_do_not_block_a_path():
    state = at("turn1 1:a1 2:h8+ balls:gh,b1 dice:222/111")
    assert "c1" in moves_of(state, "a1")[2]


def test_the_same_pawn_may_act_with_each_die():
    state = at("turn1 1:a1 2:h8 balls:ab,de,gh dice:111/111",
               "1:move a1-b1", "1:move b1-c1", "1:move c1-d1")
    assert fields(state)["1"] == "d1" and state.current_player() == CHANCE


# --- balls: starting balls, loose balls, one ball per pawn (D-3) -------------------------------

TOUCHING = [("ab", "a4"), ("ab", "b4"), ("ab", "a5"), ("ab", "b5"),
            ("de", "d4"), ("de", "e4"), ("de", "d5"), ("de", "e5"),
            ("gh", "g4"), ("gh", "h4"), ("gh", "g5"), ("gh", "h5")]


@pytest.mark.parametrize("ball, square", TOUCHING)
def test_a_starting_ball_is_picked_up_from_each_of_its_four_squares(ball, square):
    file, rank = square
    if rank == "4":
        state = at("turn1 1:%s3 2:c8 balls:ab,de,gh dice:111/111" % file,
                   f"1:move {file}3-{square}")
        pawns = fields(state)["1"]
    else:
        state = at("turn2 1:c1 2:%s6 balls:ab,de,gh dice:111/111" % file,
                   f"1:move {file}6-{square}")
        pawns = fields(state)["2"]
    assert pawns == square + "+"
    assert fields(state)["balls"] == ",".join(b for b in ("ab", "de", "gh") if b != ball)


def test_a_starting_ball_stays_put_until_a_pawn_ends_a_move_next_to_it():
    state = at("turn1 1:c3 2:c8 balls:ab,de,gh dice:111/111", "1:move c3-c4")
    assert fields(state)["1"] == "c4" and fields(state)["balls"] == "ab,de,gh"


def test_d3_a_carrier_does_not_pick_up_a_starting_ball():
    state = at("turn1 1:b3+ 2:c8 balls:ab,gh dice:111/111", "1:move b3-b4")
    assert fields(state)["1"] == "b4+" and fields(state)["balls"] == "ab,gh"
    # The next pawn without a ball that ends a move there picks it up.
    state = at("turn1 1:a3,b4+ 2:c8 balls:ab,gh dice:111/111", "1:move a3-a4")
    assert fields(state)["1"] == "a4+,b4+" and fields(state)["balls"] == "gh"


def test_d3_a_carrier_cannot_end_a_move_on_a_loose_ball():
    state = at("turn1 1:c3+,f3 2:c8 balls:gh,d3 dice:122/111")
    with pytest.raises(IllegalMoveError):
        state.parse_action("1:move c3-d3")
    assert "d3" not in moves_of(state, "c3")[2]
    state.apply_text("2:move f3-d3")              # a pawn without a ball picks it up
    assert fields(state)["1"] == "c3+,d3+" and fields(state)["balls"] == "gh"


def test_a_loose_ball_next_to_a_starting_ball_is_picked_up_first():
    state = at("turn1 1:a3 2:h8+ balls:ab,a4 dice:111/111", "1:move a3-a4")
    assert fields(state)["1"] == "a4+" and fields(state)["balls"] == "ab"


# --- PASS ------------------------------------------------------------------------------------

def test_pass_within_the_die_to_a_teammate_without_a_ball():
    state = at("turn1 1:c1+,c3+,f3 2:h8 balls:gh dice:236/111")
    passes = {t for t in legal(state) if ":pass" in t}
    assert passes == {"3:pass c3-f3", "6:pass c3-f3", "3:pass c1-f3", "6:pass c1-f3"}
    state.apply_text("3:pass c3-f3")
    assert fields(state)["1"] == "c1+,c3,f3+" and fields(state)["dice"] == "26x/111"
    with pytest.raises(IllegalMoveError):
        state.parse_action("3:pass f3-c3")        # the 3 is spent
    state.apply_text("6:pass f3-c3")
    assert fields(state)["1"] == "c1+,c3+,f3"


# --- THROW and its four outcomes ---------------------------------------------------------------

THROW_AT = "turn1 1:a1,c3+ 2:d6,h8 balls:de,gh dice:456/123"


def test_throw_only_by_a_carrier_at_an_opponent_within_the_die():
    state = at("turn1 1:c3+,a1 2:c8,d5 balls:de,gh dice:236/111")
    throws = {t for t in legal(state) if ":throw" in t}
    assert throws == {"2:throw c3-d5", "3:throw c3-d5", "6:throw c3-d5", "6:throw c3-c8"}
    with pytest.raises(IllegalMoveError):
        state.parse_action("2:throw a1-d5")


def test_a_throw_asks_the_target_owner_then_rolls_thrower_then_target():
    state = at(THROW_AT, "4:throw c3-d6")
    assert state.to_position() == \
        "turn1 1:a1,c3 2:d6,h8 balls:de,gh dice:56x/123 throw:c3-d6"
    assert state.current_player() == 1           # in the middle of team 1's turn
    assert legal(state) == {"catch", "dodge"}
    state.apply_text("catch")
    assert state.current_player() == CHANCE
    assert state.to_position().endswith("throw:c3-d6:catch")
    state.apply_text("roll 3")
    assert state.current_player() == CHANCE
    assert state.to_position().endswith("throw:c3-d6:catch:3")


@pytest.mark.parametrize("declared, thrower, target, outcome", [
    ("dodge", 5, 2, "hit"), ("catch", 5, 2, "hit"),      # 1. thrower higher
    ("dodge", 2, 5, "miss"),                             # 2. lower, dodging
    ("catch", 2, 5, "caught"),                           # 3. lower, catching
    ("dodge", 4, 4, "miss"), ("catch", 4, 4, "hit"),     # 4. equal
])
def test_the_four_throw_outcomes(declared, thrower, target, outcome):
    state = at(THROW_AT, "4:throw c3-d6", declared, f"roll {thrower}", f"roll {target}")
    f = fields(state)
    if outcome == "hit":           # the target is out, the ball on the square it left
        assert (f["1"], f["2"], f["balls"]) == ("a1,c3", "h8", "de,gh,d6")
        assert state.current_player() == 0 and f["dice"] == "56x/123"
    elif outcome == "caught":      # the thrower is out, the target carries the ball
        assert (f["1"], f["2"], f["balls"]) == ("a1", "d6+,h8", "de,gh")
        assert state.current_player() == 0
    else:                          # the target's owner places the ball next to the target
        assert (f["1"], f["2"], f["balls"]) == ("a1,c3", "d6,h8", "de,gh")
        assert f["throw"] == f"c3-d6:dodge:{thrower}:{target}"
        assert state.current_player() == 1
        assert legal(state) == {f"ball {s}" for s in
                                ("c5", "d5", "e5", "c6", "e6", "c7", "d7", "e7")}
        state.apply_text("ball e7")
        f = fields(state)
        assert (f["balls"], "throw" in f) == ("de,gh,e7", False)
        assert state.current_player() == 0 and f["dice"] == "56x/123"


def test_d4_a_target_carrying_a_ball_must_dodge():
    state = at("turn1 1:c3+,a1 2:d6+,h8 balls:gh dice:456/123", "4:throw c3-d6")
    assert legal(state) == {"dodge"}
    with pytest.raises(IllegalMoveError, match="catch"):
        state.parse_action("catch")
    with pytest.raises(PositionError, match="D-4"):
        GAME.from_position("turn1 1:a1,c3 2:d6+,h8 balls:gh dice:56x/123 throw:c3-d6:catch")


def test_d5_an_out_carrier_leaves_both_balls_and_a_pawn_picks_up_one():
    state = at("turn1 1:c3+,a1 2:d6+,h8 balls:gh dice:456/123",
               "4:throw c3-d6", "dodge", "roll 6", "roll 1")
    assert fields(state)["balls"] == "gh,d6,d6" and fields(state)["2"] == "h8"
    state = at("turn2 1:a1+ 2:d7 balls:d6,d6 dice:123/456", "4:move d7-d6")
    assert fields(state)["2"] == "d6+" and fields(state)["balls"] == "d6"
    # The pawn now stands on a loose ball; once it has passed or thrown its own, it does not
    # pick that one up without ending a move there.
    state = at("turn2 1:a1 2:d6+,d8 balls:d6,d6 dice:123/456", "4:pass d6-d8")
    assert fields(state)["2"] == "d6,d8+" and fields(state)["balls"] == "d6,d6"


def test_d5_an_out_target_standing_on_a_loose_ball_leaves_three():
    state = at("turn1 1:c3+,a1 2:d6+,h8 balls:d6 dice:456/123",
               "4:throw c3-d6", "dodge", "roll 6", "roll 1")
    assert fields(state)["balls"] == "d6,d6,d6"


def test_d6_a_surrounded_target_sends_the_ball_to_the_nearest_empty_squares():
    state = at("turn1 1:c4+,h1 2:a7,a8,b7,b8,h5 balls:c8,gh dice:456/123",
               "4:throw c4-a8", "dodge", "roll 1", "roll 6")
    # a7 b7 b8 are taken; at distance 2, c8 holds a ball (D-7), the rest is free.
    assert legal(state) == {"ball a6", "ball b6", "ball c6", "ball c7"}
    with pytest.raises(IllegalMoveError, match="a6, b6, c6, c7"):
        state.parse_action("ball c8")
    state.apply_text("ball c6")
    assert fields(state)["balls"] == "gh,c6,c8"


def test_d7_empty_means_no_pawn_and_no_ball_and_either_half_will_do():
    state = at("turn1 1:c4,d3+,e4 2:d5,e6,h8 balls:c6,gh dice:456/123",
               "4:throw d3-d5", "dodge", "roll 2", "roll 2")
    # d5's neighbours: c4, e4 and e6 hold pawns, c6 a ball; d4 is on the thrower's half.
    assert legal(state) == {"ball c5", "ball d4", "ball d6", "ball e5"}
    state.apply_text("ball d4")
    assert fields(state)["balls"] == "gh,c6,d4"
    state.apply_text("5:move c4-d4")              # and team 1 may pick it up
    assert fields(state)["1"] == "d3,d4+,e4"


def test_a_throw_with_the_last_die_resolves_before_the_new_dice_are_rolled():
    state = at("turn1 1:c3+,a1 2:d6,h8 balls:de,gh dice:4xx/123", "4:throw c3-d6")
    assert fields(state)["dice"] == "xxx/123"
    state.apply_text("dodge")
    state.apply_text("roll 3")
    state.apply_text("roll 3")
    state.apply_text("ball d5")
    assert fields(state)["dice"] == "-/123" and state.current_player() == CHANCE


# --- D-8: ending a turn early; the next dice are rolled and shown -----------------------------

def test_d8_end_forfeits_the_unused_dice_and_the_new_dice_are_visible():
    state = at("turn1 1:c3+,a1 2:d6,h8 balls:de,gh dice:456/123")
    assert "end" in legal(state)
    state.apply_text("5:move a1-b1")
    state.apply_text("end")
    assert fields(state)["dice"] == "-/123"
    assert state.current_player() == CHANCE
    for value in (6, 1, 3):
        state.apply_text(f"roll {value}")
    assert state.to_position() == "turn2 1:b1,c3+ 2:d6,h8 balls:de,gh dice:136/123"
    assert state.current_player() == 1


def test_d8_end_with_no_die_spent_is_a_pass():
    state = at("turn2 1:c3+,a1 2:d6,h8 balls:de,gh dice:456/123", "end")
    assert fields(state)["dice"] == "456/-" and state.current_player() == CHANCE


def test_d8_spending_the_third_die_rolls_new_ones():
    state = at("turn1 1:a1 2:h8 balls:ab,de,gh dice:123/456",
               "1:move a1-b1", "2:move b1-c1", "3:move c1-d1")
    assert fields(state)["dice"] == "-/456" and state.current_player() == CHANCE


def test_d8_end_is_the_only_action_when_no_other_is_possible(monkeypatch):
    # Five pawns cannot wall themselves in on their 32 squares, so a MOVE is always possible
    # in real play (the property tests check it); force the case to see the forfeit.
    from knockboard.games.dodgeball import game as dodgeball
    state = at("turn1 1:a1 2:h8 balls:ab,de,gh dice:123/456")
    monkeypatch.setattr(dodgeball, "STEPS", (tuple(() for _ in range(64)),) * 2)
    state._legal = None
    assert state.legal_action_strings() == ["end"]
    state.apply_text("end")
    assert fields(state)["dice"] == "-/456"


# --- the end -----------------------------------------------------------------------------------

def test_the_game_ends_when_the_last_target_is_out():
    state = at("turn1 1:c3+,a1 2:d6 balls:de,gh dice:456/123",
               "4:throw c3-d6", "dodge", "roll 6", "roll 1")
    assert state.current_player() == TERMINAL and state.is_terminal()
    assert state.legal_actions() == [] and state.chance_outcomes() == []
    assert state.returns() == [1.0, -1.0] and state.result() == "Team 1 wins"
    assert state.to_position() == "turn1 1:a1,c3 2:- balls:de,gh,d6 dice:56x/123"
    assert GAME.from_position(state.to_position()).is_terminal()
    with pytest.raises(IllegalMoveError, match="over"):
        state.parse_action("5:move a1-b1")


def test_the_game_ends_when_the_last_thrower_is_caught():
    state = at("turn1 1:c3+ 2:d6,h8 balls:de,gh dice:4xx/123",
               "4:throw c3-d6", "catch", "roll 1", "roll 6")
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]
    assert state.result() == "Team 2 wins"
    assert state.to_position() == "turn1 1:- 2:d6+,h8 balls:de,gh dice:xxx/123"


def test_returns_are_zero_while_the_game_goes_on():
    state = GAME.new_initial_state()
    assert state.returns() == [0.0, 0.0] and state.result() is None


# --- notation, position format ---------------------------------------------------------------

def test_notation_is_forgiving_about_case_and_spaces():
    state = at(THROW_AT)
    assert state.parse_action("  4:THROW  c3-d6 ") == state.parse_action("4:throw c3-d6")


@pytest.mark.parametrize("text", ["", "move b1-c3", "7:move b1-c3", "3:move b1-c9",
                                  "3:jump b1-c3", "roll 0", "roll", "ball", "ball i1",
                                  "place", "catch it", "3 : move b1-c3"])
def test_text_that_is_not_notation(text):
    with pytest.raises(NotationError):
        at(THROW_AT).parse_action(text)


def test_an_illegal_move_leaves_the_state_unchanged():
    state = at(THROW_AT)
    before = state.to_position()
    with pytest.raises(IllegalMoveError, match="acts with dice 4, 5, 6"):
        state.apply_text("3:move a1-b1")          # no die shows 3
    with pytest.raises(IllegalMoveError):
        state.apply(12345678)                     # not an action at all
    with pytest.raises(IllegalMoveError, match="a die roll is due"):
        at(QUICK).apply_text("place a1")
    assert state.to_position() == before and state.history == []


def test_positions_are_normalised():
    state = GAME.from_position("  turn1   1:c3+,a1 2:h8,d6 balls:gh,de dice:645/312 ")
    assert state.to_position() == "turn1 1:a1,c3+ 2:d6,h8 balls:de,gh dice:456/123"


@pytest.mark.parametrize("position, message", [
    ("", "5 or 6 fields"),
    ("play1 1:- 2:- balls:ab,de,gh dice:-/-", "stage"),
    ("turn1 2:a1 1:h8 balls:ab,de,gh dice:123/456", "start with '1:'"),
    ("turn1 1:a9 2:h8 balls:ab,de,gh dice:123/456", "'a9' is not a square"),
    ("turn1 1:a1,a1 2:h8 balls:ab,de,gh dice:123/456", "two pawns on a1"),
    ("turn1 1:a5 2:h8 balls:ab,de,gh dice:123/456", "outside its half"),
    ("turn1 1:a1,b1,c1,d1,e1,f1 2:h8 balls:ab,de,gh dice:123/456", "at most 5"),
    ("turn1 1:a1 2:h8 balls:ab,de dice:123/456", "2 balls"),
    ("turn1 1:a1+ 2:h8 balls:ab,de,gh dice:123/456", "4 balls"),
    ("turn1 1:a1 2:h8 balls:ab,ab,gh dice:123/456", "listed twice"),
    ("turn1 1:a1 2:h8 balls:ab,de,gh dice:1234/456", "dice"),
    ("turn1 1:a1 2:h8 balls:ab,de,gh dice:7/456", "dice"),
    ("turn1 1:a1 2:h8 balls:ab,de,gh dice:/456", "dice"),
    ("turn1 1:a1 2:h8 balls:ab,de,gh dice:123/45", "three unspent dice"),
    ("turn1 1:a1 2:h8 balls:ab,de,gh dice:123/45x", "three unspent dice"),
    ("turn1 1:a1 2:h8 balls:ab,de,gh dice:xxx/456", "spent all its dice"),
    ("turn1 1:a1 2:h8 balls:ab,de,gh dice:1x/456", "three dice"),
    ("turn1 1:- 2:- balls:ab,de,gh dice:123/456", "both teams"),
    ("turn1 1:- 2:h8+ balls:de,gh dice:-/456", "game is over"),
    ("setup1 1:a1,b1,c1,d1,e1 2:- balls:ab,de,gh dice:-/-", "team 1 places"),
    ("setup2 1:a1 2:- balls:ab,de,gh dice:-/-", "team 1 places"),
    ("setup1 1:a2 2:- balls:ab,de,gh dice:-/-", "back rows"),
    ("setup1 1:- 2:- balls:ab,de,gh dice:1/-", "no dice"),
    ("rolloff 1:a1 2:h8 balls:ab,de,gh dice:-/-", "five pawns"),
    ("rolloff " + QUICK[8:-8] + "dice:12/3", "roll-off dice"),
    ("rolloff " + QUICK[8:-8] + "dice:123/456", "roll-off dice"),
    ("rolloff 1:b1+,c1,d1,e1,f1 2:b8,c8,d8,e8,f8 balls:de,gh dice:-/-", "center line"),
    (THROW_AT + " throw:c3", "throw:<from>-<to>"),
    (THROW_AT + " foo", "throw:<from>-<to>"),
    ("turn1 1:a1,c3 2:d6,h8 balls:de,gh dice:456/123 throw:c3-d6", "spent one"),
    ("turn1 1:a1,c3 2:d6,h8 balls:de,gh dice:56x/123 throw:d6-c3", "thrower"),
    ("turn1 1:a1,c3 2:d6,h8 balls:de,gh dice:56x/123 throw:c3-a1", "target"),
    ("turn1 1:a1,c3 2:d6,h8 balls:de,gh dice:56x/123 throw:c3-d6:catch:5:2", "decided"),
    ("turn1 1:a1,c3 2:d6,h8 balls:de,gh dice:56x/123 throw:c3-d6:dodge:5:2", "decided"),
    ("turn1 1:a1,c3+ 2:d6,h8 balls:de dice:56x/123 throw:c3-d6", "in the air"),
    ("turn1 1:a1 2:c6 balls:de,gh dice:-/456 throw:a1-c6", "spent one"),
    ("turn1 1:a1 2:h8 balls:de,gh dice:1xx/456 throw:a1-h8", "out of range"),
])
def test_bad_positions_are_rejected_with_a_reason(position, message):
    with pytest.raises(PositionError, match=message):
        GAME.from_position(position)
