"""The game view window on a virtual X screen (Xvfb): for every game, a screenshot shows
each piece the engine says stands on a space in that piece's colour at that space, every
empty space in its overlay print; it follows a game in a store as actions are saved, and a
replay steps with the keys."""

import sys
import os

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gameview"))

from game_view_screens import GAMES, ShownView, played  # noqa: E402

from knockboard.gameview.picture import token_for  # noqa: E402
from knockboard.gameview.window import ReplayStepper, StoreFollower  # noqa: E402
from knockboard.sim import look  # noqa: E402
from knockboard.store import GameStore  # noqa: E402


def rgb(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def wrong_pixels(shown, state):
    """(space, seen, wanted) where the screenshot disagrees with the engine's view."""
    image = shown.grab()
    picture = shown.view.picture
    view = state.view()
    ui = picture.ui
    untouched = not getattr(view, "throw", None)
    loose = getattr(view, "loose", {})
    bases = dict(zip(getattr(view, "home_bases", ()), getattr(view, "home", ())))
    wrong = []
    for cell in picture.layout.cells:
        x, y = picture.sample_point(cell.space)
        seen = image.getpixel((round(x), round(y)))[:3]
        piece = view.piece_at(cell.space)
        if piece is not None:
            wanted = rgb(token_for(ui, view, piece).fill)
        elif bases.get(cell.space):
            continue                 # a home base's count token: checked by its own test
        elif untouched and cell.space not in loose:
            wanted = rgb(look.unlit_fill(cell))
        else:
            continue
        if seen != wanted:
            wrong.append((cell.space, seen, wanted))
    return wrong


@pytest.mark.parametrize("name,options", GAMES)
def test_each_piece_is_seen_at_its_space(display, name, options):
    shown = ShownView(display, played(name, options, plies=60, seed=3))
    try:
        assert shown.state.view().pieces            # the position has pieces to look for
        assert not wrong_pixels(shown, shown.state)
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
                    assert not wrong_pixels(shown, state)
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
            assert not wrong_pixels(shown, state)
    finally:
        shown.close()
