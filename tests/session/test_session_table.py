"""At the table (issue 31): what a player reads on the OLED and the terminal is true at that
moment, every press gets an answer, and every game can end.  Each test plays through the
board as a person would."""

import io

from knockboard.games import CHANCE

from autoplay import AutoPlayer
from board_driver import VirtualBoard


def test_knockabout_shows_a_roll_only_until_the_next_move_and_a_reroll_only_while_turned():
    out = io.StringIO()
    vb = VirtualBoard("knockabout")
    session = vb.start("knockabout", seed=4, out=out)
    assert session.record.actors == [CHANCE]      # the roll-off was just rolled
    assert len(vb.oled()[1]) == 2                  # its two dice: who starts, and why
    player = AutoPlayer(vb, seed=3, aggressive=True)
    rerolls = moves = 0
    for _ in range(400):
        animation = session.animation
        rerolling = animation is not None and animation.title == "dice"
        if not player.act():
            break
        dice = vb.oled()[1]
        if dice:                                   # a roll is shown: nobody acted since
            assert session.record.actors[-1] == CHANCE, session.record.actions[-3:]
        if rerolling and session.animation is None:
            rerolls += 1                           # the die is turned: its roll is spent
            assert dice == ()
        moves += session.record.actors[-1] != CHANCE
    assert rerolls >= 2 and moves > 10
    # the terminal prints dice only with the roll that made them, never after a move
    blocks = out.getvalue().split("\n\n")
    assert any("dice:" in b for b in blocks[:3])
    shown = [b for b in blocks if "\ndice: " in b]
    assert len(shown) < len(blocks) // 3


def test_knockoff_seats_are_their_colours_on_the_oled_in_the_log_and_in_the_record():
    out = io.StringIO()
    vb = VirtualBoard("knockoff")
    session = vb.start("knockoff", ["human", "greedy"], seed=8, out=out,
                       actions=["roll 6", "roll 1", "roll 3-4"])
    assert vb.oled()[0][0] == "Red to move"
    assert [p["name"] for p in session.record.players] == ["Red", "Green"]
    assert "seats Red=human, Green=greedy" in out.getvalue()
    vb.menu()
    labels = []
    for _ in range(12):
        labels.append(vb.oled()[0][1])
        vb.menu()
    assert "> Red: person" in labels and "> Green: greedy" in labels
    assert not any("Seat" in label or "P1" in label for label in labels)
