"""The game view window on a virtual X screen (Xvfb): for every game, a screenshot shows
each piece the engine says stands on a space in that piece's colour at that space, every
empty space in its overlay print; it follows a game in a store as actions are saved, and a
replay steps with the keys."""

import pytest

from game_view_screens import GAMES, ShownView, played, wrong_pixels

from knockboard.gameview.window import ReplayStepper, StoreFollower
from knockboard.store import GameStore


@pytest.mark.parametrize("name,options", GAMES)
def test_each_piece_is_seen_at_its_space(display, name, options):
    shown = ShownView(display, played(name, options, plies=60, seed=3))
    try:
        assert shown.state.view().pieces            # the position has pieces to look for
        assert not wrong_pixels(shown.grab(), shown.view.picture, shown.state)
    finally:
        shown.close()


def test_the_view_follows_a_game_as_it_is_saved(display, tmp_path):
    record = played("knockabout", plies=30, seed=5)
    db = tmp_path / "games.db"
    shown = ShownView(display, played("knockabout", plies=0))
    follower = StoreFollower(shown.view, db)
    try:
        assert follower.poll() is False             # no database yet: nothing to show
        with GameStore(db) as store:
            game_id = store.new_game(record.__class__(game=record.game, players=record.players))
            for ply, action in enumerate(record.actions):
                store.append(game_id, ply, action)
                if ply % 10 == 9:
                    assert follower.poll() is True
                    shown.settle()
                    state, entries = shown.view.shown
                    assert entries == record.actions[:ply + 1]
                    assert not wrong_pixels(shown.grab(), shown.view.picture, state)
            store.truncate(game_id, 25)             # an undo on the board
        assert follower.poll() is True
        assert shown.view.shown[1] == record.actions[:25]
        assert follower.poll() is False             # nothing new: nothing redrawn
    finally:
        follower.close()
        shown.close()


def test_a_replay_steps_with_the_keys(display):
    record = played("knockoff", {"players": 4}, plies=24, seed=2)
    shown = ShownView(display, record)
    try:
        stepper = ReplayStepper(shown.view, record)
        stepper.bind(shown.root)
        assert shown.view.shown[1] == []
        for key, step in (("<Right>", 1), ("<Right>", 2), ("<End>", 24), ("<Left>", 23),
                          ("<Home>", 0), ("<Left>", 0)):
            shown.root.event_generate(key)
            shown.settle()
            assert stepper.step == step
            state, entries = shown.view.shown
            assert entries == record.actions[:step]
            assert state == record.replay(step)
            assert not wrong_pixels(shown.grab(), shown.view.picture, state)
    finally:
        shown.close()
