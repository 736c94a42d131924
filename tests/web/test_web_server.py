"""The web server (`--web`) over loopback: it serves the stored game and every entry as it
is saved, and it stays read-only and bounded whatever a client sends."""

import json
import socket
import threading
import time

import pytest

from game_writer import new_game, play_into
from http_client import EventStream, body, get, raw, read_all, state, status
from knockboard.cli import main
from knockboard.games import get_game
from knockboard.store import GameStore
from knockboard.web.address import WebAddressError, parse_web_address
from knockboard.web.feed import Feed
from knockboard.web.follow import store_watcher
from knockboard.web.limits import MAX_PER_CLIENT, RateLimit
from knockboard.web.request import HEAD_SECONDS
from knockboard.web.serve import serving_store
from knockboard.web.server import Served

LOOPBACK = ("127.0.0.1", 0)


def stored(db, game_id):
    store = GameStore(db)
    try:
        record = store.get(game_id)
        return list(record.actions), record.status, record.result
    finally:
        store.close()


def engine_end(actions):
    """The engine's own state after `actions` (the stored entries), replayed here."""
    state_ = get_game("knockabout").new_initial_state()
    for text in actions:
        state_.apply(state_.parse_action(text))
    return state_


def wait_until(check, seconds=15.0):
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the bound"
        time.sleep(0.02)


@pytest.mark.parametrize("text, address", [
    ("8080", ("127.0.0.1", 8080)),
    ("0.0.0.0:8080", ("0.0.0.0", 8080)),
    ("localhost:0", ("127.0.0.1", 0)),
    ("192.168.1.20:65535", ("192.168.1.20", 65535)),
])
def test_a_web_address_is_read_as_host_and_port(text, address):
    assert parse_web_address(text) == address


@pytest.mark.parametrize("text", ["", "http", "65536", "-1", "1_000", "example.org:80",
                                  "[::1]:80", "::1", "127.0.0.1:", "１２３"])
def test_a_bad_web_address_is_refused(text):
    with pytest.raises(WebAddressError):
        parse_web_address(text)


def test_a_bad_web_address_on_the_command_line_is_one_line_and_status_2(tmp_path, capsys):
    assert main(["view", "--db", str(tmp_path / "g.db"), "--web", "99999"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--web" in err and "65535" in err


def test_a_port_already_taken_is_one_line_and_status_2(tmp_path, capsys):
    db = tmp_path / "g.db"
    new_game(db)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["view", "--db", str(db), "--web", f"127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"127.0.0.1:{port}" in err and "cannot listen" in err


@pytest.mark.parametrize("argv", [
    ["play", "knockabout", "--sim"],                        # no window can open
    ["play", "knockabout", "--port", "/nonexistent/ttyACM9"],  # no board there
    ["replay", "1", "--view"],                              # no window can open
    ["replay", "1", "--port", "/nonexistent/ttyACM9"],
])
def test_a_command_refused_prints_no_address(argv, tmp_path, capsys, monkeypatch):
    """The address is printed once the command goes on: a refused one prints one line on
    stderr and nothing on stdout, as every refused command (tests/test_cli_input.py)."""
    monkeypatch.delenv("DISPLAY", raising=False)
    db = tmp_path / "g.db"
    play_into(db, new_game(db), most=5)
    assert main(argv + ["--db", str(db), "--web", "127.0.0.1:0"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, (out, err)


def test_web_cannot_follow_a_game_that_is_not_saved(tmp_path, capsys):
    assert main(["play", "knockabout", "--sim", "--no-save", "--web", "0"]) == 2
    assert "--no-save" in capsys.readouterr().err


def test_the_page_and_the_state_are_the_stored_game(tmp_path):
    db = tmp_path / "g.db"
    game_id = new_game(db)
    written = play_into(db, game_id)
    actions, status_, result = stored(db, game_id)
    assert actions == written and status_ == "finished"
    with serving_store(LOOPBACK, db) as served:
        wait_until(lambda: status(get(served.port, "/state")) == 200)
        snap = state(served.port)
        page = get(served.port, "/")
        script = get(served.port, "/app.js")
    assert status(page) == 200 and b"<script src=\"app.js\"" in body(page)
    assert status(script) == 200 and b"EventSource" in body(script)
    assert [e["text"] for e in snap["sheet"]] == actions
    assert snap["plies"] == len(actions) and snap["id"] == game_id
    end = engine_end(actions)
    assert end.is_terminal() and snap["result"] == end.result() == result
    assert snap["svg"].startswith("<svg") and snap["svg"].rstrip().endswith("</svg>")
    movers = [e for e in snap["sheet"] if e["who"] not in ("dice", "roll-off")]
    assert snap["last"]["ply"] == movers[-1]["ply"] and snap["last"]["text"] == movers[-1]["text"]
    assert [s["letter"] for s in snap["seats"]] == ["W", "B"]


def test_the_event_stream_brings_every_entry_in_order(tmp_path):
    db = tmp_path / "g.db"
    game_id = new_game(db, seed=3)
    with serving_store(LOOPBACK, db) as served:
        wait_until(lambda: status(get(served.port, "/state")) == 200)
        stream = EventStream(served.port)
        try:
            assert b"text/event-stream" in stream.head
            first = stream.next()
            assert first["plies"] == 0 and first["result"] is None
            written = play_into(db, game_id, seed=3, pause=0.01, most=60)
            seen = [first["plies"]]
            while seen[-1] < len(written):
                seen.append(stream.next()["plies"])
        finally:
            stream.close()
    assert seen == list(range(len(written) + 1))


def test_a_page_for_a_game_about_to_start_waits_for_it_not_the_one_before(tmp_path):
    db = tmp_path / "g.db"
    before = new_game(db, seed=1)
    play_into(db, before, seed=1, most=5)
    with serving_store(LOOPBACK, db, after=before) as served:
        time.sleep(0.3)                                  # several looks at the store
        assert status(get(served.port, "/state")) == 503
        started = new_game(db, seed=2)
        wait_until(lambda: status(get(served.port, "/state")) == 200)
        snap = state(served.port)
    assert snap["id"] == started != before and snap["plies"] == 0


def test_each_seat_has_its_led_colour_and_a_letter_on_its_plain_pieces():
    from knockboard.session.adapters import get_ui
    from knockboard.store import GameRecord
    from knockboard.web.snapshot import SnapshotMaker
    import random
    from knockboard.games import sample_chance
    game = get_game("dodgeball")
    state_ = game.new_initial_state()
    choose = random.Random(5)
    while not state_.view().pieces:              # past the setup, the pawns on the board
        state_.apply(sample_chance(state_, choose) if state_.is_chance_node()
                     else choose.choice(state_.legal_actions()))
    snap = SnapshotMaker().make(GameRecord.seated("dodgeball", {}, ["human"] * 2, 1), state_, [])
    ui = get_ui(game)
    assert [(s["name"], s["letter"]) for s in snap["seats"]] == [("Blue", "B"), ("Orange", "O")]
    for seat, row in enumerate(snap["seats"]):
        r, g, b = ui.color(seat)
        assert row["colour"].lower() == f"#{r:02x}{g:02x}{b:02x}"
    pawns = len(state_.view().pieces)
    lettered = snap["svg"].count('font-weight="bold">B</text>') + \
        snap["svg"].count('font-weight="bold">O</text>')
    assert pawns > 0 and lettered == pawns


def test_a_secret_set_up_shows_no_number_until_it_is_over():
    """K.O.'s set-up (KO-1) is secret: the page, which every player's phone may show,
    draws the pieces as colours only and keeps the set-up's moves, which name the numbers,
    off the sheet until the game starts."""
    import random
    from knockboard.games import sample_chance
    from knockboard.gameview.sheet import sheet_entry
    from knockboard.session.adapters import get_ui
    from knockboard.store import GameRecord
    from knockboard.gameview.table import SECRET
    from knockboard.web.snapshot import SnapshotMaker
    game = get_game("ko", players=2)
    ui = get_ui(game)
    record = GameRecord.seated("ko", {"players": 2}, ["human"] * 2, 1)
    state_, sheet, choose, maker = game.new_initial_state(), [], random.Random(3), SnapshotMaker()
    seen_secret = False
    while len(sheet) < 200 and not state_.is_terminal():
        action = sample_chance(state_, choose) if state_.is_chance_node() else \
            choose.choice(state_.legal_actions())
        sheet.append(sheet_entry(ui, state_, state_.action_to_string(action)))
        state_.apply(action)
        snap = maker.make(record, state_, sheet)
        numbers = {p.number for p in state_.view().pieces.values()}
        if state_.view().phase == "setup":
            seen_secret = True
            assert all(e["text"] == SECRET for e in snap["sheet"] if e["who"] not in
                       ("dice", "roll-off"))
            assert snap["last"] is None or snap["last"]["text"] == SECRET
            assert not any(f'font-weight="bold">{n}</text>' in snap["svg"]
                           for n in numbers if n)
        elif seen_secret:
            break
    assert seen_secret and state_.view().phase != "setup"
    assert SECRET not in [e["text"] for e in snap["sheet"]]
    assert [e["text"] for e in snap["sheet"]] == [e.text for e in sheet]


def test_a_page_that_lags_gets_the_newest_snapshot_not_a_backlog():
    feed = Feed()
    lagging = feed.subscribe()
    for k in range(300):
        feed.publish({"plies": k})
    got = []
    while not lagging.empty():
        got.append(json.loads(lagging.get_nowait())["plies"])
    assert got[-1] == 299 and len(got) <= 256


@pytest.fixture
def hostile_target(tmp_path):
    """A stored game half played, served with a rate high enough that the hostile requests
    meet the other bounds (the rate has its own test)."""
    db = tmp_path / "g.db"
    game_id = new_game(db)
    play_into(db, game_id, most=25)
    feed = Feed()
    served = Served(LOOPBACK, feed, rate=RateLimit(rate=1000, burst=1000))
    watcher = store_watcher(feed, db, game_id).start()
    wait_until(lambda: feed.latest() is not None)
    try:
        yield served.port, db, game_id
    finally:
        watcher.close()
        served.close()


def test_hostile_and_malformed_requests_change_nothing_and_the_server_still_serves(
        hostile_target):
    port, db, game_id = hostile_target
    before, before_state = stored(db, game_id), state(port)
    huge_header = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n"
    assert status(raw(port, huge_header)) == 431
    many_headers = b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: %s\r\n" % (k, b"b" * 60)
                                                    for k in range(200)) + b"\r\n"
    assert status(raw(port, many_headers)) == 431
    assert status(raw(port, b"GET /" + b"c" * 10000 + b" HTTP/1.1\r\n\r\n")) == 431
    for method in (b"POST", b"PUT", b"DELETE", b"PATCH", b"OPTIONS", b"CONNECT", b"TRACE"):
        answer = raw(port, method + b" /state HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n"
                     b"\r\nplies=99999")
        assert status(answer) in (405, 501), (method, answer[:80])
    for path in ("/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "//etc/passwd",
                 "/app.js/../../../../etc/passwd", "/static/index.html", "/pages.py",
                 "/..%2f..%2fpyproject.toml", "/events/../../x", "/state?file=/etc/passwd"):
        answer = get(port, path)
        assert b"root:" not in answer and b"[project]" not in answer
        assert status(answer) in (404, 200), (path, answer[:80])
        if not path.startswith("/state"):
            assert status(answer) == 404, path
    for junk in (b"\x00\x01\x02\xff\xfe\r\n\r\n", b"GET\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n",
                 b"GET / HTTP/1.1 extra words\r\n\r\n", b"\r\n\r\n"):
        assert status(raw(port, junk)) in (0, 400, 505), junk
    assert stored(db, game_id) == before
    after_state = state(port)
    assert after_state["sheet"] == before_state["sheet"] and after_state["plies"] == 25
    assert status(get(port, "/")) == 200


def test_a_page_reached_by_another_sites_name_is_refused(hostile_target):
    """DNS rebinding: a site's own name pointed at 127.0.0.1 reads nothing."""
    port = hostile_target[0]
    for host in (b"evil.example", b"evil.example:8080", b"127.0.0.1.evil.example"):
        answer = raw(port, b"GET /state HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
        assert status(answer) == 421 and b'"sheet"' not in answer, host
    for host in (b"127.0.0.1", b"127.0.0.1:%d" % port, b"localhost:%d" % port, b"[::1]:80",
                 b"192.168.1.20:8080", socket.gethostname().encode()):
        answer = raw(port, b"GET /state HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
        assert status(answer) == 200, host


def test_a_request_head_that_trickles_in_is_dropped_within_its_bound(hostile_target):
    port, db, game_id = hostile_target
    before = stored(db, game_id)
    with socket.create_connection(("127.0.0.1", port), timeout=HEAD_SECONDS + 10) as slow:
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        answer = b""
        for _ in range(int(HEAD_SECONDS + 10)):        # a header line a second, never ending
            try:
                slow.sendall(b"X-Slow: 1\r\n")
            except (BrokenPipeError, ConnectionResetError):
                break
            slow.settimeout(1.0)
            try:
                answer += slow.recv(4096)
            except socket.timeout:
                continue
            if answer:
                break
        slow.settimeout(HEAD_SECONDS + 10)
        answer += read_all(slow)
    assert status(answer) == 408
    assert stored(db, game_id) == before and status(get(port, "/")) == 200


def test_many_connections_at_once_are_bounded_and_the_server_serves_after(hostile_target):
    port, db, game_id = hostile_target
    before = stored(db, game_id)
    flood = []
    try:
        for _ in range(4 * MAX_PER_CLIENT):
            flood.append(socket.create_connection(("127.0.0.1", port), timeout=HEAD_SECONDS + 10))
        # past the bound the server closes a connection at once, unanswered
        refused = 0
        for s in flood[MAX_PER_CLIENT:]:
            s.settimeout(HEAD_SECONDS + 10)
            try:
                refused += s.recv(1) == b""
            except ConnectionResetError:
                refused += 1
        assert refused >= 2 * MAX_PER_CLIENT
    finally:
        for s in flood:
            s.close()
    wait_until(lambda: status(get(port, "/")) == 200, seconds=HEAD_SECONDS + 10)
    assert stored(db, game_id) == before


def test_the_rate_of_one_address_is_a_token_bucket():
    now = [0.0]
    rate = RateLimit(rate=10, burst=30, clock=lambda: now[0])
    assert [rate.allow("a") for _ in range(31)] == [True] * 30 + [False]
    assert rate.allow("b")                       # another address has its own bucket
    now[0] += 0.25                               # 2.5 tokens back
    assert [rate.allow("a") for _ in range(3)] == [True, True, False]
    now[0] += 100
    assert sum(rate.allow("a") for _ in range(40)) == 30     # never more than the burst


def test_a_client_asking_too_fast_is_told_to_wait_and_then_served(tmp_path):
    db = tmp_path / "g.db"
    new_game(db)
    feed = Feed()
    # a slow rate, so that the requests outrun it however loaded the machine is
    served = Served(LOOPBACK, feed, rate=RateLimit(rate=1, burst=5))
    try:
        replies = [get(served.port, "/icon.svg") for _ in range(20)]
        answers = [status(reply) for reply in replies]
        assert answers[:5] == [200] * 5 and answers.count(429) >= 10
        assert all(b"Retry-After: 1" in r for r in replies if status(r) == 429)
        wait_until(lambda: status(get(served.port, "/icon.svg")) == 200)
    finally:
        served.close()


def test_event_streams_end_when_the_server_stops(tmp_path):
    db = tmp_path / "g.db"
    new_game(db)
    with serving_store(LOOPBACK, db) as served:
        wait_until(lambda: status(get(served.port, "/state")) == 200)
        stream = EventStream(served.port)
        stream.next()
        ended = threading.Event()

        def drain():
            try:
                while stream.file.readline():
                    pass
            finally:
                ended.set()
        threading.Thread(target=drain, daemon=True).start()
    assert ended.wait(10)
    stream.close()
