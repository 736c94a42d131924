"""No forfeit made by a flood, through the test's Mosquitto: in a three-seat game, seat 2's
user floods its own topics from a process of its own (flooder.py, bounded in count and
time) while the three homes play on with a short dice deadline.  The broker queues at most
1,000 messages for a client that lags and drops the rest, so the honest homes lose some of
each other's dice messages; before, one of them named an honest seat as withholding its
dice and the game stopped with it forfeiting (the second review: 4 runs of 4).  Now a
home's dice deadlines pause while it is flooded (or drops messages itself) and a seat is
named only once it has left a direct hello unanswered: the game goes on, with the same
record at every home."""

import subprocess
import sys
from pathlib import Path

from broker import password
from homes import Home, closing, run_until

GAME, OPTIONS = "knockoff", {"players": 3}
FLOODER = Path(__file__).with_name("flooder.py")
FLOOD_COUNT = 60_000
FLOOD_S = 8.0
REVEAL_S = 1.0            # the dice deadline: short, so that a lost message would show
PLIES_AFTER = 12          # plies played after the flood, at every home


def test_a_flood_by_one_seat_makes_no_honest_seat_forfeit(make_broker):
    broker = make_broker({"storm": 3})
    homes = [Home(broker, "storm", GAME, OPTIONS, [seat], reveal_timeout=REVEAL_S).start()
             for seat in (1, 2, 3)]
    hosts = [h.headless(seed) for h, seed in zip(homes, (3, 4, 5))]
    steps = [h.step for h in hosts]
    with closing(homes):
        run_until(steps, lambda: all(len(h.game.record) >= 4 for h in homes), "4 plies")
        flood = subprocess.Popen([sys.executable, str(FLOODER), str(broker.port), "storm",
                                  "2", password("storm-2"), str(FLOOD_COUNT), str(FLOOD_S)],
                                 stdout=subprocess.PIPE, text=True)
        try:
            run_until(steps, lambda: flood.poll() is not None
                      or any(h.game.stopped for h in homes), "the flood's end", FLOOD_S + 30)
        finally:
            if flood.poll() is None:
                flood.kill()
            said, _ = flood.communicate(timeout=10)
        stops = [h.game.stopped for h in homes if h.game.stopped]
        assert not stops, stops                    # no honest seat named withholding
        sent = int(said.split()[0])
        print(f"\nflood: {sent} messages sent in at most {FLOOD_S:g} s; the homes' inboxes "
              f"dropped {[h.room.dropped for h in homes]}")
        assert sent > 5_000                        # a flood indeed
        after = max(len(h.game.record) for h in homes) + PLIES_AFTER
        run_until(steps, lambda: all(len(h.game.record) >= after or h.game.over
                                     for h in homes) or any(h.game.stopped for h in homes),
                  "play after the flood", 60)
        assert not [h.game.stopped for h in homes if h.game.stopped]
        shortest = min(len(h.game.record) for h in homes)
        assert homes[0].game.record[:shortest] == homes[1].game.record[:shortest] \
            == homes[2].game.record[:shortest]
