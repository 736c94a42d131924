"""What a hostile seat's messages may cost, without a broker: the bounds a payload is read
within, the refusals' rate-limited log, one waiting message per seat, kind and ply,
presence only in a seat's own words, and dice of settled rolls checked against the
commitments saved for them (the broker-level attacks are in test_remote_hostile.py)."""

import json
import random

import pytest

from knockboard.remote import MemoryKeys, RemoteGame, dice
from knockboard.remote.journal import MemoryJournal
from knockboard.remote.catchup import SPECTATOR_PLIES, Catchup
from knockboard.remote.messages import (ACT, COMMIT, FULL, HELLO, ONLINE, REVEAL, Message,
                                        MessageError, decode)
from knockboard.remote.pages import PAGE_BYTES, HistoryFull, PageBook, full_floor
from knockboard.remote.reception import HELLO_ANSWER_WAIT_S
from knockboard.remote.refusals import RefusalLog

from hostile import receive_chained
from test_remote_refusals import Wire

TOPIC = "knockboard/wire/seat/1/live"
HEAD = '{"v":1,"room":"wire","seat":1,"kind":"act","ply":1,'


@pytest.mark.parametrize("payload,why", [
    (b"[" * 1900 + b"]" * 1900, "nested more than 2 deep"),
    (b'{"a":{"b":{"c":1}}}', "nested more than 2 deep"),
    (b'{"x":"[[[[[[", "y": "\\"[[[["}', "version None"),       # brackets in strings
    (json.dumps({f"k{i}": i for i in range(17)}).encode(), "17 keys"),
    ((HEAD + '"action":"a","action":"b"}').encode(), "the key 'action' twice"),
    ((HEAD + '"action":"' + "x" * 300 + '"}').encode(), "longer than 256"),
    ((HEAD + '"action":"x","more":' + "9" * 4000 + "}").encode(), "4000 digits"),
    ((HEAD + '"action":"x","more":1.5}').encode(), "fraction"),
    ((HEAD + '"action":"x","more":NaN}').encode(), "fraction"),
    (b"\xff\xfe" * 100, "not UTF-8 JSON"),
])
def test_payloads_beyond_the_bounds_are_refused_before_they_cost(payload, why):
    with pytest.raises(MessageError, match=why):
        decode(TOPIC, payload, "wire")


def test_a_refusal_log_cuts_lines_and_sums_up_a_flood():
    now, lines = [0.0], []
    log = RefusalLog(lines.append, lambda: now[0], burst=3, period=10)
    for i in range(50):
        log(f"line {i} " + "x" * 500)
    assert len(lines) == 3 and all(len(x) <= 200 for x in lines)
    now[0] = 11
    log("after")
    assert lines[3] == "remote: 47 more refused messages in the last 11 s, not logged one by one"
    assert lines[4] == "after"


def _game(local=(1,), players=2, game="knockoff", lines=None, **kw):
    return RemoteGame("wire", game, {"players": players}, list(local), MemoryKeys(),
                      send=lambda m, retain=False: None,
                      log=(lines if lines is not None else []).append, **kw)


def test_one_waiting_message_per_seat_kind_and_ply():
    lines = []
    g = _game(lines=lines)
    for i in range(500):
        receive_chained(g, Message("wire", 1, ACT, 5 + i % 10, {"action": f"x{i}"}))
    assert sum(len(w) for w in g.pending.values()) == 10
    assert g.duplicates == 0 and g.refused == 490
    assert "a second, different act for ply 5, while the first waits" in lines[0]


def test_a_hello_naming_seats_outside_the_game_is_refused():
    lines = []
    g = _game(lines=lines)
    receive_chained(g, Message("wire", 1, HELLO, 0, dict(game="knockoff", options=g.options,
                                                players=2, dice="electronic", seats=[1, 7])))
    assert not g.joined and "seats [1, 7]" in lines[0]


def test_a_seat_speaks_for_itself_and_its_own_home_only():
    lines = []
    g = _game(local=(0,), players=3, lines=lines)
    hello = dict(game="knockoff", options=g.options, players=3, dice="electronic")
    receive_chained(g, Message("wire", 3, HELLO, 0, dict(hello, seats=[3])))
    receive_chained(g, Message("wire", 2, ONLINE, 0, {"online": True, "seats": [2, 3]}))
    assert g.is_online(1) and not g.is_online(2)
    assert "seat 2 cannot speak for seat 3" in lines[-1]
    # a home with two seats: seat 3's own hello names seat 2's home as its own
    g = _game(local=(0,), players=3)
    receive_chained(g, Message("wire", 3, HELLO, 0, dict(hello, seats=[2, 3])))
    receive_chained(g, Message("wire", 2, ONLINE, 0, {"online": True, "seats": [2, 3]}))
    assert g.is_online(2) and g.refused == 0


def test_commitments_and_reveals_for_a_settled_roll_are_checked_not_taken_as_repeats():
    w = Wire()
    w.play_until_move(1)
    g = w.games[1]
    assert g.actors[0] == -1                       # ply 0 was a roll
    nonce, duplicates = w.games[0].keys.nonce(0, 1), g.duplicates
    w.forge(1, 1, COMMIT, 0, hash=dice.commitment("wire", 0, 1, nonce))
    w.forge(1, 1, REVEAL, 0, nonce=nonce.hex())
    assert g.duplicates == duplicates + 2 and g.refused == 0    # re-deliveries
    w.forge(1, 1, COMMIT, 0, hash="ab" * 32)
    w.forge(1, 1, REVEAL, 0, nonce="cd" * 32)
    assert g.refused == 2 and g.stopped is None
    assert "a second, different commitment" in w.logs[1][0]
    assert "does not match the commitment the roll used" in w.logs[1][1]


def test_a_commitment_saved_before_a_restart_binds_the_restarted_home():
    journal = MemoryJournal()
    g = _game(journal=journal)
    receive_chained(g, Message("wire", 1, COMMIT, 0, {"hash": "ab" * 32}))
    assert journal.commitments(0) == {0: "ab" * 32, 1: g.commits[1]}
    again = _game(journal=journal)                 # the host restarted, same journal
    assert again.commits == g.commits
    receive_chained(again, Message("wire", 1, COMMIT, 0, {"hash": "ef" * 32}))
    assert again.stopped == "Red (seat 1) changed its dice commitment for ply 0: Red cheated"
    assert journal.stop() == again.stopped
    assert _game(journal=journal).stopped == again.stopped      # and stays stopped


def test_an_error_while_pumping_stops_the_game_named_instead_of_ending_the_session():
    from knockboard.remote import RemoteLink

    class BrokenRoom:
        connected, error = True, None

        def pump(self, game):
            raise RecursionError("deep")
    lines = []
    link = RemoteLink(_game(lines=lines), BrokenRoom())
    link.pump()
    assert link.game.stopped == "this home failed: RecursionError: deep"
    assert link.status() == "game stopped" and lines[-1].endswith("RecursionError: deep")
    assert link.game.journal.stop() is None          # not saved: resume may try again


def test_nobody_is_timed_out_while_this_home_itself_is_off_the_broker():
    """Cut off, this home's idea of who is online is stale and the others may be waiting for
    its move: a seat owing its commitment is not timed out then, and gets the full time
    once this home is back."""
    now = [0.0]
    g = _game(clock=lambda: now[0], reveal_timeout=30)
    receive_chained(g, Message("wire", 1, ONLINE, 0, {"online": True, "seats": [1]}))
    for connected, seconds in ((True, 20), (False, 100), (True, 29)):
        for _ in range(seconds):
            now[0] += 1
            g.tick(connected)
    assert g.stopped is None
    for _ in range(1 + int(HELLO_ANSWER_WAIT_S)):       # its deadline, then a direct hello
        assert g.stopped is None                         # left unanswered
        now[0] += 1
        g.tick()
    assert "Red (seat 1) withheld its dice commitment for 30 s: Red forfeits" in g.stopped


# --- a seat's pages (remote/pages.py, remote/catchup.py) ------------------------------------

def _act(seat, ply, action="x"):
    return Message("wire", seat, ACT, ply, {"action": action, "chain": "0" * 64,
                                            "own": "0" * 64})


def test_a_seats_pages_hold_its_history_and_refuse_what_does_not_fit():
    book = PageBook("wire", 1, pages=2, page_bytes=1024, tail_bytes=512)
    line = len(_act(1, 0).encode())
    fits = (2 * 1024 + 512) // (line + 1)          # about: the last lines may not fit
    added = 0
    with pytest.raises(HistoryFull, match="seat 1's 2 pages of 1 KB are full"):
        for ply in range(fits + 2):
            book.add(_act(1, ply))
            added += 1
    before = (book.pages, book.tail, book.where)
    with pytest.raises(HistoryFull):
        book.add(_act(1, added))
    assert (book.pages, book.tail, book.where) == before     # nothing changed
    book.add(_act(1, 0))                                     # a resend: the same line
    written = dict(book.due())
    assert sorted(written) == ["knockboard/wire/seat/1/page/0", "knockboard/wire/seat/1/page/1",
                               "knockboard/wire/seat/1/tail"]
    assert all(len(payload) <= 1024 for payload in written.values())
    lines = [line for payload in written.values() for line in payload.split(b"\n")]
    assert sorted(decode(TOPIC, line, "wire").ply for line in lines) == list(range(added))
    assert book.due() == []                                  # nothing changed since


@pytest.mark.parametrize("seed", range(40))
def test_full_pages_hold_at_least_the_floor_the_other_homes_hold_them_to(seed):
    """`full_floor` is what another home requires a seat to have sent before it believes
    its `full`: filled with lines of random lengths until it refuses one, a real PageBook
    never holds less (an honest `full` is always believed), and a false `full` is believed
    only within a line a page and two tails of full."""
    rng = random.Random(seed)
    pages, page_bytes, tail_bytes = rng.choice([(2, 1024, 256), (4, 4096, 1024), (3, 2048, 512)])
    book = PageBook("wire", 1, pages=pages, page_bytes=page_bytes, tail_bytes=tail_bytes)
    longest = rng.choice([40, 120, 200])
    sizes = []
    with pytest.raises(HistoryFull):
        for ply in range(10_000):
            m = _act(1, ply, "x" * rng.randint(1, longest))
            book.add(m)
            sizes.append(len(m.encode()))
    held = sum(n + 1 for n in sizes)
    floor = full_floor(max(sizes), pages, page_bytes, tail_bytes)
    assert floor <= held <= pages * page_bytes + tail_bytes + len(sizes)
    assert held - floor <= pages * (max(sizes) + 2) + 2 * tail_bytes + 2


def test_a_pages_lines_go_to_the_game_a_window_at_a_time_and_a_replaced_page_drops_its_old():
    catchup = Catchup("wire")
    page = b"\n".join(_act(1, p).encode() for p in range(100))
    assert [str(why) for why in catchup.page(1, 0, page + b"\n{}")] == [
        "version None (this program reads 4)"]                # the line that is not ours
    assert [m.ply for m in catchup.ready(0)] == list(range(SPECTATOR_PLIES))
    assert catchup.ready(0) == []                            # each handed over once
    catchup.page(1, 0, page)                                 # republished as it was
    assert catchup.ready(0) == []
    catchup.page(1, 0, _act(1, 99, "y").encode())            # replaced: the rest is gone
    assert [(m.ply, m["action"]) for m in catchup.ready(1000)] == [(99, "y")]
    assert catchup.page(1, 1, b"x" * (PAGE_BYTES + 1)) == [
        f"a page of {PAGE_BYTES + 1} bytes (at most {PAGE_BYTES})"]


def test_a_seat_saying_its_pages_are_full_before_they_can_be_is_refused():
    lines = []
    g = _game(local=(0,), lines=lines)
    receive_chained(g, Message("wire", 2, FULL, 0, {}))
    assert g.stopped is None and "its pages cannot be full: it sent 0 bytes" in lines[0]
