"""`--web` on the other commands that show a game: `resume` (the game resumed), `replay`
(the step the board shows) and the replay's snapshots step by step."""

import json
import time
from urllib.parse import urlsplit

from game_writer import new_game, play_into
from http_client import get, status
from http_client import state as page_state
from page_watch import Command
from knockboard.games import get_game
from knockboard.store import GameStore
from knockboard.web.feed import Feed
from knockboard.web.follow import ReplayFollower


def port_of(url):
    return urlsplit(url).port


def first_state(port, seconds=30):
    deadline = time.monotonic() + seconds
    while status(get(port, "/state")) != 200:
        assert time.monotonic() < deadline, "no snapshot served"
        time.sleep(0.05)
    return page_state(port)


def test_resume_web_serves_the_game_resumed(display, tmp_path):
    db = tmp_path / "games.db"
    game_id = new_game(db, seed=6)
    written = play_into(db, game_id, seed=6, most=20)
    new_game(db, seed=7)                     # a newer game: resume's page shows its own
    resume = Command("resume", game_id, "--db", db, "--sim", "--web", "127.0.0.1:0",
                     display=display)
    try:
        snap = first_state(port_of(resume.address()))
    finally:
        resume.stop()
    assert snap["id"] == game_id and [e["text"] for e in snap["sheet"]] == written


def test_replay_web_serves_the_step_the_board_shows(display, tmp_path):
    db = tmp_path / "games.db"
    game_id = new_game(db, seed=8)
    written = play_into(db, game_id, seed=8)
    replay = Command("replay", game_id, "--db", db, "--sim", "--web", "127.0.0.1:0",
                     display=display)
    try:
        snap = first_state(port_of(replay.address()))
    finally:
        replay.stop()
    # the board's replay begins before the first entry
    assert snap["id"] == game_id and snap["step"] == [0, len(written)] and snap["plies"] == 0


def test_a_replay_is_published_at_each_step_it_is_shown(tmp_path):
    db = tmp_path / "games.db"
    game_id = new_game(db, seed=9)
    written = play_into(db, game_id, seed=9)
    store = GameStore(db)
    record = store.get(game_id)
    store.close()
    step = [0]
    feed = Feed()
    follower = ReplayFollower(feed, record, lambda: step[0])
    engine = get_game("knockabout").new_initial_state()
    for k in (0, 1, 2, 5, 4, len(written)):
        step[0] = k
        assert follower.poll()
        snap = json.loads(feed.latest())
        assert snap["step"] == [k, len(written)] and snap["plies"] == k
        assert [e["text"] for e in snap["sheet"]] == written[:k]
        assert (snap["result"] is None) == (k < len(written))
    assert not follower.poll()                          # no change, nothing published
    step[0] = len(written) + 7                          # past the end: the end, as shown
    assert not follower.poll()
    for text in written:
        engine.apply(engine.parse_action(text))
    assert snap["result"] == engine.result()
