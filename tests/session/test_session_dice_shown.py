"""Every die shown until it is spent, with whose it is (issue 47, findings 1, 2 and 7):
each game's dice situations (a roll-off, Dodgeball's duel, a computer's turn, physical
dice entered, the end) played through the session on the simulator's board, reading the
dice and the words the OLED shows."""

import re

from knockboard.session.types import ROLL_TITLE

from autoplay import AutoPlayer
from board_driver import VirtualBoard


def rolled(action):
    """The faces a chance action of the record shows ("roll 2 5", "roll 3-4")."""
    return tuple(int(v) for v in re.findall(r"\d+", action))


def last_roll(record):
    """The faces of the record's last chance action."""
    for action, actor in zip(reversed(record.actions), reversed(record.actors)):
        if actor < 0 and action.startswith("roll"):
            return rolled(action)
    raise AssertionError("no roll in the record")


def test_knockabout_the_roll_off_dice_are_drawn_named_by_whose_they_are():
    vb = VirtualBoard("knockabout")
    session = vb.start("knockabout", ["human", "human"], seed=5)
    white, black = rolled(session.record.actions[0])
    lines, dice, _ = vb.oled()
    assert dice == (white, black)
    assert lines[1] == f"White {white}, Black {black}"


def test_dodgeball_a_duel_shows_the_throwers_and_the_targets_die_by_team():
    vb = VirtualBoard("dodgeball")
    session = vb.start("dodgeball", ["human", "human"], seed=3, options={"setup": "quick"})
    player = AutoPlayer(vb, 3, aggressive=True)
    duels = with_dice_left = 0
    for _ in range(4000):
        if not player.act() or duels >= 6:
            break
        acts, actors = session.record.actions, session.record.actors
        if not (len(acts) >= 4 and ":throw " in acts[-4] and acts[-3] in ("catch", "dodge")
                and acts[-2].startswith("roll") and acts[-1].startswith("roll")):
            continue
        thrower = ("Blue", "Orange")[actors[-4]]
        target = ("Blue", "Orange")[1 - actors[-4]]
        duel = rolled(acts[-2]) + rolled(acts[-1])
        duels += 1
        # the thrower's team still holds dice of its turn: the duel's are drawn, not those
        with_dice_left += bool(session.state.view().team_dice[actors[-4]][0])
        shown = 0
        while session.mode == "playing" and (
                (session.animation is not None and session.animation.title == ROLL_TITLE)
                or "put ball" in vb.oled()[0][0]):
            lines, dice, _ = vb.oled()
            assert dice == duel, (acts[-4:], lines)
            assert f"{thrower} {duel[0]}, {target} {duel[1]}" in lines, lines
            shown += 1
            if not player.act():
                break
        assert shown, f"the duel {acts[-4:]} was never shown"
    assert duels >= 3 and with_dice_left >= 1


def test_a_computers_whole_roll_is_shown_while_its_moves_are_confirmed():
    for game, options in (("ko", {"players": 2, "quick_start": 1}),
                          ("knockoff", {"players": 2})):
        vb = VirtualBoard(game)
        session = vb.start(game, ["human", "fair"], seed=2, options=options)
        bot = session.ui.seat_name(1)
        # a two-colour K.O. seat by its initials where the line is short (oled.py, rule 2)
        said = "+".join(part[0] for part in bot.split("+")) if "+" in bot else bot
        player = AutoPlayer(vb, 2)
        steps = partly_spent = 0
        for _ in range(600):
            a = session.animation
            if a is not None and a.title == bot:
                roll = last_roll(session.record)
                lines, dice, _ = vb.oled()
                assert sorted(dice) == sorted(roll), (game, roll, lines, dice)
                assert lines[1] == f"{said} rolled {' '.join(map(str, dice))}", lines
                steps += 1
                # the engine has spent dice the OLED still shows for the step being made
                partly_spent += len(session.state.view().dice) < len(roll)
            if not player.act():
                break
        assert steps >= 10 and partly_spent >= 3, (game, steps, partly_spent)


def test_physical_dice_ask_for_whose_die_and_draw_only_the_ones_entered():
    vb = VirtualBoard("dodgeball")
    session = vb.start("dodgeball", ["human", "human"], seed=4, physical_dice=True,
                       options={"setup": "quick"})
    player = AutoPlayer(vb, 4, aggressive=True)
    entries = duel_entries = 0
    for _ in range(2000):
        if session.mode == "dice" and not session.entry.values:
            lines, dice, _ = vb.oled()
            assert dice == (), lines                  # nothing stale above the question
            view = session.state.view()
            if view.throw is not None:
                squares = (view.throw.thrower, view.throw.target)
                team = view.pieces[squares[len(view.throw.rolls)]].owner
                duel_entries += 1
            elif view.phase == "rolloff":
                team = 0 if len(view.team_dice[0][0]) < 3 else 1
            else:
                team = view.turn
            assert lines[0] == ("Blue", "Orange")[team] + " d6", lines
            entries += 1
        if not player.act() or duel_entries >= 2:
            break
    assert entries >= 8 and duel_entries >= 2

    vb = VirtualBoard("ko")
    session = vb.start("ko", ["human", "human"], seed=4, physical_dice=True,
                       options={"players": 2, "quick_start": 1})
    assert vb.oled()[:2] == (["Red+Blue d6 1/2", "value: 1", "MENU=+1 OK=set"], ())
    vb.ok()
    assert vb.oled()[:2] == (["Red+Blue d6 2/2", "value: 1", "MENU=+1 OK=set"], (1,))


def test_the_end_by_agreement_draws_no_die():
    vb = VirtualBoard("knockoff")
    session = vb.start("knockoff", ["human", "human"], seed=3)
    assert vb.oled()[1], "the turn's dice are drawn"
    vb.menu()
    for _ in range(20):
        if (vb.menu_entry() or "").startswith("End game"):
            break
        vb.menu()
    vb.ok()
    vb.ok()
    lines, dice, _ = vb.oled()
    assert session.mode == "over" and lines[0] == "By agreement:" and dice == ()
