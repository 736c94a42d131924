"""A spectator of a long game, through the test's Mosquitto: the broker queues at most 1,000
messages for a client and drops the rest of a retained burst, so a spectator subscribing
to the whole room of a finished 1,603-entry Dodgeball game read 0-5 entries and waited for
ever (the second review, with no attacker).  A seat's history is now retained in at most 32
pages (remote/pages.py), handed to the game an entry window at a time (remote/catchup.py):
the spectator reads a finished game of over 2,000 entries whole, checking every move and
die; junk a seat sends far past the game never reaches it.  `knockboard watch URL` shows a
game as a spectator reads it, live."""

import hashlib
import io
import threading

import pytest

from knockboard import cli
from knockboard.cli.watch import cmd_watch
from knockboard.games import get_game
from knockboard.remote import MemoryKeys, dice
from knockboard.remote.messages import COMMIT, REVEAL
from knockboard.remote.pages import PAGES
from knockboard.store import GameStore

from broker import password
from homes import Home, closing, play_headless, run_until, scripted
from hostile import Attacker, steering_nonce

GAME = "dodgeball"
ENTRIES = 2000


def _keys(room, seats):
    """The keys homes.Home gives the home of `seats` in `room`."""
    return MemoryKeys(hashlib.sha256(f"{room}/{seats}".encode()).digest())


def _long_game(room):
    """A finished game of at least ENTRIES entries, whose dice are the ones the two homes'
    keys roll (the spectator checks them)."""
    keys = [_keys(room, [1]), _keys(room, [2])]
    for seed in range(20):
        state, choose, record = get_game(GAME).new_initial_state(), scripted(seed), []
        while not state.is_terminal():
            ply = len(record)
            action = dice.outcome(state.chance_outcomes(), [keys[0].nonce(ply, 1),
                                                            keys[1].nonce(ply, 2)]) \
                if state.is_chance_node() else choose(state.clone())
            record.append(state.action_to_string(action))
            state.apply(action)
        if len(record) >= ENTRIES:
            return record
    raise AssertionError(f"no game of {ENTRIES} entries in 20 seeds")


def test_a_spectator_reads_the_whole_of_a_finished_game_of_2000_entries(make_broker):
    broker = make_broker({"long": 2})
    record = _long_game("long")
    homes = [Home(broker, "long", GAME, {}, [seat], actions=record).start() for seat in (1, 2)]
    attacker = Attacker(broker, "long", 2)
    with closing(homes, attacker):
        run_until([h.link.pump for h in homes], lambda: all(h.room.connected for h in homes),
                  "both homes connected", 10)
        for home in homes:                 # the room as the homes leave it: every message
            home.game._resend_from(0)      # of the game sent again (its pages unchanged)
        run_until([h.link.pump for h in homes], lambda: not any(
            h.room._pending_publishes for h in homes), "the game on the broker", 60)
        for ply in range(5000, 5300):      # and junk far past the game (the last retained
            attacker.message("act", ply, action="junk")    # on seat 2's live topic)
    sent = sum(h.room.sent_messages for h in homes)
    pages = [len(h.room.books[h.room.seats[0]].pages) for h in homes]
    assert max(pages) < PAGES                  # (it fits, with room to spare)
    watcher = Home(broker, "long", GAME, {}, [], user="long-watch").start()
    with closing([watcher]):
        g = watcher.game
        try:
            run_until([watcher.link.pump], lambda: len(g.record) == len(record) or g.stopped,
                      f"the spectator read {len(record)} entries", 60)
        finally:
            print(f"\n{len(record)}-entry game, {sent} messages sent, {pages} pages a seat: the "
                  f"spectator read {len(g.record)} entries, refused {g.refused}")
        assert g.stopped is None and g.record == record and g.state.is_terminal()
        assert g.refused == 0                  # the junk at plies 5000.. never came


class _Args:
    def __init__(self, url, password_file, db=None):
        self.url, self.password_file, self.ca_file = url, password_file, None
        self.db = None if db is None else str(db)


def test_knockboard_watch_shows_a_game_so_far_and_follows_it_live_to_its_end(make_broker,
                                                                              tmp_path):
    broker = make_broker({"live": 2})
    homes = [Home(broker, "live", "knockabout", {}, [seat]).start() for seat in (1, 2)]
    hosts = [h.headless(seed) for h, seed in zip(homes, (3, 4))]
    pw = tmp_path / "watch.pw"
    pw.write_text(password("live-watch") + "\n")
    with closing(homes):
        run_until([h.step for h in hosts], lambda: len(homes[0].game.record) >= 10, "10 plies")
        # the homes play on in a thread of their own while the spectator watches
        rest = threading.Thread(target=play_headless, args=(homes, (3, 4)), daemon=True)
        out = io.StringIO()
        rest.start()
        status = cmd_watch(_Args(broker.url("live", "live-watch"), str(pw),
                                 db=tmp_path / "watched.sqlite3"), out)
        rest.join(60)
        record = homes[0].game.record
        assert not rest.is_alive() and homes[0].game.state.is_terminal()
    lines = out.getvalue().splitlines()
    assert status == 0
    assert lines[0] == "watching room live: knockabout first=rolloff, 2 seats, electronic dice"
    assert [line.split(": ", 1)[1] for line in lines[1:-1]] == record
    assert lines[1].startswith("    1. dice: ") and lines[-1].startswith("game over: ")
    # kept where `knockboard view` follows it in the game view window
    store = GameStore(tmp_path / "watched.sqlite3")
    kept = store.get(1)
    store.close()
    assert kept.actions == record and kept.status == "finished"
    assert kept.result == "watched: " + lines[-1].split(": ", 1)[1]
    pictures = tmp_path / "pictures"             # the game view draws it
    assert cli.main(["export", "1", "--svg", str(pictures), "--db",
                     str(tmp_path / "watched.sqlite3")]) == 0
    assert list(pictures.glob("*.svg"))


def _position(record):
    state = get_game("knockabout").new_initial_state()
    for entry in record:
        state.apply(state.parse_action(entry))
    return state


def _rewrite_move(attacker, record, homes):
    """Black overwrites a move of its own, early in the game, with another legal one."""
    for ply, entry in enumerate(record):
        state = _position(record[:ply])
        if ply > 4 and state.current_player() == 1:
            others = [state.action_to_string(a) for a in state.legal_actions()
                      if state.action_to_string(a) != entry]
            if others:          # (the message's own chain as seat 2's home sent it)
                attacker.rewrite("act", ply, action=others[0], own=homes[1].game.owns[1][ply])
                return ply
    raise AssertionError("no move of Black with another choice")


def _rewrite_die(attacker, record, homes):
    """Black re-grinds its share of an early die against White's now public nonce, for
    another face, and overwrites its commitment and reveal."""
    for ply, entry in enumerate(record):
        state = _position(record[:ply])
        if ply > 4 and state.is_chance_node():
            outcomes = state.chance_outcomes()
            want = next(a for a, _ in outcomes if state.action_to_string(a) != entry)
            steer = steering_nonce(outcomes, [homes[0].keys.nonce(ply, 1), None], want, 2)
            own = homes[1].game.owns[1][ply]
            attacker.rewrite(COMMIT, ply, hash=dice.commitment("redo", ply, 2, steer), own=own)
            attacker.rewrite(REVEAL, ply, nonce=steer.hex(), own=own)
            return ply
    raise AssertionError("no die")


@pytest.mark.parametrize("rewrite", [_rewrite_move, _rewrite_die])
def test_a_spectator_of_a_game_a_seat_rewrote_names_the_seat_and_shows_the_agreed_game(
        make_broker, tmp_path, rewrite):
    """After the game, seat 2's user overwrites one of its retained moves with another legal
    one, or re-grinds one of its dice (each message with the chains a careful rewriter
    gives it: the true history before it, and its own part so far).  Before, a spectator
    joining later read a different game with no warning; then it said only where the seats'
    histories part, not who rewrote them.  Now seat 2's own later messages, which pin its
    true part in the game, contradict its rewritten entry: the spectator names seat 2 and the
    entry, and shows the game as every seat agreed up to the entry before it."""
    broker = make_broker({"redo": 2})
    homes = [Home(broker, "redo", "knockabout", {}, [seat]).start() for seat in (1, 2)]
    with closing(homes):
        play_headless(homes, (3, 4))
        run_until([h.link.pump for h in homes], lambda: all(h.game._said_over for h in homes),
                  "the homes' last hellos", 10)
        record = list(homes[0].game.record)
    attacker = Attacker(broker, "redo", 2, record=record)
    with closing([], attacker):
        ply = rewrite(attacker, record, homes)
    pw = tmp_path / "watch.pw"
    pw.write_text(password("redo-watch") + "\n")
    out = io.StringIO()
    status = cmd_watch(_Args(broker.url("redo", "redo-watch"), str(pw)), out)
    lines = out.getvalue().splitlines()
    print("\n" + "\n".join(lines[-2:]))
    assert status == 1
    assert lines[-1] == (f"stopped: Black (seat 2) rewrote entry {ply + 1}: showing the game "
                         f"as every seat agreed up to entry {ply}")
    shown = [line.split(": ", 1)[1] for line in lines[1:-1]]
    assert shown == record[:ply]


def test_a_home_resumed_after_a_seat_rewrote_its_moves_names_the_seat(make_broker):
    """Both homes leave mid-game (seat 1's host dies); meanwhile seat 2's user overwrites one
    of seat 2's retained moves.  Seat 1's home, resumed from its record, reads the rewritten
    move from the broker: it says in one line that Black (seat 2) rewrote that entry
    (before: only a refusal, "ply N is ... by seat 2"), and keeps its record."""
    broker = make_broker({"back": 2})
    homes = [Home(broker, "back", "knockabout", {}, [seat]).start() for seat in (1, 2)]
    hosts = [h.headless(seed) for h, seed in zip(homes, (3, 4))]
    with closing(homes):
        run_until([h.step for h in hosts], lambda: len(homes[0].game.record) >= 12, "12 plies")
        saved = list(homes[0].game.record)
        homes[0].kill()
        homes[1].close()
        attacker = Attacker(broker, "back", 2, record=saved)
        with closing([], attacker):
            ply = _rewrite_move(attacker, saved, homes)
        homes[0] = Home(broker, "back", "knockabout", {}, [1], keys=homes[0].keys,
                        actions=saved).start()
        g = homes[0].game
        run_until([homes[0].link.pump], lambda: g.refused, "the rewritten move read", 10)
        print("\n" + "\n".join(homes[0].lines))
        assert homes[0].lines == [
            f"remote: Black (seat 2) rewrote entry {ply + 1} (it now says "
            f"{_rewritten(saved, ply)!r}, it played {saved[ply]!r}): this home goes on with "
            f"the game as it recorded it ({len(saved)} entries)"]
        # the other home may have published one more entry before it closed: the resumed
        # home may take that one, never the rewritten one
        assert g.stopped is None and g.record[:len(saved)] == saved


def _rewritten(record, ply):
    """The move `_rewrite_move` writes at `ply`."""
    state = _position(record[:ply])
    return next(state.action_to_string(a) for a in state.legal_actions()
                if state.action_to_string(a) != record[ply])
