"""The static spectator page (web/static/spectator.html) in headless Chromium, with no
Knockboard behind it: it connects to the test's Mosquitto through its WebSocket listener
with the spectator's read-only account, follows a game two homes play entry by entry to its
result, checking every entry against the chains every seat pinned, and names a seat that
rewrote its history afterwards.  Its SHA-256 and chains are checked against Python's
hashlib (remote/transcript.py).  KNOCKBOARD_WEB_SHOTS=DIR keeps the screenshots there
(docs/web/)."""

import base64
import contextlib
import hashlib
import io
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest

sys.path[:0] = [str(Path(__file__).resolve().parent.parent / "remote"),
                str(Path(__file__).resolve().parent.parent / "session")]

from broker import Broker, need_mosquitto, password  # noqa: E402
from homes import (Home, closing, finished_game, last_hellos, play_headless,  # noqa: E402
                   run_until)
from hostile import Attacker  # noqa: E402
from page_watch import RECORD_PLIES  # noqa: E402
from knockboard.cli.watch import cmd_watch  # noqa: E402
from knockboard.games import game_names, get_game  # noqa: E402
from knockboard.remote import transcript  # noqa: E402
from knockboard.remote.broker_config import documented_websockets, websocket_listener  # noqa: E402,E501
from knockboard.session.adapters import get_ui  # noqa: E402

PAGE = Path(__file__).resolve().parents[2] / "host/knockboard/web/static/spectator.html"
GAME = "knockabout"

PAGE_STATE = """
return {plies: Number(document.body.dataset.plies), over: document.body.dataset.over,
        connection: document.body.dataset.connection,
        sheet: [...document.querySelectorAll('#sheet li')].map(li => li.textContent),
        result: document.getElementById('result').hidden ? null
                : document.getElementById('result').textContent,
        problem: document.getElementById('problem').hidden ? null
                 : document.getElementById('problem').textContent,
        seats: [...document.querySelectorAll('#seats li')].map(li => li.dataset.status),
        shapes: document.querySelectorAll('#board svg > *').length,
        drawn: document.body.dataset.drawn || null,
        seen: window.knockboardPlies || [],
        form: document.getElementById('login').offsetParent && 'shown'};
"""


@pytest.fixture
def ws_broker(tmp_path):
    need_mosquitto()
    brokers = []

    def make(room, tls=False):
        brokers.append(Broker(tmp_path / f"broker{len(brokers)}", {room: 2}, tls=tls,
                              websockets=True).start())
        return brokers[-1]
    yield make
    for b in brokers:
        b.stop()



def _page_url(broker, room, user=None, secret=None):
    user = user or f"{room}-watch"
    scheme = "wss" if broker.tls else "ws"
    fragment = urlencode({"ws": f"{scheme}://127.0.0.1:{broker.ws_port}/", "room": room,
                          "user": user, "password": secret or password(user)})
    return f"{PAGE.as_uri()}#{fragment}"


def _names(record):
    """Each entry as the page's sheet should say it: who (the seat's name, or dice) and the
    entry, from the engine (which the page does not have)."""
    state = get_game(GAME).new_initial_state()
    ui = get_ui(state.game)
    out = []
    for k, entry in enumerate(record):
        who = "dice" if state.is_chance_node() else ui.seat_name(state.current_player())
        out.append(f"{k + 1}. {who}: {entry}")
        state.apply(state.parse_action(entry))
    return out, ui.result(state)


def test_the_documented_websocket_listener_is_the_tests_but_for_address_and_certificate():
    docs = (PAGE.parents[4] / "docs" / "remote.md").read_text()
    assert f"```\n{documented_websockets()}```" in docs
    documented = websocket_listener()
    assert documented == ["listener 8884", "protocol websockets",
                          "certfile /etc/mosquitto/certs/server.crt",
                          "keyfile /etc/mosquitto/certs/server.key"]
    plain = websocket_listener(9001, "127.0.0.1", tls=False)
    assert plain == ["listener 9001 127.0.0.1", "protocol websockets", "socket_domain ipv4"]
    # the wss:// test's: the test's own certificate where the documented one is
    assert websocket_listener(9001, "127.0.0.1", certs="/tmp/b") == plain + [
        "certfile /tmp/b/server.crt", "keyfile /tmp/b/server.key"]


def test_the_pages_sha256_and_chains_are_pythons(browser):
    browser.open(PAGE.as_uri())
    texts = ["", "abc", "a" * 55, "a" * 56, "b" * 64, "ü€𝄞 roll 3-4" * 9, "x" * 1000]
    got = browser.run("return arguments[0].map(sha256hex);", texts)
    assert got == [hashlib.sha256(t.encode()).hexdigest() for t in texts]
    chain = transcript.start("r1")
    assert browser.run("return [start('r1'), follow(arguments[0], 'roll 2-5'), "
                       "ownStart('r1', 2), ownFollow(arguments[0], 7, 'act', 'a1-b2')];",
                       chain) == [chain, transcript.follow(chain, "roll 2-5"),
                                  transcript.own_start("r1", 1),
                                  transcript.own_follow(chain, 7, ("act", "a1-b2"))]


def _dice_texts(seeds=20):
    """Every chance outcome's text the engines offer in `seeds` random games of each game."""
    texts = set()
    for name in game_names():
        for seed in range(seeds):
            state, rng = get_game(name).new_initial_state(), random.Random(seed)
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = [a for a, _ in state.chance_outcomes()]
                    texts.update(state.action_to_string(a) for a in outcomes)
                    state.apply(rng.choice(outcomes))
                else:
                    state.apply(rng.choice(state.legal_actions()))
    return texts


def test_the_page_names_every_die_the_games_roll(browser):
    """A die's entry is not in the transcript (only the seats' nonces): the page finds its
    text among the ones it knows by the chain every seat pinned after it."""
    browser.open(PAGE.as_uri())
    texts = sorted(_dice_texts())
    assert len(texts) > 50
    missing = browser.run("return arguments[0].filter(t => !ROLLS.includes(t));", texts)
    assert missing == []


def test_a_browser_follows_a_remote_game_through_the_websocket_listener(ws_broker, browser,
                                                                       tmp_path):
    """The homes play an entry at a time; after each, the page shows the game to within the
    entry the other seat has not pinned yet (an entry is shown once every seat's messages
    pinned it, as `knockboard watch` does), then the whole game and its result."""
    broker = ws_broker("ws")
    homes = [Home(broker, "ws", GAME, {}, [seat]).start() for seat in (1, 2)]
    browser.open(_page_url(broker, "ws"))
    browser.run(RECORD_PLIES)
    lag = []
    with closing(homes):
        hosts = [h.headless(seed) for h, seed in zip(homes, (3, 4))]

        def length():
            return min(len(h.game.record) for h in homes)

        def over():
            return all(h.game.state.is_terminal() and not h.game.pending for h in homes) \
                or any(h.game.stopped for h in homes)
        for _ in range(1000):
            if over():
                break
            before = length()
            run_until([h.step for h in hosts], lambda: length() > before or over(),
                      "the next entry")
            plies = browser.wait_for(f"const n = Number(document.body.dataset.plies); "
                                     f"return n >= {length() - 1} && n + 1;", 20,
                                     f"entry {length() - 1}") - 1
            lag.append(length() - plies)
        last_hellos(homes)
        record = list(homes[0].game.record)
        state = browser.wait_for(f"const s = (() => {{{PAGE_STATE}}})(); "
                                 f"return s.over === 'yes' && s.plies === {len(record)} && s;",
                                 30, "the result")
        browser.shot(tmp_path, "spectator.png")
    sheet, result = _names(record)
    print(f"\n{len(record)} entries followed; the page behind the homes by {max(lag)} at most")
    # (a step of the homes may make two entries: a move, and the die after it)
    assert homes[0].game.state.is_terminal() and len(lag) > len(record) // 2 > 10
    assert state["connection"] == "connected" and state["problem"] is None
    assert state["form"] is None            # (given its address: no form shown)
    assert state["sheet"] == sheet
    assert state["result"] == result
    assert state["seats"] == ["agrees", "agrees"]
    assert state["drawn"] == str(len(record)) and state["shapes"] > 100
    seen = [int(p) for p in state["seen"]]
    assert seen == sorted(seen) and seen[-1] == len(record)


def test_the_page_reconnects_after_the_broker_restarts_and_follows_to_the_end(ws_broker,
                                                                             browser):
    broker = ws_broker("again")
    homes = [Home(broker, "again", GAME, {}, [seat]).start() for seat in (1, 2)]
    browser.open(_page_url(broker, "again"))
    with closing(homes):
        hosts = [h.headless(seed) for h, seed in zip(homes, (7, 8))]
        # the page shows an entry once every seat has pinned it, by a later message: the
        # homes play on while it follows (stopped at 10 plies, the last entries' pins could
        # still be unsent, and the page waited for them in vain)
        run_until([h.step for h in hosts],
                  lambda: browser.run("return Number(document.body.dataset.plies)") >= 9,
                  "the page at 9 entries", 30)
        assert not homes[0].game.state.is_terminal()
        broker.stop()
        browser.wait_for("return document.body.dataset.connection === 'reconnecting'", 20,
                         "the connection lost")
        broker.start()
        play_headless(homes, (7, 8))
        last_hellos(homes)
        record = list(homes[0].game.record)
        state = browser.wait_for(f"const s = (() => {{{PAGE_STATE}}})(); "
                                 f"return s.over === 'yes' && s.plies === {len(record)} && s;",
                                 30, "the result")
    assert state["connection"] == "connected" and state["problem"] is None
    assert state["sheet"] == _names(record)[0]


def test_a_seat_that_rewrote_a_move_is_named_and_the_agreed_game_shown(ws_broker, browser,
                                                                      tmp_path):
    broker = ws_broker("redo")
    homes, record = finished_game(broker, "redo", GAME)
    attacker = Attacker(broker, "redo", 2, record=record)
    with closing([], attacker):
        ply = _rewrite_move(attacker, record, homes)
    browser.open(_page_url(broker, "redo"))
    state = browser.wait_for(f"const s = (() => {{{PAGE_STATE}}})(); "
                             f"return s.problem && s.plies === {ply} && s;", 20,
                             "the rewriting seat")
    browser.shot(tmp_path, "spectator-rewrote.png")
    sheet, _ = _names(record)
    assert state["sheet"] == sheet[:ply]
    assert state["seats"] == ["agrees", "rewrote"]
    assert state["problem"] == (
        f"Black (seat 2) rewrote entry {ply + 1}; the seats' histories part at entry "
        f"{ply + 1}: showing the game as every seat agreed up to entry {ply}")
    assert state["result"] is None and state["over"] == "no"


def test_a_seat_claiming_anothers_move_is_not_credited_with_it(ws_broker, browser):
    """After the game, White's user adds to its history a move of Black's, word for word,
    with the true chains: the page does not credit White with it; it shows the game up to
    the entry before and names White, whose own messages now contradict each other."""
    broker = ws_broker("claim")
    homes, record = finished_game(broker, "claim", GAME)
    ply = next(p for p in range(6, len(record)) if homes[0].game.actors[p] == 1)
    attacker = Attacker(broker, "claim", 1, record=record)
    with closing([], attacker):
        assert not attacker.append("act", ply, action=record[ply],
                                   own=homes[0].game.owns[0][ply]).is_failure
    browser.open(_page_url(broker, "claim"))
    state = browser.wait_for(f"const s = (() => {{{PAGE_STATE}}})(); "
                             f"return s.problem && s.plies === {ply} && s;", 20,
                             "the conflict")
    assert state["sheet"] == _names(record)[0][:ply]
    assert state["seats"] == ["rewrote", "agrees"]
    assert state["problem"].startswith(f"White (seat 1) rewrote entry {ply + 1}")


HOSTILE_TEXT = '<img src=x onerror="window.pwned=1">&amp;</text><script>window.pwned=2</script>'


def test_drawings_every_seat_agrees_on_still_inject_no_markup(ws_broker, browser):
    """Both seats' users (all seats together: what the page trusts for the picture) publish
    a board and a position whose texts are markup and whose colours are not colours: the
    page draws the texts as text, leaves the colours out and runs nothing."""
    broker = ws_broker("ink")
    record = ["roll 3-4"]
    attackers = [Attacker(broker, "ink", seat, record=record) for seat in (1, 2)]
    chains = transcript.chains("ink", record)
    with closing([], *attackers):
        for seat, attacker in enumerate(attackers, 1):
            own = transcript.own_start("ink", seat - 1)
            attacker.message("hello", 1, game=GAME, options={}, players=2, dice="electronic",
                             seats=[seat], chain=chains[1], own=own)
            attacker.append("commit", 0, hash="ab" * 32, chain=chains[0], own=own)
            common = {"v": 4, "room": "ink", "seat": seat}
            board = {**common, "kind": "board", "game": GAME, "width": 200, "height": 100,
                     "shapes": [["polygon", [0, 0, 200, 0, 200, 100], "#102030", "", 1],
                                ["text", [20, 20], "red;background:url(x)", "", 1,
                                 HOSTILE_TEXT, 12, True, "center"]]}
            view = {**common, "kind": "view", "ply": 1, "chain": chains[1], "turn": HOSTILE_TEXT,
                    "result": None, "seats": [HOSTILE_TEXT, "B<b>x</b>"],
                    "shapes": [["oval", [10, 10, 30, 30], "javascript:alert(1)", "#ffffff", 2]]}
            for kind, data in (("board", board), ("view", view)):
                assert not attacker.send(f"seat/{seat}/{kind}",
                                         json.dumps(data).encode()).is_failure
    browser.open(_page_url(broker, "ink"))
    state = browser.wait_for(f"const s = (() => {{{PAGE_STATE}}})(); "
                             f"return s.plies === 1 && s.drawn === '1' && s;", 20, "the drawing")
    found = browser.run("""
        const svg = document.querySelector('#board svg');
        return {pwned: window.pwned || null, imgs: document.querySelectorAll('img').length,
                scripts: document.querySelectorAll('body script').length,
                text: svg.querySelector('text').textContent,
                textFill: svg.querySelector('text').getAttribute('fill'),
                ovalFill: svg.querySelector('ellipse').getAttribute('fill'),
                turn: document.getElementById('turn').textContent,
                kinds: [...svg.children].map(e => e.tagName)};""")
    assert found == {"pwned": None, "imgs": 0, "scripts": 1, "text": HOSTILE_TEXT[:64],
                     "textFill": "none", "ovalFill": "none", "turn": HOSTILE_TEXT,
                     "kinds": ["polygon", "text", "ellipse"]}
    assert state["sheet"] == ["1. dice: roll 3-4"]


class _PageArgs:
    def __init__(self, url, page, ws_port):
        self.url, self.page, self.ws_port = url, page, ws_port
        self.view, self.web, self.db, self.password_file, self.ca_file = \
            False, None, None, None, None


def test_watch_page_writes_the_page_that_a_browser_opens_with_the_spectators_password(
        ws_broker, browser, tmp_path):
    """`knockboard watch URL --page FILE` writes the page and prints the address to open
    (the broker, the room and the user in its fragment); the page asks for the password,
    then shows the finished game as the homes played it."""
    broker = ws_broker("cli")
    homes, record = finished_game(broker, "cli", GAME, (5, 6))
    out = io.StringIO()
    assert cmd_watch(_PageArgs(broker.url("cli", "cli-watch"), str(tmp_path / "room.html"),
                               broker.ws_port), out) == 0
    url = out.getvalue().split("the spectator page: ", 1)[1].split()[0]
    assert url.startswith((tmp_path / "room.html").as_uri() + "#")
    assert (tmp_path / "room.html").read_bytes() == PAGE.read_bytes()
    browser.open(url)
    assert browser.run("return [document.getElementById('login').hidden, "
                       "document.getElementById('f-user').value];") == [False, "cli-watch"]
    browser.run("document.getElementById('f-password').value = arguments[0]; "
                "document.getElementById('login').requestSubmit();", password("cli-watch"))
    state = browser.wait_for(f"const s = (() => {{{PAGE_STATE}}})(); "
                             f"return s.over === 'yes' && s.plies === {len(record)} && s;",
                             30, "the result")
    assert state["sheet"] == _names(record)[0]


@pytest.mark.parametrize("argv, said", [
    (["--page", "{tmp}/no/such/folder/p.html"], "no folder"),
    (["--page", "{tmp}"], "a folder, not a file"),
    (["--ws-port", "9001"], "--ws-port goes with --page FILE"),
    (["--page", "{tmp}/p.html", "--ws-port", "70000"], "a port is 1-65535"),
    (["--page", "{tmp}/p.html", "--db", "{tmp}/g.db"], "not with --view, --web or --db"),
])
def test_watch_page_refuses_bad_input_in_one_line_writing_nothing(tmp_path, argv, said):
    from knockboard import cli
    err = io.StringIO()
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    with contextlib.redirect_stderr(err):
        status = cli.main(["watch", "mqtt://w@127.0.0.1/room", *argv])
    assert status == 2 and said in err.getvalue() and len(err.getvalue().splitlines()) == 1
    assert not (tmp_path / "p.html").exists()


def test_a_wrong_password_is_said_and_nothing_shown(ws_broker, browser):
    broker = ws_broker("pw")
    browser.open(_page_url(broker, "pw", secret="not-the-password"))
    state = browser.wait_for(f"const s = (() => {{{PAGE_STATE}}})(); "
                             f"return s.connection === 'refused' && s;", 20, "the refusal")
    assert state["plies"] == 0 and state["sheet"] == []


def _rewrite_move(attacker, record, homes):
    """Black overwrites a move of its own with another legal one, with the true chain before
    it and its own chain as its home sent it (tests/remote/test_remote_watch.py)."""
    state = get_game(GAME).new_initial_state()
    for ply, entry in enumerate(record):
        if ply > 4 and state.current_player() == 1:
            others = [state.action_to_string(a) for a in state.legal_actions()
                      if state.action_to_string(a) != entry]
            if others:
                attacker.rewrite("act", ply, action=others[0], own=homes[1].game.owns[1][ply])
                return ply
        state.apply(state.parse_action(entry))
    raise AssertionError("no move of Black with another choice")


def _spki_sha256(certificate):
    """The base64 SHA-256 of a certificate's public key (what Chromium's
    --ignore-certificate-errors-spki-list names), by openssl."""
    key = subprocess.run(["openssl", "x509", "-in", str(certificate), "-pubkey", "-noout"],
                         check=True, capture_output=True).stdout
    der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=key,
                         check=True, capture_output=True).stdout
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


def test_a_browser_follows_a_game_over_wss_only_if_it_trusts_the_brokers_certificate(
        ws_broker, make_browser):
    """docs/remote.md's listener as documented, TLS with the broker's certificate (signed by
    the test's own CA): a browser trusting that certificate's key follows the game to its
    result over wss://; one that does not never connects, and says what to look at."""
    broker = ws_broker("tls", tls=True)
    homes = [Home(broker, "tls", GAME, {}, [seat], ca_file=str(broker.ca)).start()
             for seat in (1, 2)]
    with closing(homes):
        play_headless(homes, (3, 4))
        last_hellos(homes)
    record = list(homes[0].game.record)
    url = _page_url(broker, "tls")
    assert url.split("#")[1].startswith("ws=wss%3A%2F%2F127.0.0.1")
    trusting = make_browser(["--ignore-certificate-errors-spki-list="
                             + _spki_sha256(broker.folder / "server.crt")])
    trusting.open(url)
    state = trusting.wait_for(f"const s = (() => {{{PAGE_STATE}}})(); "
                              f"return s.over === 'yes' && s.plies === {len(record)} && s;",
                              30, "the result over wss://")
    sheet, result = _names(record)
    assert state["connection"] == "connected" and state["problem"] is None
    assert (state["sheet"], state["result"]) == (sheet, result)
    untrusting = make_browser()
    untrusting.open(url)
    said = untrusting.wait_for("return document.body.dataset.connection === 'reconnecting'"
                               " && document.getElementById('connection').textContent;",
                               20, "the failed connection")
    time.sleep(2.5)         # a retry (every 2 s) fails the same way
    again = untrusting.run(f"return (() => {{{PAGE_STATE}}})();")
    assert said == (f"could not reach the broker at wss://127.0.0.1:{broker.ws_port}/: trying "
                    "again (for wss://, this browser must trust the broker's certificate)")
    assert again["connection"] == "reconnecting" and again["plies"] == 0
