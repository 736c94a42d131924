"""Forged and broken messages are refused by the receiving home with one log line and change
nothing: a wrong seat, a move out of turn, an illegal move, a bad sequence number, a bad or
changed dice commitment.  The broker refuses what its ACL forbids, and wrong passwords."""

import time

import pytest

from knockboard.remote import MemoryKeys, RemoteGame, RemoteRefusal, Room, parse_address
from knockboard.remote import dice
from knockboard.remote.messages import (ACT, COMMIT, HELLO, REVEAL, Message, MessageError,
                                        decode)
from knockboard.remote.reception import HELLO_ANSWER_WAIT_S

from homes import Home, closing, play_headless, run_until
from hostile import receive_chained


class Wire:
    """Two homes' games joined directly: what one sends, encoded, the other decodes."""

    def __init__(self, game="knockoff", options=None, physical=False):
        options = {"players": 2} if options is None else options
        self.queue, self.logs = [], [[], []]
        self.games = [RemoteGame("wire", game, options, [s], MemoryKeys(),
                                 send=self._sender(s), physical_dice=physical,
                                 log=self.logs[s].append) for s in (0, 1)]
        for g in self.games:
            g.hello()
        self.flush()

    def _sender(self, seat):
        def send(message, retain=False):
            self.queue.append((1 - seat, message.topic(), message.encode()))
        return send

    def flush(self):
        for _ in range(10_000):
            if not self.queue:
                return
            to, name, payload = self.queue.pop(0)
            self.games[to].receive(decode(name, payload, "wire"))
        raise AssertionError("the homes kept talking")

    def forge(self, to, seat, kind, ply, **body):
        """A message as seat `seat` (1-based) sends it, delivered to home `to` only."""
        receive_chained(self.games[to], Message("wire", seat, kind, ply, body))

    def snapshot(self, home):
        g = self.games[home]
        return (list(g.record), g.state.to_position(), dict(g.commits), dict(g.reveals))

    def play_until_move(self, seat):
        """Play (first legal action) until `seat` (0-based) is to move."""
        for _ in range(200):
            g = self.games[0]
            if g.state.current_player() == seat and all(x.local_turn() == (i == seat)
                                                        for i, x in enumerate(self.games)):
                return
            for x in self.games:
                if x.local_turn():
                    x.play(x.state.action_to_string(x.state.legal_actions()[0]))
            self.flush()
        raise AssertionError(f"seat {seat + 1} never came to move")


def test_the_wire_plays_in_step_and_rolls_by_commit_reveal():
    w = Wire()
    w.play_until_move(1)
    assert w.games[0].record == w.games[1].record and w.games[0].record[0].startswith("roll")
    assert w.logs == [[], []]


def _refused(w, home, forge, why):
    before = w.snapshot(home)
    forge()
    assert w.snapshot(home) == before, "a refused message changed the game"
    assert len(w.logs[home]) == 1 and why in w.logs[home][0], w.logs[home]
    assert w.logs[home][0].startswith("remote: refused")
    w.logs[home].clear()


def test_moves_out_of_turn_illegal_or_out_of_sequence_are_refused_and_change_nothing():
    w = Wire()
    w.play_until_move(0)                  # seat 1 to move: home 1 (seat 2) receives
    ply = len(w.games[1].record)
    legal = w.games[1].state.action_to_string(w.games[1].state.legal_actions()[0])
    _refused(w, 1, lambda: w.forge(1, 1, ACT, ply, action="Z9>Z9"), "not legal")
    _refused(w, 1, lambda: w.forge(1, 1, ACT, ply + 10_000, action=legal),
             "bad sequence number")
    _refused(w, 1, lambda: w.forge(1, 1, ACT, 0, action=legal), "ply 0 is")
    # seat 2 moving while seat 1 is to, as a third party (a spectator's home) sees it
    lines = []
    third = RemoteGame("wire", "knockoff", {"players": 2}, [], MemoryKeys(),
                       send=lambda m, retain=True: None, log=lines.append,
                       actions=w.games[1].record)
    receive_chained(third, Message("wire", 2, ACT, ply, {"action": legal}))
    assert third.record == w.games[1].record
    assert len(lines) == 1 and "not seat 2's turn (seat 1's)" in lines[0]
    # electronic dice are never sent as a move
    lines = []
    g = RemoteGame("wire", "knockoff", {"players": 2}, [1], MemoryKeys(),
                   send=lambda m, retain=False: None, log=lines.append)
    receive_chained(g, Message("wire", 1, ACT, 0, {"action": "roll 3"}))
    assert g.record == [] and len(lines) == 1 and "commit-reveal" in lines[0]


def test_messages_as_this_homes_own_seat_that_it_did_not_send_stop_the_game():
    """Someone else writes as the seat played here (another home given the same seat, or an
    earlier game's retained messages in a reused room): refused, and the game stops saying
    so, since this home cannot play that seat beside them."""
    w = Wire()
    w.play_until_move(0)
    g = w.games[0]
    before = w.snapshot(0)
    legal = g.state.action_to_string(g.state.legal_actions()[0])
    w.forge(0, 1, ACT, len(g.record), action=legal)
    assert w.snapshot(0) == before
    assert "did not send it" in w.logs[0][0] and "use a new room name" in g.stopped
    # what it did send, delivered again, is not mistaken for someone else's
    w2 = Wire()
    w2.play_until_move(0)
    home = w2.games[1]
    for ply, text in enumerate(home.record):
        if home.actors[ply] == 1:
            receive_chained(home, Message("wire", 2, ACT, ply, {"action": text}))
    receive_chained(home, Message("wire", 2, COMMIT, 0, {"hash": dice.commitment(
        "wire", 0, 2, home.keys.nonce(0, 2))}))
    receive_chained(home, Message("wire", 2, REVEAL, 0, {"nonce": home.keys.nonce(0, 2).hex()}))
    assert home.stopped is None and w2.logs == [[], []]


def test_a_move_delivered_twice_is_applied_once():
    w = Wire()
    w.play_until_move(0)
    g = w.games[0]
    text = g.state.action_to_string(g.state.legal_actions()[0])
    ply = len(g.record)
    g.play(text)
    sent = list(w.queue)
    w.flush()
    before = w.snapshot(1)
    for to, name, payload in sent:        # the broker delivers them all again
        w.games[to].receive(decode(name, payload, "wire"))
    assert w.snapshot(1) == before and w.games[1].record[ply] == text
    assert w.games[1].duplicates >= 1 and w.logs == [[], []]


def test_a_reveal_that_does_not_match_its_commitment_names_the_cheat():
    lines = []
    g = RemoteGame("wire", "knockoff", {"players": 2}, [1], MemoryKeys(),
                   send=lambda m, retain=False: None, log=lines.append)
    receive_chained(g, Message("wire", 1, COMMIT, 0, {"hash": "ab" * 32}))
    before = (list(g.record), g.state.to_position())
    receive_chained(g, Message("wire", 1, REVEAL, 0, {"nonce": "cd" * 32}))
    assert (list(g.record), g.state.to_position()) == before
    assert g.stopped and "Red cheated" in g.stopped
    assert len(lines) == 2 and "bad reveal" in lines[0]
    assert "Red (seat 1)'s dice reveal" in lines[1] and "Red cheated" in lines[1]
    with pytest.raises(RemoteRefusal, match="cheated"):
        g.play("roll 1")


def test_a_changed_commitment_is_refused_and_named():
    lines = []
    g = RemoteGame("wire", "knockoff", {"players": 2}, [1], MemoryKeys(),
                   send=lambda m, retain=False: None, log=lines.append)
    receive_chained(g, Message("wire", 1, COMMIT, 0, {"hash": "ab" * 32}))
    receive_chained(g, Message("wire", 1, COMMIT, 0, {"hash": "ab" * 32}))  # again: a re-delivery
    assert g.stopped is None and g.duplicates == 1
    receive_chained(g, Message("wire", 1, COMMIT, 0, {"hash": "ef" * 32}))
    assert "Red cheated" in g.stopped and g.record == []


def _committed_not_revealed(now, online):
    """A Knock-Off game whose seat 1 (online or not) committed its dice and revealed nothing;
    the reveal timeout 30 s on the clock `now[0]`."""
    g = RemoteGame("wire", "knockoff", {"players": 2}, [1], MemoryKeys(),
                   send=lambda m, retain=False: None, log=lambda line: None,
                   clock=lambda: now[0], reveal_timeout=30)
    receive_chained(g, Message("wire", 1, "online", 0, {"online": online, "seats": [1]}))
    receive_chained(g, Message("wire", 1, COMMIT, 0, {"hash": "ab" * 32}))
    return g


def _tick_seconds(g, now, seconds):
    """Let `seconds` pass on the game's clock, one tick a second."""
    for _ in range(seconds):
        now[0] += 1
        g.tick()


def test_a_reveal_kept_back_by_a_seat_online_times_it_out_after_the_stated_time():
    """... once it has left a direct hello unanswered for HELLO_ANSWER_WAIT_S (an honest
    home would have resent the reveal a flood cost us)."""
    now, sent = [0.0], []
    g = _committed_not_revealed(now, online=True)
    g.send = lambda m, retain=False: sent.append(m)
    _tick_seconds(g, now, 29)
    assert g.stopped is None and not [m for m in sent if m.kind == HELLO]
    _tick_seconds(g, now, 1)
    assert g.stopped is None and [m.ply for m in sent if m.kind == HELLO] == [0]   # asked
    _tick_seconds(g, now, int(HELLO_ANSWER_WAIT_S) - 1)
    assert g.stopped is None
    _tick_seconds(g, now, 1)
    assert "Red (seat 1) withheld its dice reveal for 30 s" in g.stopped


def test_a_seat_whose_host_is_offline_is_waited_for_not_timed_out():
    now = [0.0]
    g = _committed_not_revealed(now, online=False)
    _tick_seconds(g, now, 100)
    assert g.stopped is None


Z = b"0" * 64           # a chain (and own): these payloads are refused for something else first
CHAIN = b'"chain":"' + Z + b'","own":"' + Z + b'",'


@pytest.mark.parametrize("name,payload,why", [
    ("knockboard/wire/seat/2/live", b'{"v":4,' + CHAIN + b'"room":"wire","seat":1,'
                                     b'"kind":"act","ply":0,'
                                     b'"action":"x"}', "forged seat"),
    ("knockboard/wire/seat/1/live", b"\xff", "not UTF-8 JSON"),
    ("knockboard/wire/seat/1/live", b"[]", "not a JSON object"),
    ("knockboard/wire/seat/1/live", b'{"v":1}', "version"),
    ("knockboard/wire/seat/1/live", b'{"v":4,' + CHAIN + b'"room":"wire","seat":1,'
                                     b'"kind":"act","ply":-1,'
                                     b'"action":"x"}', "bad sequence number"),
    ("knockboard/wire/seat/1/live", b'{"v":4,' + CHAIN + b'"room":"wire","seat":1,'
                                     b'"kind":"act","ply":true,'
                                     b'"action":"x"}', "bad sequence number"),
    ("knockboard/wire/seat/1/hello", b'{"v":3,' + CHAIN + b'"room":"wire","seat":1,'
                                     b'"kind":"act","ply":2,'
                                     b'"action":"x"}',
     r"^protocol version 3, from an older Knockboard: this one speaks version 4 "
     r"\(every home of a room must run it: update that home\)$"),
    ("knockboard/wire/seat/1/live", b'{"v":5}',
     r"^protocol version 5, from a newer Knockboard: this one speaks version 4 "
     r"\(update this home\)$"),
    ("knockboard/wire/seat/1/live", b'{"v":4,' + CHAIN + b'"room":"wire","seat":1,'
                                     b'"kind":"act","ply":1,'
                                     b'"action":"x","more":1}', "missing or unknown"),
    ("knockboard/wire/seat/1/live", b'{"v":4,' + CHAIN + b'"room":"other","seat":1,'
                                     b'"kind":"act","ply":1,'
                                     b'"action":"x"}', "room"),
    ("knockboard/wire/seat/1/hello", b'{"v":4,' + CHAIN + b'"room":"wire","seat":1,'
                                     b'"kind":"act","ply":1,'
                                     b'"action":"x"}', "wrong topic"),
    ("knockboard/wire/seat/1/live", b'{"v":4,' + CHAIN + b'"room":"wire","seat":1,'
                                        b'"kind":"reveal",'
                                        b'"ply":1,"nonce":"zz"}', "bad nonce"),
    ("knockboard/wire/x", b"{}", "not a seat's topic"),
    ("knockboard/wire/seat/1/01/act", b"{}", "not a seat's topic"),
    ("knockboard/wire/seat/1/1/bet", b"{}", "not a seat's topic"),
    ("knockboard/wire/seat/1/1/act", b"{}", "not a seat's topic"),      # protocol 3's
    ("knockboard/wire/seat/1/page/0", b"{}", "not a seat's topic"),     # (read as pages)
    ("knockboard/wire/seat/1/live", b"x" * 5000, "bytes"),
])
def test_malformed_messages_are_refused_with_the_reason(name, payload, why):
    with pytest.raises(MessageError, match=why):
        decode(name, payload, "wire")


# --- the broker's part ------------------------------------------------------------------------

def _connected(room):
    run_until([lambda: False], lambda: room.connected or room.error, "a connection", 10)
    return room


def test_the_broker_refuses_a_wrong_password_and_a_seat_writing_another_seats_topic(
        make_broker):
    broker = make_broker({"acl": 2})
    wrong = Room(parse_address(broker.url("acl", "acl-1")), "not-the-password", [0],
                 log=lambda line: None)
    wrong.start()
    try:
        _connected(wrong)
        assert not wrong.connected and "refused" in wrong.error
    finally:
        wrong.close()
    homes = [Home(broker, "acl", "knockoff", {"players": 2}, [s]).start() for s in (1, 2)]
    watcher = Home(broker, "acl", "knockoff", {"players": 2}, [1], user="acl-watch").start()
    with closing(homes, watcher):
        hosts = [h.headless(i) for i, h in enumerate(homes)]
        run_until([h.step for h in hosts] + [watcher.link.pump],
                  lambda: all(h.game.joined and h.game.record for h in homes),
                  "both homes joined and rolled")
        # seat 2's user writes as seat 1, on seat 1's topic: the broker refuses it
        ply = len(homes[0].game.record)
        forged = Message("acl", 1, ACT, ply, {"action": "pass", "own": "0" * 64,
                                               "chain": homes[0].game.chains[ply]})
        homes[1].room.publish(forged)
        # the spectator may read the room, not write in it
        watcher.room.publish(Message("acl", 1, ACT, 0, {"action": "pass", "own": "0" * 64,
                                                        "chain": watcher.game.chains[0]}))
        run_until([h.link.pump for h in homes] + [watcher.link.pump],
                  lambda: homes[1].room.denied and watcher.room.denied, "the refusals", 10)
        assert "Not authorized" in homes[1].room.denied[0][1]
        assert "Not authorized" in watcher.room.denied[0][1]
        time.sleep(0.2)
        homes[0].link.pump()
        assert homes[0].lines == [] and homes[0].game.refused == 0   # it never arrived
        # the spectator follows the game it may not write in
        assert watcher.game.record == homes[0].game.record[:len(watcher.game.record)]


def test_a_forged_move_through_the_broker_is_refused_by_the_receiving_home(make_broker):
    broker = make_broker({"forge": 2})
    homes = [Home(broker, "forge", "knockoff", {"players": 2}, [s]).start() for s in (1, 2)]
    with closing(homes):
        hosts = [h.headless(i) for i, h in enumerate(homes)]
        run_until([h.link.pump for h in homes],
                  lambda: all(h.game.joined for h in homes) and homes[0].game.record,
                  "the roll-off's first die")
        ply = len(homes[0].game.record)
        before = list(homes[0].game.record)
        # seat 2's own user, on its own topic, sends a move that is not its to make
        homes[1].room.publish(Message("forge", 2, ACT, ply, {
            "action": "pass", "chain": homes[0].game.chains[ply], "own": "0" * 64}))
        run_until([homes[0].link.pump], lambda: homes[0].game.refused, "the refusal", 10)
        assert homes[0].game.record[:len(before)] == before
        assert len(homes[0].lines) == 1 and "refused seat 2's act" in homes[0].lines[0]
        del hosts


def test_play_remote_with_a_wrong_password_is_one_line_and_exit_status_2(make_broker, tmp_path,
                                                                         capsys):
    from knockboard import cli
    broker = make_broker({"cli": 2})
    pw = tmp_path / "pw"
    pw.write_text("wrong\n")
    code = cli.main(["play", "knockoff", "--no-save", "--remote", broker.url("cli", "cli-1"),
                     "--seat", "1", "--password-file", str(pw)])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "refused the connection" in err and "Not authorized" in err


def test_a_new_game_in_a_used_room_stops_and_says_to_use_a_new_room(make_broker):
    broker = make_broker({"reuse": 2})
    first = [Home(broker, "reuse", "knockoff", {"players": 2}, [s]).start() for s in (1, 2)]
    with closing(first):
        play_headless(first, [1, 2])
    # the same room again, new homes with new secrets: the old game is still retained there
    again = [Home(broker, "reuse", "knockoff", {"players": 2}, [s], keys=MemoryKeys()).start()
             for s in (1, 2)]
    with closing(again):
        run_until([h.link.pump for h in again], lambda: all(h.game.stopped for h in again),
                  "both new homes stopped", 10)
        # the home that finds its own seat's old messages says why; another home may first
        # see the old and the new messages of that seat disagree, and name it
        assert any("use a new room name" in h.game.stopped for h in again)


def test_physical_dice_are_entered_at_the_home_whose_turn_it_is_and_checked_elsewhere():
    w = Wire(physical=True)
    g0, g1 = w.games
    assert g0.state.is_chance_node()
    roller = g0.roller()
    home, other = (g0, g1) if roller in g0.local else (g1, g0)
    assert home.local_turn() and not other.local_turn()
    outcome = home.state.action_to_string(home.state.chance_outcomes()[0][0])
    with pytest.raises(RemoteRefusal):
        other.play(outcome)                     # not that home's dice to enter
    home.play(outcome)
    w.flush()
    assert g0.record == g1.record == [outcome] and w.logs == [[], []]
    # the roll-off's next die is seat 1's home's to enter too: seat 2 sending it is refused
    assert g0.state.is_chance_node() and g0.roller() == 0
    _refused(w, 0, lambda: w.forge(0, 2, ACT, len(g0.record), action=outcome),
             "not seat 2's turn")
