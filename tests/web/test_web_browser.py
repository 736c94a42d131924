"""A real browser (Debian's headless Chromium) follows a game on the simulator served by
`knockboard play GAME --sim --web`, move by move to the result, and survives the server
restarting. KNOCKBOARD_WEB_SHOTS=DIR also keeps the screenshots there (docs/web/)."""

import sys
import threading

import pytest

from game_writer import new_game, play_into
from page_watch import PAGE_STATE, RECORD_PLIES, Command
from knockboard.games import get_game
from knockboard.session.adapters import get_ui
from knockboard.store import GameStore

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
GAME_SECONDS = 600           # a bound, never reached: a greedy game on the simulator
LAST_MOVE_RING = (0x4A, 0xD8, 0xFF)      # gameview.picture.LAST_MOVE


def stored_game(db):
    store = GameStore(db)
    try:
        return store.get(store.newest())
    finally:
        store.close()


def engine_result(actions, game="knockabout"):
    state = get_game(game).new_initial_state()
    for text in actions:
        state.apply(state.parse_action(text))
    assert state.is_terminal()
    return state.result()



def pixels_near(path, colour, tolerance=24):
    from PIL import Image
    with Image.open(path) as image:
        data = image.convert("RGB").tobytes()
    return sum(1 for k in range(0, len(data), 3)
               if all(abs(data[k + i] - colour[i]) <= tolerance for i in range(3)))


def assert_followed_every_entry(page):
    """Every value the page's entry count took since the test began to record: each entry
    shown in turn, none skipped (the count written again with the same value, as when the
    result comes after the last entry, is not a step)."""
    values = [int(v) for v in page["seen"]]
    seen = [v for i, v in enumerate(values) if i == 0 or v != values[i - 1]]
    assert seen == list(range(seen[0], page["plies"] + 1)), seen


def test_a_browser_follows_a_simulated_game_move_by_move_to_its_result(display, browser,
                                                                       tmp_path):
    db = tmp_path / "games.db"
    play = Command("play", "knockabout", "--sim", "--bots", "all", "--pace", "0.02",
                   "--seed", "11", "--db", db, "--web", "127.0.0.1:0", display=display)
    try:
        url = play.address()
        browser.open(url)
        browser.wait_for("return Number(document.body.dataset.plies) >= 0", 60, "the game")
        browser.run(RECORD_PLIES)
        browser.wait_for("return Number(document.body.dataset.plies) >= 12", GAME_SECONDS,
                         "12 entries")
        browser.shot(tmp_path, "playing.png")
        browser.wait_for("return document.body.dataset.over === 'yes'", GAME_SECONDS,
                         "the result")
        page = browser.run(PAGE_STATE)
        record = stored_game(db)
        assert record.status == "finished"
        # every entry the session saved, on the page in order, each one rendered in turn
        assert len(page["sheet"]) == page["plies"] == len(record.actions)
        for line, entry in zip(page["sheet"], record.actions):
            assert line.endswith(" " + entry), (line, entry)
        assert_followed_every_entry(page)
        assert page["result"] == engine_result(record.actions) == record.result
        end = browser.shot(tmp_path, "result.png")
        assert pixels_near(end, LAST_MOVE_RING) > 50        # the last move ringed
        for seat in range(2):                                  # each seat's LED colour
            assert pixels_near(end, get_ui(get_game("knockabout")).color(seat)) > 50
        browser.set_size(390, 844)                            # a phone
        phone = browser.run("return [document.documentElement.scrollWidth, innerWidth]")
        assert phone[0] <= phone[1], "the page is wider than a phone's screen"
        browser.shot(tmp_path, "phone.png")
        browser.set_size(1920, 1080)                          # a TV
        size = browser.run("return parseFloat(getComputedStyle("
                           "document.getElementById('result')).fontSize)")
        assert size >= 32, "the result is too small to read across a room"
    finally:
        play.stop()


def test_the_page_reconnects_when_the_server_restarts(browser, tmp_path):
    """`view --web` (no display needed) restarted mid-game on the same port: the page says
    the connection is lost, then goes on with the game by itself to its end."""
    from browser import free_port
    db = tmp_path / "games.db"
    game_id = new_game(db, seed=4)
    port = free_port()
    stop_writing = threading.Event()
    writer = threading.Thread(target=play_into, args=(db, game_id),
                              kwargs={"seed": 4, "pause": 0.03, "stop": stop_writing},
                              daemon=True)
    view = Command("view", game_id, "--db", db, "--web", f"127.0.0.1:{port}")
    try:
        browser.open(view.address())
        browser.wait_for("return document.body.dataset.connection === 'live'", 30, "live")
        writer.start()
        browser.wait_for("return Number(document.body.dataset.plies) >= 10", 60, "10 entries")
        view.stop()
        browser.wait_for("return document.body.dataset.connection === 'lost'", 30,
                         "the connection lost")
        lost_at = browser.run(PAGE_STATE)["plies"]
        browser.shot(tmp_path, "reconnecting.png")
        view = Command("view", game_id, "--db", db, "--web", f"127.0.0.1:{port}")
        view.address()
        browser.wait_for("return document.body.dataset.connection === 'live'", 30,
                         "live again")
        browser.wait_for("return document.body.dataset.over === 'yes'", GAME_SECONDS,
                         "the result")
        page = browser.run(PAGE_STATE)
        writer.join(30)
        record = stored_game(db)
        assert page["plies"] > lost_at
        assert [line.split()[-1] for line in page["sheet"]] == \
            [entry.split()[-1] for entry in record.actions]
        assert page["result"] == engine_result(record.actions)
    finally:
        stop_writing.set()
        view.stop()


def test_every_seat_shows_its_led_colour_and_its_letter(browser, tmp_path):
    """Four seats of Knock-Off on a phone: each seat's mark in its LED colour with its
    letter, and the pawns on the board carrying their seat's letter."""
    from browser import free_port
    db = tmp_path / "games.db"
    options = {"players": 4}
    game_id = new_game(db, "knockoff", seed=2, options=options)
    play_into(db, game_id, "knockoff", seed=2, most=40, options=options)
    view = Command("view", game_id, "--db", db, "--web", f"127.0.0.1:{free_port()}")
    try:
        browser.set_size(390, 844)
        browser.open(view.address())
        browser.wait_for("return document.body.dataset.plies === '40'", 30, "the game")
        marks = browser.run("""return [...document.querySelectorAll('#seats li')].map(li => {
            const mark = li.querySelector('.seat-mark');
            return [mark.textContent, getComputedStyle(mark).backgroundColor,
                    li.children[1].textContent];});""")
        pawns = browser.run("""return [...document.querySelectorAll('#board svg text')]
            .filter(t => t.getAttribute('font-weight') === 'bold')
            .map(t => t.textContent);""")
        browser.shot(tmp_path, "knockoff-phone.png")
    finally:
        view.stop()
    ui = get_ui(get_game("knockoff", **options))
    assert [m[2] for m in marks] == [ui.seat_name(k) for k in range(4)]
    assert [m[0] for m in marks] == [ui.seat_name(k)[0] for k in range(4)]
    assert [m[1] for m in marks] == ["rgb({}, {}, {})".format(*ui.color(k)) for k in range(4)]
    assert set(pawns) & set("RGYB"), pawns


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-n", "0", "-q"]))
