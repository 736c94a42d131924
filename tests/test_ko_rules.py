"""K.O. rules (RULES.md section 3): set-up, roll-off, the sheet's examples, every ruling,
path rules, knock-outs, frozen pieces, skipped seats, the end and the scores."""

import random

import pytest

from knockboard.games import CHANCE, TERMINAL, GameError, IllegalMoveError, get_game

from ko_helpers import POINTS, STARTS, expected_moves, quick_start, state_of


def moves(state):
    return set(state.legal_action_strings())


def pieces_moving(state):
    return {m[:2] for m in state.legal_action_strings()}


def start4(letter="R"):
    """Everybody on the quick-start spaces, `letter` to throw."""
    return state_of(4, f"turn:{letter}:roll", **quick_start(4))


# --- set-up (KO-1) ----------------------------------------------------------------------

def test_KO1_each_seat_in_turn_places_its_pieces_1_to_6_on_its_start_spaces():
    game = get_game("ko", players=4)
    state = game.new_initial_state()
    assert state.to_position() == ("R/G/Y/B setup:R1 R=?,?,?,?,?,? G=?,?,?,?,?,? "
                                   "Y=?,?,?,?,?,? B=?,?,?,?,?,?")
    for seat, letter in enumerate("RGYB"):
        for number in range(1, 7):
            assert state.current_player() == seat
            free = set(STARTS[letter][:7 - number])
            assert moves(state) == {f"{letter}{number}@{s}" for s in free}
            # place in reverse order to show the choice is free
            state.apply_text(f"{letter}{number}@{STARTS[letter][6 - number]}")
    assert state.to_position() == (
        "R/G/Y/B rolloff:?,?,?,? R=a3,b2,a2,c1,b1,a1 G=a7,b8,a8,c9,b9,a9 "
        "Y=i7,h8,i8,g9,h9,i9 B=i3,h2,i2,g1,h1,i1")
    assert state.current_player() == CHANCE
    assert len(state.history) == 24


def test_KO1_two_players_place_two_colors_each():
    state = get_game("ko", players=2).new_initial_state()
    order = []
    while state.current_player() != CHANCE:
        action = sorted(state.legal_action_strings())[0]
        order.append((state.current_player(), action[:2]))
        state.apply_text(action)
    assert order == ([(0, f"R{n}") for n in range(1, 7)] + [(0, f"B{n}") for n in range(1, 7)]
                     + [(1, f"G{n}") for n in range(1, 7)]
                     + [(1, f"Y{n}") for n in range(1, 7)])
    assert state.to_position().startswith("RB/GY rolloff:?,? ")


def test_KO1_placement_errors():
    state = get_game("ko", players=3).new_initial_state()
    with pytest.raises(IllegalMoveError, match="R1 is to be placed now"):
        state.parse_action("R2@a1")
    with pytest.raises(IllegalMoveError, match="d4 is not a start space of red"):
        state.parse_action("R1@d4")
    state.apply_text("R1@a1")
    with pytest.raises(IllegalMoveError, match="a1 is already taken"):
        state.apply(state.game.setup_base + 1 * 81 + 0)     # R2 on a1
    with pytest.raises(IllegalMoveError, match="set-up comes first"):
        state.parse_action("R2-a4")
    with pytest.raises(IllegalMoveError, match="no throw is due"):
        state.parse_action("roll 3 4")
    assert state.to_position().startswith("R/G/Y setup:R2 R=a1,?,")


def test_KO1_quick_start_places_piece_k_on_the_kth_start_space():
    state = get_game("ko", players=3, quick_start=True).new_initial_state()
    assert state.to_position() == ("R/G/Y rolloff:?,?,? R=a1,b1,c1,a2,b2,a3 "
                                   "G=a9,b9,c9,a8,b8,a7 Y=i9,h9,g9,i8,h8,i7")
    assert state.history == []


# --- roll-off ---------------------------------------------------------------------------

def test_rolloff_highest_sum_of_two_dice_starts():
    state = get_game("ko", players=3, quick_start=True).new_initial_state()
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 21
    assert sum(p for _, p in outcomes) == pytest.approx(1)
    probability = {state.action_to_string(a): p for a, p in outcomes}
    assert probability["roll 3 3"] == pytest.approx(1 / 36)
    assert probability["roll 2 5"] == pytest.approx(2 / 36)
    for throw in ("roll 3 4", "roll 6 6", "roll 1 5"):     # 7, 12, 6
        state.apply_text(throw)
    assert state.to_position().startswith("R/G/Y turn:G:roll ")


def test_rolloff_only_the_tied_leaders_throw_again():
    state = get_game("ko", players=4, quick_start=True).new_initial_state()
    for throw in ("roll 5 6", "roll 1 1", "roll 6 5", "roll 2 3"):   # 11, 2, 11, 5
        state.apply_text(throw)
    assert state.to_position().startswith("R/G/Y/B rolloff:?,-,?,- ")
    state.apply_text("roll 2 2")
    assert state.to_position().startswith("R/G/Y/B rolloff:4,-,?,- ")
    state.apply_text("roll 1 2")
    assert state.to_position().startswith("R/G/Y/B turn:R:roll ")


def test_rolloff_two_players_throw_once_each():
    state = get_game("ko", players=2, quick_start=True).new_initial_state()
    state.apply_text("roll 1 2")
    state.apply_text("roll 2 2")
    assert state.to_position().startswith("RB/GY turn:GY:roll ")
    assert state.current_player() == CHANCE


# --- the sheet's examples ---------------------------------------------------------------

def test_sheet_1_and_5_piece_1_moves_5_and_piece_5_moves_1():
    state = start4()
    colors = quick_start(4)
    assert state.moves_left() is None
    state.apply_text("roll 5 1")
    assert state.to_position().startswith("R/G/Y/B turn:R:1>5,5>1:q1 ")
    assert state.moves_left() == ((1, 5), (5, 1))
    # R5 on b2: its neighbors a1 b1 c1 a2 a3 hold red pieces; b3 c2 c3 are free
    assert {m for m in moves(state) if m.startswith("R5")} == {"R5-b3", "R5-c2", "R5-c3"}
    assert moves(state) == expected_moves(4, colors, "R1", 5) | {"R5-b3", "R5-c2", "R5-c3"}
    state.apply_text("R5-c3")
    colors["R"][4] = "c3"
    assert state.to_position().startswith("R/G/Y/B turn:R:1>5:q1 ")
    assert moves(state) == expected_moves(4, colors, "R1", 5)
    state.apply_text("R1-e5")
    assert state.to_position() == ("R/G/Y/B turn:G:roll:q1 R=e5,b1,c1,a2,c3,a3 "
                                   "G=a9,b9,c9,a8,b8,a7 Y=i9,h9,g9,i8,h8,i7 B=i1,h1,g1,i2,h2,i3")


def test_sheet_1_and_5_either_order():
    state = start4()
    state.apply_text("roll 1 5")
    state.apply_text("R1-e5")
    # R1 has left a1, so now R5 may step there too
    assert moves(state) == {"R5-a1", "R5-b3", "R5-c2", "R5-c3"}


def test_sheet_3_and_6_piece_3_moves_6_and_piece_6_moves_3():
    state = start4()
    colors = quick_start(4)
    state.apply_text("roll 3 6")
    assert pieces_moving(state) == {"R3", "R6"}
    assert moves(state) == expected_moves(4, colors, "R3", 6) | expected_moves(4, colors, "R6", 3)
    # R6 on a3 moving 3: e.g. a3-a4-a5-a6, but a3-a2-a1 ends... no: a1 is taken by R1
    assert "R6-a6" in moves(state) and "R6-a1" not in moves(state)


def test_sheet_5_and_5_piece_5_moves_5_and_any_other_piece_moves_5():
    state = start4()
    colors = quick_start(4)
    state.apply_text("roll 5 5")
    assert state.to_position().startswith("R/G/Y/B turn:R:5>5,*>5:q1 ")
    assert state.moves_left() == ((5, 5), (0, 5))
    assert pieces_moving(state) == {"R1", "R2", "R3", "R4", "R5", "R6"}
    state.apply_text("R5-f6")          # b2 c3 d4 e5 f6: the long diagonal
    colors["R"][4] = "f6"
    assert state.to_position().startswith("R/G/Y/B turn:R:*>5:q1 ")
    expected = set()
    for piece in ("R1", "R2", "R3", "R4", "R6"):
        expected |= expected_moves(4, colors, piece, 5)
    assert moves(state) == expected
    state.apply_text("R2-b6")
    assert state.to_position().startswith("R/G/Y/B turn:G:roll:q1 ")


def test_sheet_3_and_3_the_other_piece_may_go_first():
    state = start4()
    colors = quick_start(4)
    state.apply_text("roll 3 3")
    state.apply_text("R1-a4")            # the "any other piece" move
    colors["R"][0] = "a4"
    assert state.to_position().startswith("R/G/Y/B turn:R:3>3:q1 ")
    assert moves(state) == expected_moves(4, colors, "R3", 3)


def test_sheet_a_piece_already_out_that_move_is_lost():
    # "You rolled 3 and 5. You still have piece 3, but not piece 5: piece 3 moves 5."
    colors = quick_start(4)
    colors["R"][4] = "-"
    state = state_of(4, "turn:R:roll", **colors)
    state.apply_text("roll 3 5")
    assert moves(state) == expected_moves(4, colors, "R3", 5)
    assert "R3xg1" in moves(state)        # c1 d2 d1 e1 f1 g1 reaches blue's 3
    state.apply_text("R3-c6")             # c1 c2 c3 c4 c5 c6
    assert state.legal_action_strings() == ["pass"]
    state.apply_text("pass")
    assert state.to_position().startswith("R/G/Y/B turn:G:roll:q1 ")


def test_sheet_a_double_whose_piece_is_out_any_other_piece_still_moves():
    # "You rolled 6 and 6. Your piece 6 is no longer in the game: any other piece moves 6."
    colors = quick_start(4)
    colors["R"][5] = "-"
    state = state_of(4, "turn:R:roll", **colors)
    state.apply_text("roll 6 6")
    expected = set()
    for piece in ("R1", "R2", "R3", "R4", "R5"):
        expected |= expected_moves(4, colors, piece, 6)
    assert moves(state) == expected
    state.apply_text("R2-b7")       # b1 b2 b3 b4 b5 b6 b7, jumping over R5 on b2
    assert state.legal_action_strings() == ["pass"]
    state.apply_text("pass")
    assert state.current_player() == CHANCE
    assert state.to_position().startswith("R/G/Y/B turn:G:roll:q1 ")


# --- two players --------------------------------------------------------------------------

def test_two_players_choose_which_of_their_two_pieces_of_a_number_moves():
    state = state_of(2, "turn:RB:roll", **quick_start(2))
    colors = quick_start(2)
    state.apply_text("roll 2 4")
    assert pieces_moving(state) == {"R2", "B2", "R4", "B4"}
    assert moves(state) == (expected_moves(2, colors, "R2", 4) | expected_moves(2, colors, "B2", 4)
                            | expected_moves(2, colors, "R4", 2)
                            | expected_moves(2, colors, "B4", 2))
    state.apply_text("B2-e5")      # h1 h2 g3 f4 e5
    assert pieces_moving(state) == {"R4", "B4"}


def test_two_players_double_the_other_piece_has_another_number():
    state = state_of(2, "turn:GY:roll", **quick_start(2))
    state.apply_text("roll 3 3")
    assert pieces_moving(state) == {"G1", "G2", "G3", "G4", "G5", "G6",
                                    "Y1", "Y2", "Y3", "Y4", "Y5", "Y6"}
    state.apply_text("Y3-g6")      # g9 g8 g7 g6
    # the other move may not be G3: it must have another number than 3
    assert pieces_moving(state) == {"G1", "G2", "G4", "G5", "G6", "Y1", "Y2", "Y4", "Y5", "Y6"}
    with pytest.raises(IllegalMoveError, match="do not move a 3"):
        state.parse_action("G3-c6")


def test_two_players_the_partner_color_cannot_be_knocked_out():
    colors = {"R": ["-", "-", "a1", "-", "-", "-"], "B": ["-", "-", "b2", "-", "-", "-"],
              "G": ["-", "-", "i9", "-", "-", "-"], "Y": ["-"] * 6}
    state = state_of(2, "turn:RB:3>1", **colors)
    # R3 one step: a2, b1 (b2 is blue's 3, same side); B3 one step: all its neighbors
    # but a1 (red's 3)
    assert moves(state) == {"R3-a2", "R3-b1", "B3-a2", "B3-a3", "B3-b1", "B3-b3",
                            "B3-c1", "B3-c2", "B3-c3"}


# --- KO-2: you have to move -------------------------------------------------------------

def ko2_colors():
    # R2 on a1 fenced in by its own R1 (a2), R3 (b1) and R4 (b2)
    return {"R": ["a2", "a1", "b1", "b2", "e5", "e6"],
            "G": ["a9", "b9", "c9", "a8", "b8", "a7"],
            "Y": ["i9", "h9", "g9", "i8", "h8", "i7"],
            "B": ["i1", "h1", "g1", "i2", "h2", "i3"]}


def test_KO2_a_move_that_becomes_possible_after_the_other_one_must_be_made():
    state = state_of(4, "turn:R:1>2,2>1", **ko2_colors())
    # R2 cannot step to a2, b1 or b2 (own pieces): only R1 (on a2) moves, two steps
    # (via a1: b1 b2; via a3: a4 b3 b2 b4; via b2: a1 c1 b1 c2 b3 a3 c3), not onto red
    assert moves(state) == {"R1-a3", "R1-a4", "R1-b3", "R1-b4", "R1-c1", "R1-c2", "R1-c3"}
    with pytest.raises(IllegalMoveError, match="KO-2"):
        state.parse_action("pass")
    state.apply_text("R1-c3")
    # a2 is free now, so R2 has a legal move and must make it
    assert moves(state) == {"R2-a2"}


def test_KO2_a_designated_piece_without_legal_move_loses_that_move():
    colors = ko2_colors()
    colors["R"][0] = "e4"            # R1 away; R5 now fences a2
    colors["R"][4] = "a2"
    state = state_of(4, "turn:R:1>2,2>1", **colors)
    assert pieces_moving(state) == {"R1"}
    assert moves(state) == expected_moves(4, colors, "R1", 2)
    state.apply_text("R1-g4")      # e4 f4 g4
    assert state.legal_action_strings() == ["pass"]
    state.apply_text("pass")
    assert state.to_position().startswith("R/G/Y/B turn:G:roll ")


def test_KO2_two_players_must_move_the_piece_of_the_number_that_can_move():
    colors = {"R": ["-", "a1", "-", "a2", "b1", "b2"], "B": ["-", "e5", "-", "-", "-", "-"],
              "G": ["-", "i9", "-", "i8", "-", "-"], "Y": ["-", "-", "-", "-", "-", "-"]}
    state = state_of(2, "turn:RB:2>1", **colors)
    # R2 is fenced in; B2 on e5 has eight neighbors, all free
    assert moves(state) == {f"B2-{s}" for s in ("d4", "d5", "d6", "e4", "e6", "f4", "f5", "f6")}


def test_KO2_nothing_can_move_so_the_turn_is_a_recorded_pass():
    colors = ko2_colors()
    state = state_of(4, "turn:R:2>1", **colors)
    assert state.legal_action_strings() == ["pass"]
    assert state.current_player() == 0
    state.apply_text("pass")
    assert state.history == [state.game.pass_action]


# --- paths --------------------------------------------------------------------------------

def test_paths_jump_over_pieces_but_end_only_on_free_or_knockable_spaces():
    # R1 on a1 must move 2: b1 is taken by G4 and a2 by Y5, which it jumps over
    colors = {"R": ["a1", "-", "-", "-", "-", "e5"], "G": ["e9", "-", "-", "b1", "-", "-"],
              "Y": ["i9", "-", "-", "-", "a2", "-"], "B": ["-"] * 6}
    state = state_of(4, "turn:R:1>2", **colors)
    assert moves(state) == {"R1-a3", "R1-b2", "R1-b3", "R1-c1", "R1-c2", "R1-c3"}


def test_paths_have_the_exact_length_and_never_revisit_a_space():
    # R6 alone in the middle; one step reaches the 8 neighbors of e5, two steps reach
    # everything within two king steps (the neighbors via the diagonal triangles) but never e5
    colors = {"R": ["-", "-", "-", "-", "-", "e5"], "G": ["a9"] * 1 + ["-"] * 4 + ["i9"]}
    state = state_of(3, "turn:R:6>2", **colors)
    ring2 = {f"{f}{r}" for f in "cdefg" for r in "34567"} - {"e5"}
    assert moves(state) == {f"R6-{s}" for s in ring2}
    state = state_of(3, "turn:R:6>1", **colors)
    assert moves(state) == {f"R6-{f}{r}" for f in "def" for r in "456"} - {"R6-e5"}


def test_paths_from_an_odd_space_have_no_diagonal_first_step():
    colors = {"R": ["-", "-", "-", "e4", "-", "-"], "G": ["-", "-", "-", "a9", "-", "-"]}
    state = state_of(3, "turn:R:4>1", **colors)
    assert moves(state) == {"R4-d4", "R4-f4", "R4-e3", "R4-e5"}


# --- knocking out -------------------------------------------------------------------------

def test_knock_out_only_the_same_number_of_an_opponent():
    colors = {"R": ["-", "-", "a1", "-", "-", "-"], "G": ["-", "-", "b2", "a2", "-", "-"],
              "Y": ["-", "-", "-", "b1", "-", "-"]}
    state = state_of(3, "turn:R:3>1", **colors)
    assert moves(state) == {"R3xb2"}     # a2 holds G4, b1 holds Y4
    with pytest.raises(IllegalMoveError, match="can only knock out a 3"):
        state.parse_action("R3-a2")
    state.apply_text("R3-b2")            # '-' is accepted for a knock-out too
    assert state.action_to_string(state.history[-1]) == "R3xb2"
    # 4 is still held by green and yellow: the game goes on with green
    assert state.to_position() == ("R/G/Y turn:G:roll R=-,-,b2,-,-,- G=-,-,-,a2,-,- "
                                   "Y=-,-,-,b1,-,-")
    assert state.points() == [1, 1, 1]


def test_each_number_knocks_only_its_own_number_in_every_pairing():
    for number in range(1, 7):
        for other in range(1, 7):
            r = ["-"] * 6
            g = ["-"] * 6
            r[number - 1] = "e5"
            g[other - 1] = "e6"
            if other != number:
                g[number - 1] = "a9"         # keep red's piece contested
            state = state_of(3, f"turn:R:{number}>1", R=r, G=g)
            knocks = f"R{number}xe6" in moves(state)
            assert knocks == (number == other), (number, other)
            assert f"R{number}-e6" not in moves(state)


# --- frozen pieces, skipped seats ----------------------------------------------------------

def frozen_colors():
    # nobody but red has a 4: R4 is frozen.  Yellow holds only a 6 that nobody else has.
    return {"R": ["a1", "c3", "e5", "g7", "-", "-"], "G": ["a9", "b9", "-", "-", "-", "c1"],
            "Y": ["-", "-", "-", "-", "-", "-"]}


def test_frozen_piece_cannot_move_its_move_is_lost():
    colors = frozen_colors()
    state = state_of(3, "turn:R:2>4,4>2", **colors)
    assert pieces_moving(state) == {"R2"}
    game = state.game
    assert [game.piece_name(p) for p in range(18) if state.pos[p] >= 0
            and state.is_frozen(p)] == ["R3", "R4", "G6"]
    with pytest.raises(IllegalMoveError, match="R4 is frozen"):
        state.parse_action("R4-g5")


def test_frozen_piece_never_counts_as_any_other_piece():
    # 3 and 4 are frozen for red (nobody else has them): only R1 and R2 can be "any other"
    state = state_of(3, "turn:R:*>5", **frozen_colors())
    assert pieces_moving(state) == {"R1", "R2"}


def test_skipped_seat_without_any_movable_piece():
    colors = frozen_colors()
    colors["Y"] = ["-", "-", "-", "-", "-", "i9"]     # a 6: green has none, red none
    colors["G"][5] = "-"
    state = state_of(3, "turn:G:2>1", **colors)
    state.apply_text("G2-b8")
    # yellow has only a frozen 6: it is skipped, red throws next
    assert state.to_position().startswith("R/G/Y turn:R:roll ")
    with pytest.raises(Exception, match="skipped"):
        state_of(3, "turn:Y:roll", **colors)


def test_seat_with_every_piece_out_is_skipped_four_players():
    colors = quick_start(4)
    colors["Y"] = ["-"] * 6
    state = state_of(4, "turn:G:roll", **colors)
    state.apply_text("roll 1 2")
    state.apply_text("G1-c7")     # a9 b8 c7 over G5
    assert moves(state) == {"G2-a9"}     # b9's neighbors: a9 (just left), c9 G3, b8 G5
    state.apply_text("G2-a9")
    assert state.to_position().startswith("R/G/Y/B turn:B:roll:q1 ")


def test_turns_go_clockwise_red_green_yellow_blue():
    state = get_game("ko", players=4, quick_start=True).new_initial_state()
    for throw in ("roll 6 6", "roll 1 1", "roll 1 1", "roll 1 1"):
        state.apply_text(throw)
    seen = []
    while len(seen) < 8:
        seen.append(state.to_position().split()[1].split(":")[1])
        state.apply_text("roll 1 2")
        while not state.is_chance_node():
            state.apply(state.legal_actions()[0])
    assert seen == ["R", "G", "Y", "B", "R", "G", "Y", "B"]


# --- end, scores, results -------------------------------------------------------------------

def test_end_comes_with_the_last_possible_knock_out_even_mid_turn():
    colors = {"R": ["a1", "-", "e5", "-", "-", "c3"], "G": ["-", "d1", "e6", "-", "g7", "-"],
              "Y": ["-", "-", "-", "i9", "-", "-"]}
    state = state_of(3, "turn:R:3>1,1>3", **colors)
    assert state.current_player() == 0
    state.apply_text("R3xe6")
    # only 3 was held by two seats: nothing can be knocked out any more
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    assert state.chance_outcomes() == []
    red = POINTS[1] + POINTS[3] + POINTS[6]
    green = POINTS[2] + POINTS[5]
    yellow = POINTS[4]
    assert (red, green, yellow) == (7, 4, 1)
    assert state.returns() == [7.0, 4.0, 1.0]
    assert state.points() == [7, 4, 1]
    assert state.places() == [1, 2, 3]
    assert state.result() == "Red wins with 7 points (Red 7, Green 4, Yellow 1)"
    state.undo()
    assert state.returns() == [0.0, 0.0, 0.0] and state.result() is None


def test_scoring_table_and_shared_places():
    colors = {"R": ["a1", "-", "-", "-", "-", "-"], "G": ["-", "-", "-", "-", "-", "a9"],
              "Y": ["-", "i9", "-", "-", "-", "-"]}
    state = state_of(3, "end", **colors)
    assert state.returns() == [3.0, 3.0, 2.0]
    assert state.places() == [1, 1, 3]
    assert state.result() == ("Red and Green share first place with 3 points "
                              "(Red 3, Green 3, Yellow 2)")


def test_scores_in_a_two_player_game_add_both_colors():
    colors = {"R": ["a1", "b1", "-", "-", "-", "-"], "B": ["-", "-", "c1", "-", "-", "-"],
              "G": ["-", "-", "-", "a9", "b9", "c9"], "Y": ["-"] * 6}
    state = state_of(2, "end", **colors)
    assert state.returns() == [3 + 2 + 1, 1 + 2 + 3]
    assert state.result() == ("Red+Blue and Green+Yellow share first place with 6 points "
                              "(Red+Blue 6, Green+Yellow 6)")


# --- KO-3: the game ends after full rounds without a knock-out --------------------------------

QUIET = ("RB/GY turn:RB:roll:q{} R=a1,b1,c1,a2,b2,a3 B=i1,h1,g1,i2,h2,i3 "
         "G=a9,b9,c9,a8,b8,a7 Y=i9,h9,g9,i8,h8,i7")


def play_turn_without_knockout(state, throw="roll 1 2"):
    state.apply_text(throw)
    seat = state.current_player()
    while not state.is_terminal() and state.current_player() == seat:
        texts = [state.action_to_string(a) for a in state.legal_actions()]
        assert not any("x" in t for t in texts)
        state.apply_text(texts[0])


def test_ko3_the_last_of_twenty_quiet_rounds_ends_the_game_scored_as_usual():
    game = get_game("ko", players=2)
    assert game.options["quiet_rounds"] == 20
    state = game.from_position(QUIET.format(38))      # 2 seats: 40 turns make 20 rounds
    play_turn_without_knockout(state)
    assert not state.is_terminal() and ":roll:q39 " in state.to_position()
    play_turn_without_knockout(state)
    assert state.is_terminal() and state.to_position().split()[1] == "end:quiet"
    assert state.returns() == [float(p) for p in state.points()] == [24.0, 24.0]
    assert state.result().startswith("Red+Blue and Green+Yellow share first place")
    position = state.to_position()
    assert game.from_position(position).to_position() == position
    state.undo()                                      # and back into the turn
    assert not state.is_terminal() and ":q40 " in state.to_position()


def test_ko3_a_knockout_starts_the_count_again_and_the_option_0_keeps_the_sheets_reading():
    game = get_game("ko", players=2, quick_start=True)
    rng = random.Random(4)
    state = game.new_initial_state()
    while not any("x" in t for t in map(state.action_to_string, state.legal_actions())):
        state.apply(rng.choice(state.legal_actions()))   # on to a throw that can knock
    fields = state.to_position().split()
    fields[1] = fields[1].split(":q")[0] + ":q30"          # long without a knock-out
    state = game.from_position(" ".join(fields))
    state.apply_text(next(t for t in map(state.action_to_string, state.legal_actions())
                          if "x" in t))
    assert ":q" not in state.to_position().split()[1]      # counted from here again
    endless = get_game("ko", players=2, quiet_rounds=0)
    state = endless.from_position(QUIET.format(500))
    play_turn_without_knockout(state)
    assert not state.is_terminal() and ":q501 " in state.to_position()
    for bad, why in ((QUIET.format(40), "reach the limit of 40"),
                     (QUIET.format("0"), "is not q<n>"),
                     (QUIET.replace("turn:RB:roll:q{}", "end:quiet"), "no limit")):
        with pytest.raises(GameError, match=why):
            (game if "end" not in bad else endless).from_position(bad)
    with pytest.raises(GameError, match="quiet_rounds"):
        get_game("ko", quiet_rounds="x")
