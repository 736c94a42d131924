"""Faults in the middle of a remote game between two simulated boards: the broker restarted
(its retained messages gone), one home's network cut for a while, one home's network gone
silent for a while (a half-open connection only MQTT's keep-alive notices), one home's host
killed and resumed from its saved record.  The game goes on with nothing lost or doubled:
both homes end with the same record, which is also each session's record, and each board
shows "waiting for the other board" while it cannot go on."""

import time

from knockboard.remote import RoomKeys
from knockboard.session import RecordSaver
from knockboard.store import GameStore

from homes import BoardHome, closing, play_boards, run_until, waiting_shown
from proxy import Proxy

GAME, OPTIONS = "knockabout", {}
FAULT_AT = 16          # entries in the record when the fault strikes
CUT_S = 3.0            # how long the line stays cut (seconds)
# a silent line with a keep-alive of 1 s instead of the default 10 s: a few seconds here do
# what a minute-long drop does at home
SILENT_KEEPALIVE_S = 1
BLACKOUT_S = 4.0       # > 1.5 x keep-alive: the broker and the home both give the line up


def _homes(broker, room, ports=(None, None), extra=None):
    """Seats 1 and 2 in two homes; `extra`: seat -> more arguments for its home."""
    return [BoardHome(broker, room, GAME, OPTIONS, [seat], 7 + seat, port=port,
                      **(extra or {}).get(seat, {})).start()
            for seat, port in zip((1, 2), ports)]


def _both_wait(homes, what):
    """Each board plays on alone as far as it can, then shows it waits."""
    run_until([h.step for h in homes], lambda: all(waiting_shown(h) for h in homes),
              f"both boards showing 'waiting for the other board' ({what})", 15)


def _finished_alike(homes):
    play_boards(homes)
    first = homes[0].game.record
    for home in homes:
        assert not home.game.stopped, home.game.stopped
        assert home.session.state.is_terminal()
        assert home.game.record == first
        assert home.session.record.actions == first       # shown once each, in order
        assert not [line for line in home.lines if "refused" in line], home.lines
    assert homes[0].session.record.replay().to_position() == \
        homes[0].session.state.to_position()


def test_the_broker_restarted_mid_game_loses_nothing(make_broker):
    broker = make_broker({"restart": 2})
    homes = _homes(broker, "restart")
    with closing(homes):
        play_boards(homes, until=lambda: len(homes[0].game.record) >= FAULT_AT)
        broker.stop()
        _both_wait(homes, "broker down")
        assert "no broker" in homes[0].vb.oled()[0][2]
        broker.start()                     # same port, nothing retained: a fresh broker
        _finished_alike(homes)


def _run_for(homes, seconds):
    """Every home steps for `seconds` (bounded in passes too)."""
    end = time.monotonic() + seconds
    for _ in range(100_000):
        if time.monotonic() > end:
            break
        for h in homes:
            h.step()


def test_a_homes_network_cut_for_a_while_loses_nothing(make_broker):
    broker = make_broker({"cut": 2})
    proxy = Proxy(broker.port)
    homes = _homes(broker, "cut", ports=(None, proxy.port))
    with closing(homes, proxy):
        play_boards(homes, until=lambda: len(homes[0].game.record) >= FAULT_AT)
        proxy.cut()
        _both_wait(homes, "seat 2's line cut")
        # the broker told home 1 that seat 2's host went away (its last will)
        run_until([h.step for h in homes], lambda: homes[0].game.presence.get(1) is False,
                  "seat 2 offline for home 1", 10)
        record = list(homes[0].game.record)
        _run_for(homes, CUT_S)               # a while longer: its reconnections are refused
        assert all(waiting_shown(h) for h in homes) and homes[0].game.record == record
        assert not homes[1].room.connected
        proxy.restore()
        _finished_alike(homes)


def test_a_homes_line_gone_silent_is_noticed_by_keepalive_and_loses_nothing(make_broker):
    broker = make_broker({"silent": 2})
    proxy = Proxy(broker.port)
    keepalive = {"keepalive": SILENT_KEEPALIVE_S}
    homes = _homes(broker, "silent", ports=(None, proxy.port),
                   extra={1: keepalive, 2: keepalive})
    with closing(homes, proxy):
        play_boards(homes, until=lambda: len(homes[0].game.record) >= FAULT_AT)
        proxy.blackout()
        start = time.monotonic()
        _both_wait(homes, "seat 2's line silent")
        # no close reached either end: the broker gave seat 2 up by keep-alive and published
        # its last will, and home 2 gave up its connection when its ping went unanswered
        run_until([h.step for h in homes], lambda: homes[0].game.presence.get(1) is False,
                  "seat 2 offline for home 1", 10)
        run_until([h.step for h in homes], lambda: not homes[1].room.connected,
                  "home 2 disconnected", 10)
        assert "exceeded timeout" in broker.log(), broker.log()
        assert any("keep alive" in line.lower() for line in homes[1].lines), homes[1].lines
        records = [list(h.game.record) for h in homes]
        _run_for(homes, BLACKOUT_S - (time.monotonic() - start))
        assert all(waiting_shown(h) for h in homes)
        assert [h.game.record for h in homes] == records      # nothing applied meanwhile
        proxy.restore()
        _finished_alike(homes)


def test_a_host_killed_and_resumed_from_its_record_loses_nothing(make_broker, tmp_path):
    broker = make_broker({"kill": 2})
    store = GameStore(tmp_path / "home2.sqlite3")
    keys_file = tmp_path / "home2.rooms"
    saver = RecordSaver(store)
    homes = _homes(broker, "kill", extra={2: {"saver": saver,
                                              "keys": RoomKeys(keys_file, "kill", fresh=True)}})
    with closing(homes, store):
        play_boards(homes, until=lambda: len(homes[1].session.record.actions) >= FAULT_AT)
        homes[1].kill()
        run_until([homes[0].step], lambda: waiting_shown(homes[0]),
                  "home 1 waiting for the other board", 15)
        saved = store.get(saver.game_id).actions
        assert saved    # it may hold a move home 1 never got: sent again on resuming
        # the host starts again from what it saved, with its room secret from its file
        again = BoardHome(broker, "kill", GAME, OPTIONS, [2], 9,
                          saver=RecordSaver(store, saver.game_id),
                          keys=RoomKeys(keys_file, "kill", fresh=False),
                          actions=saved).start()
        homes[1] = again
        _finished_alike(homes)
        assert store.get(saver.game_id).actions == homes[0].game.record
