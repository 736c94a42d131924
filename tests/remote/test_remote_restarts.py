"""Dice across any restart, through the test's Mosquitto: seat 1's home (saving its dice
commitments to a database) is killed at every step of a roll - its commitment sent, seat
2's commitment saved and its own reveal sent, the die applied - and resumed from a record
that stands where its board had saved it: behind the roll by seat 2's last move (the
second review's window: a board saves an entry only once the person has made the one
before it), at the roll, or after it.  With an honest seat 2 the resumed home rolls the
same die; with a seat 2 that re-grinds its commitment against seat 1's now public nonce,
the resumed home stops naming seat 2 (won by forfeit) and applies no die of its choice."""

import pytest

from knockboard.games import get_game
from knockboard.remote import dice
from knockboard.remote.journal import StoreJournal
from knockboard.remote.messages import COMMIT, REVEAL
from knockboard.store import CommitmentConflict, GameRecord, GameStore

from homes import Home, closing, run_until
from hostile import Attacker, steering_nonce

GAME = "knockabout"
STEPS = ("committed", "revealed", "rolled")
# (step, the saved record's length against the roll's ply P, seat 2 cheats)
CASES = [(step, behind, cheat) for step in STEPS for behind in (1, 0, -1)
         for cheat in (False, True)
         if not (behind == -1 and step != "rolled") and not (cheat and step == "committed")]


def _holding_its_dice(home):
    """Seat 2's home keeps back its commitment and reveal for the first roll after a move
    of its own: the test plays seat 2's part of that roll by hand.  Returns [that ply]."""
    held = []
    send = home.game.send

    def hold(m, retain=True):
        g = home.game
        if m.kind in (COMMIT, REVEAL) and (m.ply in held or not held and m.ply >= 2
                                           and g.actors[m.ply - 1] == 1):
            held[:] = [m.ply]
            return None
        return send(m, retain)
    home.game.send = hold
    return held


def _position(record):
    state = get_game(GAME).new_initial_state()
    for entry in record:
        state.apply(state.parse_action(entry))
    return state


@pytest.mark.parametrize("step, behind, cheat", CASES)
def test_a_home_killed_at_any_step_of_a_roll_and_resumed_rolls_the_same_die(
        make_broker, tmp_path, step, behind, cheat):
    room = f"crash-{step}-{behind + 1}-{int(cheat)}"
    broker = make_broker({room: 2})
    store = GameStore(tmp_path / "home1.sqlite3")
    gid = store.new_game(GameRecord.seated(GAME, {}, ["human", "remote"], 1))
    journal = StoreJournal(store, room, fresh=True, game_id=lambda: gid)
    first = Home(broker, room, GAME, {}, [1], journal=journal).start()
    other = Home(broker, room, GAME, {}, [2]).start()
    held = _holding_its_dice(other)
    hosts = [first.headless(3), other.headless(4)]
    run_until([h.step for h in hosts], lambda: held and len(first.game.record) == held[0]
              and 0 in journal.commitments(held[0]), "seat 1 committed to the roll")
    ply = held[0]
    other.close()
    attacker = Attacker(broker, room, 2, record=first.game.record)   # seat 2's part of
                                                                     # the roll
    with closing([], attacker, store):
        position = _position(first.game.record)
        outcomes = position.chance_outcomes()
        mine, theirs = first.keys.nonce(ply, 1), other.keys.nonce(ply, 2)
        fair = position.action_to_string(dice.outcome(outcomes, [mine, theirs]))
        if step != "committed":
            attacker.append(COMMIT, ply, hash=dice.commitment(room, ply, 2, theirs))
            run_until([first.link.pump], lambda: 0 in first.game.reveals,
                      "seat 1 revealed")
            assert 1 in journal.commitments(ply)
        if step == "rolled":
            attacker.append(REVEAL, ply, nonce=theirs.hex())
            run_until([first.link.pump], lambda: len(first.game.record) > ply, "the die")
            assert first.game.record[ply] == fair
        first.kill()                                     # no goodbye: the host died here
        if cheat:       # seat 1's nonce is public: seat 2 grinds a commitment against it
            want = next(a for a, _ in outcomes if position.action_to_string(a) != fair)
            steer = steering_nonce(outcomes, [mine, None], want, 2)
            attacker.append(COMMIT, ply, hash=dice.commitment(room, ply, 2, steer))
            attacker.append(REVEAL, ply, nonce=steer.hex())
        else:
            attacker.append(COMMIT, ply, hash=dice.commitment(room, ply, 2, theirs))
            attacker.append(REVEAL, ply, nonce=theirs.hex())
        saved = first.game.record[:ply - behind]
        back = Home(broker, room, GAME, {}, [1], keys=first.keys, actions=saved,
                    journal=StoreJournal(store, room, fresh=False, game_id=lambda: gid))
        with closing([back.start()]):
            g = back.game
            if cheat and behind >= 0:
                run_until([back.link.pump], lambda: g.stopped, "the stop", 10)
                assert g.stopped.startswith("Black (seat 2)") and "Black cheated" in g.stopped
                assert g.forfeited == 1 and len(g.record) <= ply    # no die applied
                assert store.get(gid).result.startswith("won by forfeit: White wins")
                return
            run_until([back.link.pump], lambda: len(g.record) > ply or g.stopped,
                      "the roll settled", 10)
            assert g.stopped is None and g.record[ply] == fair
            if cheat:              # the die was saved: the new messages are refused
                run_until([back.link.pump], lambda: g.refused >= 2, "both refused", 10)
                assert "a second, different commitment" in "".join(back.lines)


def test_saving_a_different_commitment_for_a_saved_roll_is_refused_loudly(tmp_path):
    store = GameStore(tmp_path / "journal.sqlite3")
    journal = StoreJournal(store, "room", fresh=True)
    journal.save_commitment(4, 1, "ab" * 32)
    journal.save_commitment(4, 1, "ab" * 32)              # the same again: nothing
    with pytest.raises(CommitmentConflict, match="seat 2's commitment for ply 4"):
        journal.save_commitment(4, 1, "cd" * 32)
    assert journal.commitments(4) == {1: "ab" * 32}       # the first one kept
    store.close()
