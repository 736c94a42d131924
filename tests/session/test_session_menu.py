"""The on-board menu, physical dice and edit mode: everything without a keyboard."""

from board_driver import VirtualBoard
from test_session_board import menu_choose

from knockboard.session.modes import Waiting


def menu_go(vb, prefix):
    """With the menu open, press MENU until the shown entry starts with `prefix`."""
    for _ in range(30):
        if (vb.menu_entry() or "").startswith(prefix):
            return vb.menu_entry()
        vb.menu()
    raise AssertionError(f"no menu entry {prefix!r}")


def test_a_new_game_with_players_and_computer_seats_is_started_from_the_menu():
    vb = VirtualBoard("knockoff")
    session = vb.start("knockoff", seed=3)
    assert session.game.num_players == 2
    vb.menu()
    assert vb.oled()[0][:2] == ["Menu", "> Back to game"]
    assert menu_go(vb, "Players") == "Players: 2"
    vb.ok()
    assert vb.oled()[0][1] == "> Players: 3"
    assert menu_go(vb, "Yellow:") == "Yellow: person"
    vb.ok()
    assert vb.oled()[0][1] == "> Yellow: easy"
    assert session.game.num_players == 2       # nothing changes before "New game"
    menu_go(vb, "New game")
    vb.ok()
    assert session.mode == "playing" and session.game.num_players == 3
    assert session.record.seats == ["human", "human", "easy"]
    assert session.record.options == {"players": 3}
    assert session.ui.game.board.names  # the adapter follows the new game


def test_a_new_game_from_the_menu_deals_new_dice_reproducibly():
    """MENU -> New game kept the session's seed, so the next game repeated the roll-off and
    the computer's opening; the next seed now follows from the last, and the record says it."""
    seeds = []
    for _ in range(2):
        vb = VirtualBoard("knockoff")
        session = vb.start("knockoff", seed=3)
        first = (session.setup.seed, session.record.seed)
        vb.menu()
        menu_go(vb, "New game")
        vb.ok()
        assert session.mode == "playing"
        seeds.append((first, (session.setup.seed, session.record.seed)))
    (first, second), again = seeds
    assert first == (3, 3) and second[0] == second[1] != 3
    assert again == seeds[0]                  # a seeded session is replayable as a whole


def test_the_menu_offers_only_the_games_the_connected_board_can_play():
    vb = VirtualBoard("ko")
    session = vb.start("ko", seed=1, options={"players": 2})
    assert session.playable_games() == ["ko"]
    vb.menu()
    menu_go(vb, "Game")
    vb.ok()
    assert vb.oled()[0][1] == "> Game: K.O."


def test_back_leaves_the_menu_and_a_seat_made_a_computer_plays_at_once():
    vb = VirtualBoard("knockabout")
    session = vb.start("knockabout", seed=2, options={"first": "white"})
    vb.menu()
    menu_go(vb, "White:")
    vb.ok()                                    # White becomes a computer player
    vb.back()
    assert session.mode == "playing"
    assert session.record.actors[:1] == [0] and session.record.seats[0] == "easy"


def test_a_seat_offers_the_levels_weakest_first_and_plays_at_the_one_chosen():
    vb = VirtualBoard("knockabout")
    session = vb.start("knockabout", seats=["human", "greedy"], seed=2,
                       options={"first": "white"})
    vb.menu()
    # a seat set to a bot by its name (a saved game, --bots 2=greedy) shows that name and
    # goes on to the level after the one it plays as (greedy is the fair level)
    assert menu_go(vb, "Black:") == "Black: greedy"
    shown = []
    for _ in range(4):
        vb.ok()
        shown.append(vb.oled()[0][1])
    assert shown == ["> Black: hard", "> Black: person", "> Black: easy", "> Black: fair"]
    assert session.record.seats == ["human", "fair"]
    menu_go(vb, "White:")
    for _ in range(3):                           # person -> easy -> fair -> hard
        vb.ok()
    assert vb.oled()[0][1] == "> White: hard"
    vb.back()                                    # White, a hard computer now, is to move
    assert session.record.seats == ["hard", "fair"]
    assert session.record.actors[:1] == [0]


def test_physical_dice_are_entered_with_menu_and_ok():
    vb = VirtualBoard("knockoff")
    session = vb.start("knockoff", seed=3, physical_dice=True)
    assert session.mode == "dice"
    assert vb.oled()[:2] == (["Red d6", "value: 1", "MENU=+1 OK=set"], ())
    for _ in range(3):
        vb.menu()
    assert vb.oled()[0][1] == "value: 4"
    vb.ok()
    assert vb.oled()[:2] == (["Green d6", "value: 1", "MENU=+1 OK=set"], ())
    vb.ok()                                    # P2 rolls a 1: P1 starts
    assert session.record.actions == ["roll 4", "roll 1"]
    # the turn's two dice, whose they are and which of the two is asked; the roll-off's
    # dice are spent, so none is drawn: a slip (5) taken back with BACK, then 6 and 2
    assert vb.oled()[:2] == (["Red d6 1/2", "value: 1", "MENU=+1 OK=set"], ())
    for _ in range(4):
        vb.menu()
    vb.ok()
    assert vb.oled()[:2] == (["Red d6 2/2", "value: 1", "MENU=+1 OK=set"], (5,))
    vb.back()
    assert vb.oled()[:2] == (["Red d6 1/2", "value: 5", "MENU=+1 OK=set"], ())
    vb.menu()
    vb.ok()
    vb.menu()
    vb.ok()
    assert session.record.actions[-1] == "roll 2-6"      # entered high first, written low-high
    assert vb.oled()[1] == (2, 6) and session.mode == "playing"


def test_a_hint_asked_after_making_the_movers_seat_a_computer_is_refused_not_a_crash():
    # Closing the menu lets the new computer player move and the (physical) dice come
    # next: nobody at the board is to choose, so there is no move to hint.
    vb = VirtualBoard("knockoff")
    session = vb.start("knockoff", seed=3, physical_dice=True)
    for presses in (3, 0, 5, 1):           # P1 4, P2 1: P1 starts and throws 6 and 2
        for _ in range(presses):
            vb.menu()
        vb.ok()
    assert session.interaction is not None and session.state.current_player() == 0
    vb.menu()
    menu_go(vb, "Red:")
    vb.ok()                                # P1, to move, becomes a computer player
    menu_go(vb, "Hint")
    vb.ok()
    assert session.record.actors[-1] == 0 and session.animation is not None
    assert session.hint == () and "no move to hint" in vb.text()


def test_the_dice_entry_can_reach_the_menu_and_switch_to_electronic_dice():
    vb = VirtualBoard("knockoff")
    session = vb.start("knockoff", seed=3, physical_dice=True)
    for _ in range(6):
        vb.menu()
    assert vb.oled()[0][1] == "value: menu"
    vb.ok()
    assert session.mode == "menu"
    menu_go(vb, "Dice")
    vb.ok()
    assert vb.oled()[0][1] == "> Dice: screen"
    vb.back()
    assert session.mode == "playing" and len(session.record.actions) >= 2


def test_edit_mode_shows_the_programs_pieces_and_what_a_cell_holds():
    vb = VirtualBoard("knockabout")
    session = vb.start("knockabout", seed=2, options={"first": "white"})
    before = session.state.to_position()
    menu_choose(vb, "Edit board")
    assert session.mode == "edit"
    d5 = vb.space("D5")
    assert vb.cell(d5) == (255, 255, 255, "solid")      # every piece at full strength
    assert vb.cell(vb.space("D6")) == (0, 90, 255, "solid")
    vb.press(d5)                                        # selects the die: it blinks
    assert vb.oled()[0][0] == "D5: W4=1" and vb.cell(d5)[3] == "blink"
    vb.back()                                           # deselects
    vb.press_space("G7")               # empty, and no die is off the board: nothing to put
    assert vb.sounds[-1] == "error" and vb.cell(vb.space("G7"))[:3] == (255, 0, 0)
    vb.ok()
    assert session.mode == "playing" and session.state.to_position() == before


def test_presses_while_entering_dice_or_after_the_end_are_illegal_and_change_nothing():
    vb = VirtualBoard("knockoff")
    session = vb.start("knockoff", seed=3, physical_dice=True)
    vb.menu()
    vb.sounds.clear()
    vb.press(5)
    assert vb.sounds == ["error"] and session.entry.current == 2 and not session.record.actions
    assert vb.cell(5) == (255, 0, 0, "blink")


def test_a_hint_lights_the_strong_bots_move_and_goes_out_when_a_move_is_played():
    vb = VirtualBoard("knockabout")
    session = vb.start("knockabout", seats=["human", "greedy"], seed=5)
    while session.state.current_player() != 0 or session.interaction is None:
        vb.ok()                                    # roll-off, computer moves, hand steps
    before = session.state.to_position()
    vb.menu()
    assert menu_go(vb, "Hint") == "Hint"
    vb.ok()
    vb.run(0.2)
    assert session.state.to_position() == before   # a hint plays nothing
    hinted = [o for o in session.interaction.options if o.path == session.hint]
    assert len(hinted) == 1 and hinted[0].action in session.state.legal_actions()
    assert vb.lit("chase") == set(session.hint) and len(session.hint) == 2
    assert "hint:" in vb.text()
    ply = len(session.state.history)
    for cell in session.hint:                      # play the hinted move with the presses
        vb.press(cell)
    assert session.state.history[ply] == hinted[0].action
    assert session.hint == () and vb.lit("chase") == set()


def test_the_menu_offers_no_hint_when_no_person_is_to_choose():
    vb = VirtualBoard("knockabout")
    session = vb.start("knockabout", seats=["human", "greedy"], seed=5)
    session.switch_to(Waiting(session))            # e.g. a hand step is being shown
    vb.menu()
    assert all(not label.startswith("Hint") for _, label in session.menu.entries())
