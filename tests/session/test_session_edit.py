"""Edit mode changes the program's position from the board: pieces moved, taken
off and put back, a KNOCKabout die turned, Dodgeball balls given and taken, whose turn;
the engine checks the edited position, and an accepted edit is a record entry that undo
and redo handle like a move.  Everything through presses on the virtual board."""

import io

from board_driver import VirtualBoard
from test_session_board import menu_choose


def start(game, options, seats=(), seed=3, out=None):
    """A game on the virtual board, played on until a person is to choose."""
    vb = VirtualBoard(game)
    session = vb.start(game, seats=seats, seed=seed, options=options, out=out)
    while session.interaction is None:
        vb.ok()
    return vb, session


def edit(vb):
    menu_choose(vb, "Edit board")
    assert vb.session.mode == "edit"


def tap(vb, *spaces):
    for space in spaces:
        vb.press_space(space)


def canonical(session, text):
    """The engine's own writing of a position (the order it lists pieces in)."""
    return session.game.from_position(text).to_position()


def assert_goes_on_from(session, position):
    """The session plays on from exactly `position`: its state, the record's last entry,
    and the moves offered to the player are the engine's legal moves there."""
    assert session.state.to_position() == position
    assert session.record.actions[-1] == "edit " + position
    assert session.mode == "playing" and session.edit is None
    legal = set(session.game.from_position(position).legal_actions())
    assert {o.action for o in session.interaction.options} == legal


def test_knockabout_a_die_moved_turned_taken_off_and_put_back():
    out = io.StringIO()
    vb, s = start("knockabout", {"first": "white"}, out=out)
    edit(vb)
    tap(vb, "D5", "G7")                          # D5's d4 to G7
    tap(vb, "F3", "F3", "F3")                    # F3's d8 selected, turned 3 -> 4 -> 5
    assert vb.oled()[0] == ["F3: W8=5", "press: to where", "MENU=off 2x=face"]
    vb.back()
    tap(vb, "H6", "H6", "H6", "H6")              # a d4 turned round: 1, 2, 3, 4 and 1 again
    assert vb.oled()[0][0] == "H6: W4=4"
    tap(vb, "H6")
    assert vb.oled()[0][0] == "H6: W4=1"
    vb.ok()
    tap(vb, "I4")
    vb.menu()                                    # I4's d6 off the board
    tap(vb, "J5")
    vb.menu()                                    # J5's d4 off the board
    tap(vb, "A4")                                # an empty gutter cell: put what is off
    assert vb.oled()[0][:2] == ["A4: put?", "> W6=2"]
    vb.menu()
    assert vb.oled()[0][1] == "> W4=1"
    vb.ok()                                      # the d4 on A4
    assert vb.oled()[0][0] == "Edit: changed"
    vb.ok()
    expected = canonical(s, "W D6:B4=1 E4:W6=2 E8:B6=2 F3:W8=5 F6:W4=1 F7:B4=1 F10:B8=3 "
                            "G5:W6=2 G9:B6=2 H3:W8=3 H6:W4=1 H7:B4=1 H10:B8=3 I8:B6=2 "
                            "J6:B4=1 G7:W4=1 A4:W4=1")
    assert_goes_on_from(s, expected)
    assert "edited: F3: W8=5, W4=1 D5>A4" in out.getvalue()  # identical dice: any pairing
    assert vb.sounds[-1] == "ok"
    # the game goes on from there: the die on G7 moves, I4 holds nothing any more
    vb.press_space("I4")
    assert vb.sounds[-1] == "error" and vb.cell(vb.space("I4"))[:3] == (255, 0, 0)
    g7 = [o for o in s.interaction.options if o.path[:1] == (vb.space("G7"),)]
    assert len(g7) == 6
    ply = len(s.record.actions)
    for cell in g7[0].path:
        vb.press(cell)
    assert s.record.actions[ply].startswith("G7-")


def test_dodgeball_pawns_moved_and_put_out_balls_taken_and_given():
    out = io.StringIO()
    vb, s = start("dodgeball", {"setup": "quick"}, out=out)
    assert s.state.to_position() == \
        "turn1 1:b1,c1,d1,e1,f1 2:b8,c8,d8,e8,f8 balls:ab,de,gh dice:456/556"
    edit(vb)
    tap(vb, "b1", "b3")                          # a pawn moved
    tap(vb, "c1")
    vb.menu()                                    # a pawn put out
    tap(vb, "d1", "d1")                          # no ball to give it: refused
    assert vb.sounds[-1] == "error" and "no spare ball" in vb.text()
    vb.back()
    vb.menu()
    assert vb.oled()[0][1] == "> Blue to act"
    vb.menu()
    assert vb.oled()[0][1] == "> ball ab: line"
    vb.ok()                                      # the ball off the centre line ...
    assert vb.oled()[0][1] == "> ball ab: off"
    vb.back()
    tap(vb, "d1", "d1")                          # ... and into d1's hands
    assert vb.oled()[0][0] == "d1: Blue+ball"
    vb.back()
    tap(vb, "c6")                                # Orange's half: none of theirs is out
    assert vb.sounds[-1] == "error"
    vb.ok()
    expected = "turn1 1:b3,d1+,e1,f1 2:b8,c8,d8,e8,f8 balls:de,gh dice:456/556"
    assert_goes_on_from(s, expected)
    assert "edited: d1: Blue+ball, Blue pawn b1>b3, Blue pawn c1 off, ball ab: off" \
        in out.getvalue()
    assert any(":pass d1-e1" in o.label for o in s.interaction.options), \
        "the pawn given the ball can pass it"
    assert not any(o.path[:1] == (vb.space("c1"),) for o in s.interaction.options)


def test_dodgeball_a_ball_too_few_is_refused_by_the_engine_and_nothing_changes():
    out = io.StringIO()
    vb, s = start("dodgeball", {"setup": "quick"}, out=out)
    before, record = s.state.to_position(), list(s.record.actions)
    edit(vb)
    vb.menu()
    vb.menu()
    vb.ok()                                      # ball ab off the line, into no one's hands
    vb.back()
    vb.sounds.clear()
    vb.ok()
    assert vb.sounds == ["error"]
    assert s.mode == "edit" and s.state.to_position() == before and s.record.actions == record
    lines = vb.oled()[0]
    assert lines[0].startswith("refused 1/") and lines[1:] == ["2 balls in the", "position: there"]
    vb.menu()                                    # the rest of the engine's reason
    assert vb.oled()[0][1] == "are always 3"
    assert "Edit refused: 2 balls in the position: there are always 3" in out.getvalue()
    vb.ok()                                      # back to the edit, still changed
    assert vb.oled()[0][0] == "Edit: changed"
    vb.back()                                    # BACK leaves: nothing changed
    assert s.mode == "playing" and s.state.to_position() == before
    assert s.record.actions == record


def test_ko_a_piece_moved_one_knocked_out_and_one_put_back():
    vb, s = start("ko", {"players": 2, "quick_start": 1})
    before = s.state.to_position()
    assert before.startswith("RB/GY turn:RB:1>4,4>1:q1 R=a1,b1,c1,a2,b2,a3 B=i1,h1,g1,i2,h2,i3")
    edit(vb)
    tap(vb, "a1", "e5")                          # R1 to e5
    tap(vb, "b9")
    vb.menu()                                    # G2 knocked out
    tap(vb, "i2")
    vb.menu()                                    # B4 knocked out
    tap(vb, "e9")                                # an empty space: put a knocked-out piece
    assert vb.oled()[0][1] == "> G2"
    vb.menu()
    assert vb.oled()[0][1] == "> B4"
    vb.menu()
    vb.ok()
    vb.ok()
    expected = ("RB/GY turn:RB:1>4,4>1:q1 R=e5,b1,c1,a2,b2,a3 B=i1,h1,g1,-,h2,i3 "
                "G=a9,e9,c9,a8,b8,a7 Y=i9,h9,g9,i8,h8,i7")
    assert_goes_on_from(s, expected)
    assert any(o.path[:1] == (vb.space("e5"),) for o in s.interaction.options)


def test_ko_an_edit_that_leaves_nothing_to_knock_out_is_refused():
    vb, s = start("ko", {"players": 2, "quick_start": 1})
    before = s.state.to_position()
    edit(vb)
    for space in ("a9", "b9", "c9", "a8", "b8", "a7", "i9", "h9", "g9", "i8", "h8", "i7"):
        tap(vb, space)
        vb.menu()                                # every piece of Green+Yellow out
    vb.ok()
    assert vb.sounds[-1] == "error" and vb.oled()[0][0].startswith("refused")
    assert s.mode == "edit" and s.state.to_position() == before
    vb.ok()
    vb.back()
    assert s.state.to_position() == before and s.record.actions[-1] != "edit"


def test_knockoff_pawns_out_of_home_moved_sent_home_and_the_turn_changed():
    vb, s = start("knockoff", {"players": 2})
    assert s.state.to_position() == "-/- P1 dice 46"
    edit(vb)
    tap(vb, "H1", "1a")                          # a pawn out of P1's home base
    tap(vb, "H1", "2c")
    tap(vb, "2c", "H1")                          # its own home base takes it back
    tap(vb, "1a", "H2")                          # no home base of this game: refused
    assert vb.sounds[-1] == "error" and "not a platform" in vb.text()
    vb.back()
    tap(vb, "H3", "3e")                          # P2's pawn out of its home
    vb.run(2.1)                                  # (the refusal's message goes out)
    tap(vb, "4a")                                # an empty platform: P1 or P2 from home
    assert vb.oled()[0][1:] == ["> R", "OK=put MENU 1/2"]
    vb.menu()
    vb.ok()
    vb.menu()
    vb.ok()                                      # P2 to move (with the dice of the turn)
    vb.back()
    assert vb.cell(vb.space("H1"))[:3] == (255, 0, 0) and vb.text().startswith("Edit: changed")
    vb.ok()
    assert_goes_on_from(s, "1a/3e,4a P2 dice 46")
    assert s.ui.prompt(s.state) == "Green to move"


def test_knockoff_three_pawns_on_top_is_refused_the_game_would_have_ended():
    vb, s = start("knockoff", {"players": 2})
    before = s.state.to_position()
    edit(vb)
    for top in ("6a", "6b", "6c"):
        tap(vb, "H1", top)
    vb.ok()
    assert vb.sounds[-1] == "error" and s.state.to_position() == before
    # the engine's reason, its P1 named as the players know the seat
    assert "Red has 3 pawns" in " ".join(vb.oled()[0][1:])


def test_back_leaves_edit_mode_with_nothing_changed():
    vb, s = start("knockabout", {"first": "white"})
    for cell in s.interaction.options[0].path:   # a move to keep (BACK held would undo it)
        vb.press(cell)
    while s.interaction is None:
        vb.ok()
    before, record = s.state.to_position(), list(s.record.actions)
    edit(vb)
    tap(vb, "E8", "G7", "F7")
    vb.menu()
    assert vb.oled()[0][0] == "Edit: changed"
    vb.back(hold=1.5)                            # leaves edit mode, and undoes nothing
    assert s.mode == "playing" and s.edit is None
    assert s.state.to_position() == before and s.record.actions == record
    assert vb.cell(vb.space("E8"))[:3] != (0, 0, 0)            # the die is lit where it was
    edit(vb)                                                   # a new edit starts afresh
    assert vb.oled()[0][0] == "Edit: as program"
    vb.ok()
    assert s.record.actions == record


def test_every_press_that_can_do_nothing_flashes_buzzes_and_changes_nothing():
    vb, s = start("knockoff", {"players": 2})
    edit(vb)
    board = s.edit.board.copy()
    vb.sounds.clear()
    vb.press_space("H2")                         # no home base of this game: nothing to put
    assert vb.sounds == ["error"] and vb.cell(vb.space("H2")) == (255, 0, 0, "blink")
    assert s.edit.board == board
    tap(vb, "H1", "H4")                          # a pawn from home to no platform
    assert vb.sounds[-1] == "error" and vb.cell(vb.space("H4")) == (255, 0, 0, "blink")
    assert s.edit.board == board and s.edit.selected == "H1"
    vb.sounds.clear()
    vb.menu()                                    # a pawn at home is home already
    assert vb.sounds == ["error"] and "at home already" in vb.text()
    assert s.edit.board == board and s.edit.selected == "H1"


def test_edit_mode_only_shows_the_position_while_a_die_is_to_be_rolled():
    vb = VirtualBoard("knockoff")
    s = vb.start("knockoff", seed=3, physical_dice=True)
    before = s.state.to_position()
    for _ in range(6):
        vb.menu()
    vb.ok()                                      # the dice entry's "menu" entry
    menu_choose(vb, "Edit board")
    assert vb.oled()[0] == ["View only: dice", "press a cell", "OK=done"]
    vb.sounds.clear()
    vb.menu()
    assert vb.sounds == ["error"] and "not now: dice" in vb.text()
    vb.press_space("H1")
    assert vb.oled()[0][1] == "H1: Rx4" and vb.sounds[-1] == "click"
    vb.ok()
    assert s.mode == "dice" and s.state.to_position() == before and not s.record.actions


def test_undo_of_an_edit_restores_the_exact_position_and_redo_makes_it_again():
    vb, s = start("knockabout", {"first": "white"}, seats=["human", "greedy"], seed=5)
    for cell in s.interaction.options[0].path:   # a move of White's, and Black's answer
        vb.press(cell)
    while s.interaction is None:
        vb.ok()
    played, history = list(s.record.actions), list(s.state.history)
    before = s.state.to_position()
    edit(vb)
    empty = next(c.space for c in s.layout.cells
                 if c.space not in s.ui.view(s.state).pieces and c.kind == "main")
    mover = next(sp for sp, p in s.ui.view(s.state).pieces.items() if p.owner == 0)
    tap(vb, mover, empty)
    vb.ok()
    edited = s.state.to_position()
    assert edited != before and s.record.actions == played + ["edit " + edited]
    for cell in s.interaction.options[0].path:   # White moves after the edit
        vb.press(cell)
    while s.interaction is None:
        vb.ok()
    after = list(s.record.actions)
    vb.back(hold=1.2)                            # undo: White's move and Black's answer
    assert s.record.actions == played + ["edit " + edited]
    assert s.state.to_position() == edited
    while s.animation is not None:
        vb.ok()
    vb.back(hold=1.2)                            # undo: the edit
    assert s.record.actions == played and s.state.to_position() == before
    assert s.state.history == history            # the very state the edit replaced
    assert s.animation.steps[0].text == f"W{s.ui.view(s.state).pieces[mover].name[1:]} " \
        f"{empty}>{mover}"
    while s.animation is not None:
        vb.ok()
    menu_choose(vb, "Redo")                      # the edit again
    assert s.record.actions == played + ["edit " + edited] and s.state.to_position() == edited
    while s.animation is not None:
        vb.ok()
    menu_choose(vb, "Redo")                      # and the moves after it
    assert s.record.actions == after
    vb.back(hold=1.2)
    while s.animation is not None:
        vb.ok()
    vb.back(hold=1.2)
    vb.back(hold=1.2)                            # past the edit: the undo goes on
    assert len(s.record.actions) < len(played)
    assert s.record.replay().to_position() == s.state.to_position()
    while s.animation is not None:
        vb.ok()
    edit(vb)                                     # a new edit forgets what could be redone
    tap(vb, mover, empty)
    vb.ok()
    kept = list(s.record.actions)
    menu_choose(vb, "Redo")
    assert "nothing to redo" in vb.text() and s.record.actions == kept
