"""What each game asks of the players on the board (the issue's per-game list)."""

import io

from board_driver import OK, VirtualBoard

QUICK_ROLLOFF = ["roll 3", "roll 4", "roll 5", "roll 6", "roll 6", "roll 6"]


def targets(vb):
    return vb.lit("pulse") | {c for c in vb.lit("blink")
                              if c != vb.session.interaction.selected}


def spaces(vb, cells):
    return {vb.session.layout.space_of(c) for c in cells}


# --- Dodgeball --------------------------------------------------------------------------------

def test_dodgeball_set_up_lights_the_free_back_row_squares():
    vb = VirtualBoard("dodgeball")
    out = io.StringIO()
    session = vb.start("dodgeball", seed=1, out=out)
    # the teams by the colour their pawns are lit in, on the OLED and the terminal
    assert vb.oled()[0][0] == "Blue: place"
    assert "seats Blue=human, Orange=human" in out.getvalue()
    assert spaces(vb, vb.lit("pulse")) == {f + "1" for f in "abcdefgh"}
    vb.press_space("c1")
    assert session.record.actions == ["place c1"]
    assert "Blue: place c1" in out.getvalue()
    assert session.ui.text_board(session.state).split().count("B") == 1   # the terminal's
    assert [p["name"] for p in session.record.players] == ["Blue", "Orange"]
    assert spaces(vb, vb.lit("pulse")) == {f + "1" for f in "abdefgh"}
    vb.press_space("c8")                       # not Blue's row: illegal
    assert vb.sounds[-1] == "error" and session.record.actions == ["place c1"]


def test_dodgeball_die_choice_catch_or_dodge_by_the_target_and_the_miss_placement():
    vb = VirtualBoard("dodgeball")
    session = vb.start("dodgeball", seed=1, options={"setup": "quick"},
                       actions=QUICK_ROLLOFF, physical_dice=True)
    assert vb.oled()[0][0] == "Blue to act" and vb.oled()[1] == (3, 4, 5)
    vb.press_space("b1")
    vb.press_space("b4")                       # a 3, a 4 or a 5 can pay for it
    assert session.record.actions == QUICK_ROLLOFF
    assert vb.oled()[0][1] == "> 3:move b1-b4" and "1/3" in vb.oled()[0][2]
    vb.menu()
    assert vb.oled()[0][1] == "> 4:move b1-b4"
    vb.press_space("b4")                       # the same cell again: the next one too
    assert vb.oled()[0][1] == "> 5:move b1-b4"
    vb.menu()
    vb.menu()                                  # past the menu entry, round to the 3
    vb.ok()
    assert session.record.actions[-1] == "3:move b1-b4"
    # the pawn picked up the starting ball ab: shown, confirmed by pressing b4
    assert vb.oled()[0][0] == "b4 takes ball"
    vb.press_space("b4")
    assert vb.oled()[1] == (4, 5)
    vb.press_space("b4")
    assert vb.cell(vb.space("b8"))[3] == "blink"          # a throw target
    vb.press_space("b8")
    vb.ok()                                    # the 4 (first offered)
    assert session.record.actions[-1] == "4:throw b4-b8"
    # Orange answers on the OLED: catch or dodge; a cell press is no answer
    assert vb.oled()[0][:2] == ["Orange: catch?", "> catch"]
    vb.press_space("a4")
    assert vb.sounds[-1] == "error"
    vb.menu()
    vb.ok()
    assert session.record.actions[-1] == "dodge"
    for value in (1, 6):                       # thrower 1, target 6: a miss
        for _ in range(value - 1):
            vb.menu()
        vb.ok()
    assert vb.oled()[0][0] == "Orange: put ball"
    assert spaces(vb, vb.lit("pulse")) == {"a7", "a8", "b7", "c7"}
    vb.press_space("a7")
    assert session.record.actions[-4:] == ["dodge", "roll 1", "roll 6", "ball a7"]


def test_dodgeball_a_hit_is_shown_pawn_out_and_ball_on_its_square():
    vb = VirtualBoard("dodgeball")
    session = vb.start("dodgeball", seed=1, options={"setup": "quick"},
                       actions=QUICK_ROLLOFF + ["3:move b1-b4", "4:throw b4-b8", "catch"],
                       physical_dice=True)
    for value in (6, 2):                       # thrower 6 beats the catcher's 2
        for _ in range(value - 1):
            vb.menu()
        vb.ok()
    assert [s.text for s in session.animation.steps] == ["b8 is out", "ball on b8"]
    assert vb.cell(vb.space("b8")) == (255, 0, 0, "blink")
    vb.press_space("b8")
    vb.ok()
    assert session.animation is None and vb.oled()[0][0] == "Blue to act"


# --- K.O. --------------------------------------------------------------------------------------

def test_ko_secret_set_up_names_the_piece_lights_the_free_start_spaces_and_hides_the_log():
    import io
    out = io.StringIO()
    vb = VirtualBoard("ko")
    vb.start("ko", seed=1, options={"players": 3}, out=out)
    assert vb.oled()[0][0] == "Red: put R1"
    starts = spaces(vb, vb.lit("pulse"))
    assert starts == {"a1", "b1", "c1", "a2", "b2", "a3"}
    vb.press_space("b2")
    assert vb.oled()[0][0] == "Red: put R2" and spaces(vb, vb.lit("pulse")) == starts - {"b2"}
    assert "Red: (secret)" in out.getvalue() and "b2" not in out.getvalue().split("New game")[1]


def test_ko_each_piece_moves_the_value_its_number_calls_for():
    vb = VirtualBoard("ko")
    session = vb.start("ko", seed=1, options={"players": 2, "quick_start": 1},
                       actions=["roll 5 6", "roll 1 1"], physical_dice=True)
    vb.ok()                                    # Red+Blue won the roll-off and throw 1 ...
    for _ in range(4):
        vb.menu()
    vb.ok()                                    # ... and 5
    assert session.record.actions[-1] == "roll 1 5"
    state = session.state
    assert vb.oled()[1] == (5, 1) and vb.oled()[0][1] == "1>5 5>1"
    assert state.current_player() == 0
    letters = "RB"
    for piece in (f"{letters[0]}1", f"{letters[0]}5"):
        where = session.ui.view(state).pieces
        src = next(s for s, p in where.items() if p.name == piece)
        vb.press_space(src)
        legal = {t.split("-")[-1].split("x")[-1] for t in state.legal_action_strings()
                 if t.startswith(piece)}
        assert spaces(vb, targets(vb)) == legal and legal
        vb.back()
    assert not any(t.startswith(f"{letters[0]}3") for t in state.legal_action_strings())


# --- Knock-Off ---------------------------------------------------------------------------------

def knockoff(actions, players=2):
    vb = VirtualBoard("knockoff")
    session = vb.start("knockoff", seed=1, options={"players": players},
                       actions=actions, physical_dice=True)
    return vb, session


def test_knockoff_single_and_combined_moves_are_targets_of_the_home_base():
    vb, session = knockoff(["roll 6", "roll 1", "roll 1-2"])
    assert vb.oled()[1] == (1, 2)
    vb.press_space("H1")
    assert spaces(vb, targets(vb)) == {"1a", "2a", "2b"}   # 1 die: 1a; both in a leap: 2x
    vb.press_space("1a")
    assert session.record.actions[-1] == "H1-1a" and vb.oled()[1] == (2,)
    vb.press_space("1a")
    assert spaces(vb, targets(vb)) == {"2a", "2b"}          # the other die, same pawn


def test_knockoff_pass_is_offered_by_ok_and_a_double_rolls_again():
    vb, session = knockoff(["roll 6", "roll 1", "roll 3-3"])
    assert session.ui.view(session.state).status == "double: again"
    vb.ok()
    assert vb.oled()[0][1] == "> pass"
    vb.back()                                   # cancelled: nothing played
    assert session.record.actions[-1] == "roll 3-3"
    vb.ok()
    assert vb.oled()[0][1:] == ["> pass", "hold OK MENU 1/1"]
    vb.ok()                                     # a short OK does not give the turn away
    assert session.record.actions[-1] == "roll 3-3" and vb.oled()[0][2] == "hold OK to pass"
    vb.ok()
    vb.control(OK, hold=1.2)                    # OK held: the deliberate pass
    assert session.record.actions[-1] == "pass"
    # P1 rolled a double: P1 rolls again (the entry waits for P1's dice)
    assert session.mode == "dice" and session.state.to_position().endswith("P1 roll")


def test_knockoff_a_landing_knocks_the_pawn_home_shown_as_a_step():
    # P1's pawn stands on 2a; a second pawn leaps from home onto it (1 + 2 = 3)
    vb, session = knockoff(["roll 6", "roll 1", "roll 1-2", "H1-1a", "1a-2a", "roll 4-5",
                            "pass", "roll 1-2"])
    vb.press_space("H1")
    assert vb.cell(vb.space("2a"))[3] == "blink"           # a landing that knocks
    vb.press_space("2a")
    assert session.record.actions[-1] == "H1-2a"
    assert [s.text for s in session.animation.steps] == ["Red 2a>home"]
    assert vb.cell(vb.space("H1"))[3] == "pulse"           # where the knocked pawn goes
    vb.press_space("2a")
    vb.press_space("H1")
    assert session.animation is None
