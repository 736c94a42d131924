"""A hostile seat floods an honest home: is the cost per message flat?

    python3 benchmarks/remote_flood.py [--batches 5] [--batch 4000]

Starts its own Mosquitto on 127.0.0.1 with the documented configuration
(tests/remote/broker.py, remote/broker_config.py) and one honest home (seat 1 of
Knockabout).  A second program with seat 2's broker
user then sends batch after batch of what docs/remote.md's threat model lists, in equal
parts: valid moves for later plies (each ply in the window again and again, with another
move each time), junk (4 KB payloads nested 1,900 deep) and hellos asking for the whole
game.  The home has played 40 plies with seat 2's honest home first (so a hello asks for
something), which then left.  After each batch the home has read everything; per batch:

  sent      messages the attacker has sent so far
  read      messages of the batch the home read (the broker queues at most 1,000 for a
            client that lags, Mosquitto's max_queued_messages; it drops the rest)
  pending   messages the home keeps for later plies (bounded: one per seat, kind, ply)
  traced    memory Python allocated and still holds (tracemalloc), MB
  rss       the process's resident memory, MB (the attacker's client included)
  cpu/msg   CPU time the home's own thread spent reading the batch, per message, us
  resends   messages the home sent in answer to the batch's hellos
  log       log lines the batch cost (refusals are rate-limited)

Printed, never asserted.  Run it alone (other work on the machine shows in the figures).
"""

import argparse
import os
import sys
import tempfile
import time
import tracemalloc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "tests", "remote"))

from broker import Broker  # noqa: E402
from homes import Home, run_until  # noqa: E402
from hostile import Attacker  # noqa: E402
from knockboard.remote.game import WINDOW  # noqa: E402
from knockboard.remote.messages import HELLO  # noqa: E402

ROOM = "flood"
DEEP = b"[" * 1900 + b"]" * 1900
DRAIN_S = 120.0
END = b"end of batch"


def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def send_batch(attacker, home, size, offset):
    """`size` messages, a third each: later moves, junk, hellos from ply 0."""
    g = home.game
    hello = dict(game=g.game_name, options=g.options, players=2, dice="electronic",
                 seats=[2])
    for i in range(offset, offset + size):
        kind = i % 3
        if kind == 0:
            attacker.message("act", 1 + (i // 3) % WINDOW, retain=False, action=f"x{i}",
                             wait=0)
        elif kind == 1:
            attacker.send("seat/2/live", DEEP, retain=False, wait=0)
        else:
            attacker.message(HELLO, 0, retain=False, wait=0, **hello)
    attacker.send("seat/2/hello", END, retain=False)   # waits for the broker


def counting(inbox):
    """Count what is taken from the home's inbox, and the batches' end markers."""
    taken, get = {"messages": 0, "ends": 0}, inbox.get_nowait

    def counted():
        item = get()
        taken["messages"] += 1
        taken["ends"] += item[1:] == (END,)
        return item
    inbox.get_nowait = counted
    return taken


def drain(home, taken):
    """Pump until the home has read the batch's end marker and everything before it: (the
    messages read, the CPU time this thread spent)."""
    cpu, read, ends = time.thread_time(), taken["messages"], taken["ends"]
    end = time.monotonic() + DRAIN_S
    while time.monotonic() < end and not (taken["ends"] > ends and home.room.inbox.empty()):
        if home.room.inbox.empty():
            time.sleep(0.002)
        home.link.pump()
    return taken["messages"] - read, time.thread_time() - cpu


def played_in(broker, plies):
    """Seat 1's home, `plies` into a game with seat 2's honest home, which then leaves: the
    home has a game to resend."""
    homes = [Home(broker, ROOM, "knockabout", {}, [s]).start() for s in (1, 2)]
    hosts = [h.headless(s) for h, s in zip(homes, (3, 4))]
    run_until([h.step for h in hosts], lambda: len(homes[0].game.record) >= plies,
              f"{plies} plies", 60)
    homes[1].close()
    return homes[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--batch", type=int, default=4000)
    parser.add_argument("--plies", type=int, default=40,
                        help="plies played before the flood (what a hello asks resent)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        broker = Broker(folder, {ROOM: 2}).start()
        home = played_in(broker, args.plies)
        attacker = Attacker(broker, ROOM, 2)
        taken = counting(home.room.inbox)
        try:
            tracemalloc.start()
            print(f"{'batch':>5} {'sent':>7} {'read':>6} {'pending':>8} {'traced MB':>10} "
                  f"{'rss MB':>7} {'cpu/msg us':>10} {'resends':>8} {'log':>5}")
            for b in range(args.batches):
                sent, lines = home.room.sent_messages, len(home.lines)
                send_batch(attacker, home, args.batch, b * args.batch)
                read, cpu = drain(home, taken)
                pending = sum(len(w) for w in home.game.pending.values())
                traced = tracemalloc.get_traced_memory()[0] / 1e6
                print(f"{b + 1:>5} {(b + 1) * args.batch:>7} {read:>6} {pending:>8} "
                      f"{traced:>10.2f} {rss_mb():>7.1f} {cpu / max(read, 1) * 1e6:>10.1f} "
                      f"{home.room.sent_messages - sent:>8} {len(home.lines) - lines:>5}")
            print(f"home: {home.game.refused} refused, {home.game.duplicates} duplicates, "
                  f"{home.room.dropped} dropped (inbox full), {len(home.game.record)} plies, "
                  f"stopped: {home.game.stopped}")
        finally:
            attacker.close()
            home.close()
            broker.stop()


if __name__ == "__main__":
    main()
