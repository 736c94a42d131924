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


def test_a_reviewed_replay_draws_the_chance_to_win_under_the_board(display):
    """The review's picture in the window: a line per player in its ink, each blunder
    circled on the line of the player who made it, the luckiest rolls marked, and an upright
    line at the step shown, which follows the keys."""
    from game_view_screens import rgb
    from knockboard.gameview import chance_chart as C
    from knockboard.review import Decision, Roll, review_record
    from knockboard.review.marks import BLUNDER, LUCKY
    from knockboard.review.seeded import bot_game

    record = bot_game("knockabout", ("random", "greedy"), 1, iterations=10)
    review = review_record(record, iterations=4)
    shown = ShownView(display, record)
    try:
        stepper = ReplayStepper(shown.view, record, review)
        stepper.bind(shown.root)
        shown.settle()
        n = len(review.steps)
        plot_w, plot_h = C.WIDTH - C.LEFT - C.RIGHT, C.HEIGHT - C.TOP - C.BOTTOM

        def at(k, chance):        # where step k's chance lies on the chart
            return round(C.LEFT + plot_w * k / n), round(C.TOP + plot_h * (1 - chance))

        def seen(image, x, y):
            return image.getpixel((x, y))[:3]

        image = grab(shown.view.chart, display)
        blunders = [(k, s) for k, s in enumerate(review.steps)
                    if isinstance(s, Decision) and s.error >= BLUNDER]
        assert blunders
        for k, s in blunders:
            x, y = at(k + 1, s.after[s.player])
            # the ring's left and right edges, 4 pixels either side of the point
            assert rgb(C.BLUNDER_INK) in (seen(image, x - 4, y), seen(image, x + 4, y)), k
        lucky = sorted(((k, s) for k, s in enumerate(review.steps) if isinstance(s, Roll)
                        and s.luck[s.favoured] >= LUCKY),
                       key=lambda ks: -ks[1].luck[ks[1].favoured])[:C.LUCKIEST]
        assert lucky
        for k, s in lucky:
            x, y = at(k + 1, s.after[s.favoured])
            assert rgb(C.LUCK_INK) in (seen(image, x - 6, y), seen(image, x + 6, y)), k
        # each player's line: where its chance stays level over a step (the two lines apart
        # and no mark near), the middle of that step is in the player's ink
        inks = [rgb(C._line_ink(shown.view.picture.ui.color(p))) for p in (0, 1)]
        marked = {k for k, _ in blunders + lucky}
        for p in (0, 1):
            level = [k for k in range(1, n) if k not in marked and k - 1 not in marked
                     and abs(review.steps[k].after[p] - review.steps[k - 1].after[p]) < 1e-9
                     and abs(review.steps[k].after[p] - review.steps[k].after[1 - p]) > 0.05]
            assert len(level) > 5
            hits = sum(seen(image, (at(k, 0)[0] + at(k + 1, 0)[0]) // 2,
                            at(k, review.steps[k].after[p])[1]) == inks[p] for k in level)
            assert hits >= 0.9 * len(level), (p, hits, len(level))
        # the step shown: an upright line in the cursor's ink at its x, from 1 down to 0
        for key, step in (("<Home>", 0), ("<Right>", 1), ("<End>", n)):
            shown.root.event_generate(key)
            shown.settle()
            image = grab(shown.view.chart, display)
            x = at(step, 0)[0]
            column = [seen(image, x, y) for y in range(C.TOP + 5, C.HEIGHT - C.BOTTOM - 5)]
            assert column.count(rgb(C.CURSOR_INK)) > 0.6 * len(column), step
    finally:
        shown.close()


def grab(canvas, display):
    from PIL import ImageGrab
    x, y = canvas.winfo_rootx(), canvas.winfo_rooty()
    return ImageGrab.grab(bbox=(x, y, x + canvas.winfo_width(), y + canvas.winfo_height()),
                          xdisplay=display)


def test_replay_view_of_a_reviewed_game_puts_the_chart_under_the_board(display, tmp_path,
                                                                      monkeypatch, capsys):
    """`knockboard replay ID --view` finds the review kept next to the database: its window
    has the chart's canvas under the board's, drawn (a game never reviewed: the board
    only)."""
    import tkinter

    from knockboard.cli import main
    from knockboard.gameview import chance_chart as C
    from knockboard.review.seeded import bot_game

    db = tmp_path / "games.sqlite3"
    record = bot_game("knockoff", ("random", "greedy"), 1, {"players": 2}, iterations=10)
    with GameStore(db) as store:
        store.new_game(record)
        store.new_game(record)
    assert main(["review", "1", "--db", str(db)]) == 0
    windows = []

    def look(root):                      # in place of Tk's loop: look, then close
        root.update()
        canvases = [w for w in root.winfo_children() if isinstance(w, tkinter.Canvas)]
        windows.append(sorted(((c.winfo_y(), c.winfo_width(), c.winfo_height(),
                                len(c.find_all())) for c in canvases)))   # top down
        root.destroy()
    monkeypatch.setattr(tkinter.Tk, "mainloop", look)
    monkeypatch.setenv("DISPLAY", display)
    for game_id in (1, 2):
        assert main(["replay", str(game_id), "--view", "--db", str(db)]) == 0
    capsys.readouterr()
    reviewed, plain = windows
    assert len(plain) == 1 and len(reviewed) == 2
    board, chart = reviewed
    assert (chart[1], chart[2]) == (C.WIDTH, C.HEIGHT) and chart[0] >= board[0] + board[2]
    assert chart[3] > 2 * len(record.actions)      # a segment a step for each player
