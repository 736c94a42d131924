"""What one seat's user can make the broker store, through the test's Mosquitto with the
documented configuration: before, every entry was retained on a topic of its own and the
ACL left the ply level open, so a seat's user retained junk on as many topics as it liked
(10,000 of 10,000 kept).  Now a seat writes only its fixed set of exact topics
(`broker_config.seat_topics`): the broker refuses every other name, and what the seat's
user can store there, read back by another account, stays within
`broker_config.seat_store_bound()`.  A game whose history outgrows a seat's pages stops,
saying why, at both homes."""



from knockboard.remote.broker_config import MAX_PACKET_BYTES, seat_store_bound, seat_topics
from knockboard.remote.messages import FULL, PREFIX
from knockboard.remote.pages import PAGES, PageBook

from broker import retained
from homes import Home, closing, play_headless, run_until
from hostile import Attacker

OUTSIDE = 300              # names outside the seat's set it tries to retain junk on


def test_a_seats_user_stores_only_its_fixed_topics_within_the_bound(make_broker):
    broker = make_broker({"store": 2})
    attacker = Attacker(broker, "store", 2)
    mine = seat_topics("store", 2)
    with closing([], attacker):
        # junk on names outside its set: protocol 3's per-entry topics, pages past its last,
        # names of its own choosing; every one refused by the broker
        outside = [f"seat/2/{100_000 + i}/act" for i in range(OUTSIDE // 3)] + \
            [f"seat/2/page/{PAGES + i}" for i in range(OUTSIDE // 3)] + \
            [f"seat/2/junk{i}" for i in range(OUTSIDE // 3)]
        refused = sum(attacker.send(tail, b"x" * 4000).is_failure for tail in outside)
        # and as much as the broker takes on every name it may write
        for name in mine:
            tail = name.split("/", 2)[2]
            answer = attacker.send(tail, b"y" * (MAX_PACKET_BYTES - len(name) - 64))
            assert answer is not None and not answer.is_failure, name
        assert attacker.disconnects == 0
    held = retained(broker, "store-watch", f"{PREFIX}/store/seat/2/#")
    assert held is not None, "the spectator's user could not connect"
    stored = sum(len(topic) + len(payload) for topic, payload in held.items())
    print(f"\nseat 2's user: {refused} of {len(outside)} names outside its set refused; "
          f"{len(held)} topics retained, {stored} bytes (bound {seat_store_bound()})")
    assert refused == len(outside)
    assert sorted(held) == sorted(mine)            # its fixed set, and nothing else
    assert (PAGES + 1) * (MAX_PACKET_BYTES // 2) < stored <= seat_store_bound()


def test_a_game_that_outgrows_a_seats_pages_stops_at_both_homes_saying_why(make_broker):
    """Seat 1's pages made small (2 pages of 4 KB and a 1 KB tail): once its history does
    not fit them, seat 1's home sends nothing more and stops, naming why; the other home,
    having taken that much of its history, stops too, saying whose pages are full."""
    broker = make_broker({"full": 2})
    homes = [Home(broker, "full", "dodgeball", {}, [seat]).start() for seat in (1, 2)]
    homes[0].room.books[0] = PageBook("full", 1, pages=2, page_bytes=4096, tail_bytes=1024)
    homes[1].game.peer_pages = (2, 4096, 1024)   # (the home knows seat 1's pages)
    with closing(homes):
        play_headless(homes, (3, 4))
        run_until([h.link.pump for h in homes], lambda: all(h.game.stopped for h in homes),
                  "both homes stopped", 10)
        ours, theirs = (h.game.stopped for h in homes)
        print(f"\n{ours}\n{theirs}")
        assert ours.startswith("this home's part of the game does not fit its pages on the "
                               "broker any more (seat 1's 2 pages of 4 KB are full), ")
        assert ours.endswith(": the game cannot go on in this room")
        assert theirs.startswith("Blue (seat 1)'s part of the game does not fit its pages "
                                 "on the broker any more (")
        assert theirs.endswith(": the game cannot go on in this room")
        assert homes[0].game.forfeited is None and homes[1].game.forfeited is None
        entries = ours.split("), ")[1].split(" ")[0]
        assert theirs.endswith(f"({entries} entries in): the game cannot go on in this room")
        shared = homes[1].game.record
        assert homes[0].game.record[:len(shared)] == shared


def test_a_seat_saying_its_pages_are_full_before_they_are_is_refused_and_the_game_goes_on(
        make_broker):
    """Seat 1's pages made small (2 of 4 KB, a 1 KB tail), and seat 1's user, once its home
    has sent more than half their worth (where a `full` used to be believed: a seat losing
    a long game could end it there with no result), says they are full.  The other home
    refuses it in one line and plays on, until the pages really are full: that `full` it
    believes."""
    broker = make_broker({"early": 2})
    homes = [Home(broker, "early", "dodgeball", {}, [seat]).start() for seat in (1, 2)]
    homes[0].room.books[0] = PageBook("early", 1, pages=2, page_bytes=4096, tail_bytes=1024)
    homes[1].game.peer_pages = (2, 4096, 1024)
    attacker = Attacker(broker, "early", 1, record=homes[1].game.record)
    hosts = [h.headless(s) for h, s in zip(homes, (3, 4))]

    def sent():
        taken = homes[1].game.taken.get(0, {})
        return sum(taken.values()) + len(taken)
    with closing(homes, attacker):
        run_until([h.step for h in hosts], lambda: sent() > 4096 + 512, "half the pages sent")
        early = sent()
        answer = attacker.message(FULL, len(homes[1].game.record))
        assert answer is not None and not answer.is_failure
        run_until([h.link.pump for h in homes],
                  lambda: any("its pages cannot be full" in line for line in homes[1].lines),
                  "the false full refused", 10)
        refusal, = [line for line in homes[1].lines if "its pages cannot be full" in line]
        print(f"\nafter {early} bytes: {refusal}")
        assert homes[1].game.stopped is None
        run_until([h.step for h in hosts], lambda: all(h.game.stopped for h in homes),
                  "both homes stopped")
        theirs = homes[1].game.stopped
        assert theirs.startswith("Blue (seat 1)'s part of the game does not fit its pages "
                                 "on the broker any more (")
        assert sent() > early                    # the game went on after the false full
        assert homes[0].game.forfeited is None and homes[1].game.forfeited is None
