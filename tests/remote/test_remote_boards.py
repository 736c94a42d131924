"""Whole games between simulated boards in separate homes through the test's Mosquitto, with
users, passwords and an ACL per room: every game, K.O. and Knock-Off with three or four
seats over three homes.  Each home's session shows the other homes' moves as steps and
confirms them by presses; at the end every home's record is the same."""

import pytest

from homes import BoardHome, Home, closing, play_boards, play_headless, run_until

GAMES = [("knockabout", {}, [[1], [2]], 11), ("dodgeball", {}, [[1], [2]], 2),
         ("ko", {"players": 2, "quick_start": 1}, [[1], [2]], 5),
         ("knockoff", {"players": 2}, [[1], [2]], 7),
         ("ko", {"players": 4}, [[1], [2, 3], [4]], 2),
         ("knockoff", {"players": 3}, [[1], [2], [3]], 1)]


@pytest.mark.parametrize("game,options,homes,seed", GAMES,
                         ids=[f"{g}-{o.get('players', 2)}" for g, o, _, _ in GAMES])
def test_boards_in_separate_homes_play_a_whole_game_with_identical_records(
        make_broker, game, options, homes, seed):
    broker = make_broker({"room": homes})
    boards = [BoardHome(broker, "room", game, options, seats, seed + i).start()
              for i, seats in enumerate(homes)]
    with closing(boards):
        play_boards(boards)
        for home in boards:
            assert not home.game.stopped and not home.lines, home.lines
            assert home.session.state.is_terminal()
            assert home.session.record.actions == home.game.record
        assert all(h.game.record == boards[0].game.record for h in boards)
        record = boards[0].session.record
        assert record.replay().to_position() == boards[0].session.state.to_position()
        # each home's terminal marked the others' moves; the broker refused nothing
        for home in boards:
            assert "[remote]" in home.out.getvalue()
            assert home.room.denied == []


def test_a_spectator_joining_mid_game_gets_the_whole_game_from_the_retained_room(make_broker):
    """A read-only user who joins late sends nothing (its ACL allows nothing) and still gets
    every entry so far from the broker's retained messages, each checked by its own engine,
    dice reveals against their commitments; then it follows the game to its end."""
    broker = make_broker({"watch": 2})
    homes = [Home(broker, "watch", "knockoff", {"players": 2}, [s]).start() for s in (1, 2)]
    hosts = [h.headless(s) for s, h in enumerate(homes)]
    spectator = None
    try:
        run_until([h.step for h in hosts], lambda: len(homes[0].game.record) >= 30,
                  "30 entries")
        for h in homes:
            h.room.client.loop_stop()      # the homes pause: nothing new while it joins
        so_far = list(homes[0].game.record)
        spectator = Home(broker, "watch", "knockoff", {"players": 2}, [],
                         user="watch-watch").start()
        run_until([spectator.link.pump], lambda: len(spectator.game.record) >= len(so_far),
                  "the spectator caught up", 10)
        assert spectator.game.record == so_far and spectator.room.sent_messages == 0
        for h in homes:
            h.room.client.loop_start()
        play_headless(homes, [0, 1])
        run_until([spectator.link.pump],
                  lambda: spectator.game.record == homes[0].game.record, "the end", 10)
        assert spectator.game.state.is_terminal() and spectator.lines == []
    finally:
        for h in homes + ([spectator] if spectator else []):
            h.close()


def test_a_remote_games_menu_offers_a_hint_ending_and_leaving_and_says_why_not_undo_or_edit(
        make_broker):
    broker = make_broker({"menu": [[1], [2]]})
    boards = [BoardHome(broker, "menu", "knockabout", {"first": "white"}, [seat], 3).start()
              for seat in (1, 2)]
    with closing(boards):
        home = boards[0]
        waiting = ["waiting for the", "other board", "White to move"]
        # the other board names the seat it waits for as its players know it (once its own
        # line to the broker is up: on a busy machine it may still say "no broker")
        run_until([h.session.step for h in boards],
                  lambda: home.session.interaction is not None
                  and boards[1].vb.oled()[0] == waiting, "White to choose, the other board waiting")
        vb, session = home.vb, home.session
        vb.menu()
        labels = []
        for _ in range(8):
            labels.append(vb.menu_entry())
            vb.menu()
        assert labels[:7] == ["Back to game", "Hint", "Resign", "End game (agree)", "Undo",
                              "Edit board", "Leave game"]
        assert labels[7] == "Back to game"       # nothing of the room's: game, seats, dice
        for entry, why in (("Undo", "remote: no undo"), ("Edit board", "remote: no edit")):
            vb.menu()
            while vb.menu_entry() != entry:
                vb.menu()
            vb.ok()
            assert why in vb.text() and vb.sounds[-1] == "error"
            assert session.record.actions == home.game.record
            if session.menu is None:
                vb.menu()
        while vb.oled()[0][1] != "> Hint":
            vb.menu()
        vb.ok()
        assert session.hint and vb.oled()[0][-1].startswith("hint: ")
        vb.menu()
        while vb.oled()[0][1] != "> Leave game":
            vb.menu()
        vb.ok()
        assert not session.running and "Left the game" in home.out.getvalue()
