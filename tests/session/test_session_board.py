"""The common interaction on the virtual board: selection and targets, illegal presses,
chains shown step by step, computer moves, undo and redo across dice, unplugging."""

from board_driver import VirtualBoard


def knockabout(seats=("human", "human"), **kw):
    vb = VirtualBoard("knockabout")
    session = vb.start("knockabout", seats=seats, seed=1, options={"first": "white"}, **kw)
    return vb, session


def snapshot(session):
    return session.state.to_position(), list(session.record.actions)


def neighbours(vb, name):
    from knockboard.games.knockabout.board import CELL_INDEX, CELL_NAMES, STEP
    return {vb.space(CELL_NAMES[n]) for n in STEP[CELL_INDEX[name]] if n >= 0}


def test_the_player_to_act_is_shown_and_their_movable_dice_pulse():
    vb, session = knockabout()
    assert vb.oled()[0][0] == "White to move"
    white = {vb.space(s) for s, p in session.ui.view(session.state).pieces.items()
             if p.owner == 0}
    assert vb.lit("pulse") == white


def test_a_selected_die_blinks_and_lights_exactly_its_six_direction_targets():
    vb, session = knockabout()
    vb.press_space("D5")
    assert vb.lit("blink") == {vb.space("D5")}
    assert vb.lit("pulse") == neighbours(vb, "D5")
    assert vb.cell(next(iter(neighbours(vb, "D5"))))[:3] == (0, 255, 0)
    assert "D5: to where?" in vb.text()


def test_illegal_presses_flash_red_buzz_and_change_nothing():
    vb, session = knockabout()
    before = snapshot(session)
    reasons = {"A1": "A1: no piece", "G7": "G7: no piece",      # empty gutter and cell
               # Black's d4 as the players name it, not "B4=1", the terminal's code
               "D6": "Black d4: not yours"}
    for space, reason in reasons.items():
        vb.sounds.clear()
        vb.press_space(space)
        assert vb.cell(vb.space(space)) == (255, 0, 0, "blink")
        assert vb.sounds == ["error"] and " ".join(vb.oled()[0]).endswith(reason)
        assert snapshot(session) == before and session.interaction.selected is None
    vb.run(1.0)
    assert vb.cell(vb.space("G7"))[:3] == (0, 0, 0)     # the flash is over
    vb.run(1.1)
    assert vb.oled()[0][-1] != reasons["G7"]             # and so are the words


def test_pressing_elsewhere_or_back_cancels_and_another_die_is_selected_instead():
    vb, session = knockabout()
    before = snapshot(session)
    vb.press_space("D5")
    vb.press_space("G7")                       # no target: cancels, no error
    assert session.interaction.selected is None and "error" not in vb.sounds
    vb.press_space("D5")
    vb.press_space("F3")                       # another White die: selected instead
    assert session.interaction.selected == vb.space("F3")
    vb.back()
    assert session.interaction.selected is None
    vb.press_space("F3")
    vb.press_space("F3")                       # the selected die again: deselects
    assert session.interaction.selected is None and snapshot(session) == before


def test_a_knock_chain_is_shown_step_by_step_and_waits_for_ok_or_the_presses():
    vb, session = knockabout()
    vb.press_space("F3")
    vb.press_space("F4")                       # F3-N: F3 stops on F5, F7 goes to F8
    assert session.record.actions == ["F3-N"]
    assert vb.oled()[0][0] == "W8 F3>F5"
    assert vb.cell(vb.space("F3"))[3] == "blink" and vb.cell(vb.space("F5"))[3] == "pulse"
    vb.run(5.0)                                # nothing happens without the players
    assert session.animation.index == 0 and session.record.actions == ["F3-N"]
    vb.ok()
    assert vb.oled()[0][0] == "B4 F7>F8"
    vb.press_space("F7")
    assert session.animation.index == 1        # half of the step's presses
    vb.press_space("F8")
    # the chain is done: F8's d4 is rerolled on the OLED and must be turned
    assert session.record.actions[:2] == ["F3-N", session.record.actions[1]]
    face = int(session.record.actions[1].split()[1])
    lines, dice, roll = vb.oled()
    assert lines[0] == f"F8 d4 to {face}" and dice == (face,) and roll
    vb.press_space("F8")
    assert session.animation is None and vb.oled()[0][0] == "Black to move"


def test_a_computer_move_is_shown_on_the_leds_and_confirmed_by_moving_the_piece():
    vb, session = knockabout(seats=("human", "greedy"))
    vb.press_space("E4")
    vb.press_space("E3")                       # E4-S: the d6 (2) goes on to E2
    assert session.record.actions[0] == "E4-S" and session.animation.title == "White"
    assert vb.oled()[0][0] == "W6 E4>E2"       # where the person's own die lands
    vb.ok()
    assert len(session.record.actions) >= 2 and session.animation.title == "Black"
    step = session.animation.step
    assert step.kind == "move" and session.record.actors[1] == 1
    assert vb.cell(vb.space(step.src)) == (0, 90, 255, "blink")       # Black's die
    assert vb.cell(vb.space(step.dst)) == (0, 255, 0, "pulse")        # where it goes
    assert vb.oled()[0][0] == step.text and "alert" in vb.sounds
    vb.run(3.0)
    assert session.animation.step is step      # waits for the person moving it
    for space in step.presses():
        vb.press_space(space)
    while session.animation is not None:      # the rest of its chain, its reroll
        vb.ok()
    assert session.interaction is not None and vb.oled()[0][0] == "White to move"


def test_undo_across_a_chance_step_shows_the_way_back_and_redo_restores_the_dice():
    vb, session = knockabout()
    start = snapshot(session)
    vb.press_space("F3")
    vb.press_space("F4")
    while session.animation is not None:
        vb.ok()
    played = snapshot(session)
    assert played[1][0] == "F3-N" and played[1][1].startswith("roll ")
    vb.back(hold=1.2)                          # BACK held: undo
    assert snapshot(session) == start
    texts = []
    while session.animation is not None:
        texts.append(vb.oled()[0][0])
        step = session.animation.step
        if step.kind == "move":                 # the words say what the LEDs ask
            assert vb.cell(vb.space(step.src))[3] == "blink"
            assert vb.cell(vb.space(step.dst))[3] == "pulse"
            assert texts[-1].endswith(f"{step.src}>{step.dst}")
        vb.ok()
    assert texts == ["F8 back to 1", "back B4 F8>F7", "back W8 F5>F3"]
    # the same move again gets the same reroll: undo is no way to roll again
    vb.press_space("F3")
    vb.press_space("F4")
    while session.animation is not None:
        vb.ok()
    assert snapshot(session) == played
    vb.back(hold=1.2)
    while session.animation is not None:
        vb.ok()
    menu_choose(vb, "Redo")
    while session.animation is not None:
        vb.ok()
    assert snapshot(session) == played


def test_undo_with_nothing_to_undo_is_refused_and_changes_nothing():
    vb, session = knockabout()
    before = snapshot(session)
    vb.back(hold=1.2)
    assert snapshot(session) == before and "nothing to undo" in vb.text()


def test_undo_goes_back_over_the_computers_move_to_the_persons():
    vb, session = knockabout(seats=("human", "greedy"))
    start = snapshot(session)
    vb.press_space("E4")
    vb.press_space("E3")
    vb.ok()
    assert len(session.record.actions) >= 2 and session.record.actors[1] == 1
    vb.back(hold=1.2)
    while session.animation is not None:
        vb.ok()
    assert snapshot(session) == start and session.interaction is not None


def test_unplug_and_replug_in_the_middle_of_a_chain_loses_nothing():
    vb, session = knockabout()
    vb.press_space("F3")
    vb.press_space("F4")
    vb.ok()                                    # on to the chain's second step
    before = snapshot(session)
    scene = bytes(vb.dev.scene.cells)
    vb.unplug()
    vb.run(5.0)                                # the session waits and retries
    assert not vb.board.connected and snapshot(session) == before
    vb.plug()                                  # the board comes back as a new boot
    assert vb.lit() == set()                   # knowing nothing
    vb.run(3.0)
    assert vb.board.reconnects >= 1
    assert bytes(vb.dev.scene.cells) == scene and vb.oled()[0][0] == "B4 F7>F8"
    assert snapshot(session) == before and session.animation.index == 1
    vb.ok()
    assert session.animation.step.kind == "face"


def menu_choose(vb, label):
    """Open the menu and choose the entry `label`, reading the OLED like a person."""
    vb.menu()
    for _ in range(30):
        if vb.menu_entry() == label:
            vb.ok()
            return
        vb.menu()
    raise AssertionError(f"no menu entry {label!r}")


def test_redo_is_forgotten_once_a_computer_plays_where_the_undo_went_back():
    # Undo, then the seat made a computer player: it moves from there, so the undone move
    # no longer follows the position; redo must refuse, not play it onto another one.
    vb, session = knockabout()
    vb.press_space("F3")
    vb.press_space("F4")
    while session.animation is not None:
        vb.ok()
    vb.back(hold=1.2)
    while session.animation is not None:
        vb.ok()
    mover = session.state.current_player()
    vb.menu()
    for _ in range(30):
        if vb.oled()[0][1].startswith(f"> {session.ui.seat_name(mover)}:"):
            break
        vb.menu()
    vb.ok()                                    # that seat: a computer player
    vb.back()
    assert session.record.actors[:1] == [mover]          # the computer played there
    menu_choose(vb, "Redo")
    assert "nothing to redo" in vb.text()
    assert session.record.replay().to_position() == session.state.to_position()


def test_the_cell_where_a_die_lands_plays_its_move_as_its_direction_does():
    """Issue 47, finding 9: "F3: to where?" invites the landing cell; it plays the move
    when it is the landing of that move alone (the engine's own trace says where)."""
    vb, session = knockabout()
    state = session.state
    lands = {}                         # (die's cell, landing) -> the moves ending there
    for action in state.legal_actions():
        text = state.action_to_string(action)
        for src, dst in state.move_trace(action)[:1]:
            if src == text.split("-")[0]:      # the die moves (not only knocks)
                lands.setdefault((src, dst), []).append(text)
    beyond = sorted((src, land) for (src, land), moves in lands.items()
                    if len(moves) == 1 and vb.space(land) not in neighbours(vb, src))
    assert beyond, lands
    src, land = beyond[0]
    vb.press_space(src)
    vb.press_space(land)
    assert session.record.actions[-1] == lands[(src, land)][0]
    assert vb.sounds[-1] != "error"
    # the die stands where it was pressed: no step asks to move it there again
    step = session.animation.step if session.animation else None
    assert step is None or (step.src, step.dst) != (src, land)
