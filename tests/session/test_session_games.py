"""Whole games of each of the four games played through presses on the virtual board (the
real firmware core behind the real board link): every action reaches the engine through
the interaction controller, so the game ends with a record of legal actions only."""

import io

import pytest

from knockboard.games import get_game

from autoplay import AutoPlayer
from board_driver import VirtualBoard

# the words a player reads for each seat: colours, never the engines' "team 1" or "P1"
SEAT_WORDS = {"knockabout": ("White", "Black"), "dodgeball": ("Blue", "Orange"),
              "ko": ("Red", "Green", "Yellow", "Blue"),
              "knockoff": ("Red", "Green", "Yellow", "Blue")}
# why a game is over, as the OLED says it (RULES.md: each game's end)
END_WORDS = {"knockabout": "dice in the gutter", "dodgeball": "has no pawns left",
             "ko": "knock", "knockoff": "pawns on the top row"}
GAMES = [("knockabout", {}, 11), ("dodgeball", {}, 2), ("ko", {"players": 4}, 2),
         ("ko", {"players": 2, "quick_start": 1}, 5), ("knockoff", {"players": 2}, 7),
         ("knockoff", {"players": 4}, 3)]


@pytest.mark.parametrize("game,options,seed", GAMES,
                         ids=[f"{g}-{o.get('players', 2)}" for g, o, _ in GAMES])
def test_a_full_game_through_presses_reaches_the_end_with_legal_actions_only(game, options,
                                                                            seed):
    vb = VirtualBoard(game)
    session = vb.start(game, seed=seed, options=options)
    # knocks and throws preferred: a random Dodgeball or K.O. game runs to a thousand plies
    assert AutoPlayer(vb, seed, aggressive=True).play(6000), "the game did not end"
    assert session.state.is_terminal() and session.mode == "over"
    # the record replays, action by action, through the engine's legality checks
    replayed = session.record.replay()
    assert replayed.to_position() == session.state.to_position()
    assert replayed.history == session.state.history
    lines, dice, _ = vb.oled()
    assert lines[0] == "Game over" and lines[1] and dice == ()
    assert "win" in vb.sounds
    # who won, by the colour the players know the seat by (a K.O. pair by its initials,
    # "R+B"), on the OLED and in the record, and why the game is over (the rules' end)
    text = vb.screen_text()
    assert any(word in text or f"{word[0]}+" in text for word in SEAT_WORDS[game]), text
    assert END_WORDS[game] in text, text
    assert not any(number in session.record.result for number in ("team ", "Team ", "P1",
                                                                   "P2", "P3", "P4"))
    if game in ("dodgeball", "knockoff"):
        assert lines[1] == session.record.result and lines[1].split()[0] in SEAT_WORDS[game]


def test_the_set_up_phases_are_played_on_the_board_too():
    """Dodgeball's back-row set-up and K.O.'s secret set-up, by presses."""
    for game, options in (("dodgeball", {}), ("ko", {"players": 3})):
        vb = VirtualBoard(game)
        session = vb.start(game, seed=2, options=options)
        player = AutoPlayer(vb, 2)
        while session.state.to_position().split()[0 if game == "dodgeball" else 1] \
                .startswith("setup"):
            player.act()
        texts = session.record.actions
        assert texts and all(("place" in t or "@" in t) for t in texts
                             if not t.startswith("roll"))


def test_a_seeded_game_gives_the_same_record_twice():
    records = []
    for _ in range(2):
        vb = VirtualBoard("knockoff")
        session = vb.start("knockoff", seats=["human", "greedy"], seed=99)
        AutoPlayer(vb, 5).play(3000)
        records.append(session.record.to_dict())
    assert records[0] == records[1] and len(records[0]["actions"]) > 20


def test_computer_players_alone_finish_a_game_and_the_terminal_follows_it():
    out = io.StringIO()
    vb = VirtualBoard("knockabout")
    session = vb.start("knockabout", seats=["greedy", "random"], seed=4, out=out)
    assert AutoPlayer(vb, 4).play(3000)
    text = out.getvalue()
    assert "New game: KNOCKabout" in text and "[computer]" in text
    assert "Game over: " + session.state.result() in text
    assert "   A    B    C" in text            # the board picture
    assert session.record.seats == ["greedy", "random"]
    assert get_game("knockabout")  # the engine itself is untouched by the session
