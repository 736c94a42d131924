"""What one seat's broker user can make the broker store, under the documented configuration.

    python3 benchmarks/remote_store.py [--topics 10000]

Starts its own Mosquitto on 127.0.0.1 with the documented configuration
(tests/remote/broker.py, remote/broker_config.py).  Seat 2's user publishes retained 4 KB
junk, each on a topic of its own, as protocol 3's ACL allowed (`seat/2/PLY/act`, PLY far
past any game); then as much as the broker takes (a packet just under its limit) on every
topic its ACL lets it write (`broker_config.seat_topics`: its live topic, tail, pages,
hello and presence).  The room's spectator user, another account, then subscribes to the
seat's topics (`knockboard/ROOM/seat/2/#`) and counts the retained messages the broker
holds.  Printed:

  sent      publications of the seat's user
  refused   publications the broker refused (MQTT 5 reason code "not authorized")
  stored    retained messages of seat 2 the spectator user reads back, and their bytes
            (topic and payload)
  rss MB    the broker's resident memory before and after
  home      whether an honest home of another room can then connect and publish

and the bound `broker_config.seat_store_bound()` the stored bytes must stay within.  Printed,
never asserted (tests/remote/test_remote_store.py asserts it).
"""

import argparse
import os
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "tests", "remote"))

import paho.mqtt.client as mqtt  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402

from broker import Broker, password, retained  # noqa: E402
from knockboard.remote.broker_config import (MAX_PACKET_BYTES, seat_store_bound,  # noqa: E402
                                             seat_topics)

ROOM = "store"
FIRST_PLY = 100_000          # past any game
JUNK = b"x" * 4000
CHUNK = 200                  # publications before waiting for the broker's answers


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def client(broker, user):
    c = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    c.username_pw_set(user, password(user))
    up = threading.Event()
    c.on_connect = lambda cl, u, f, rc, p: rc.is_failure or up.set()
    try:
        c.connect("127.0.0.1", broker.port, 10)
    except OSError:
        return c, False
    c.loop_start()
    return c, up.wait(5)


def publish_all(broker, items):
    """Publish (topic, payload) retained, QoS 1, as seat 2's user: (sent, refused)."""
    c, up = client(broker, f"{ROOM}-2")
    answers = {}
    c.on_publish = lambda cl, u, mid, rc, p: answers.__setitem__(mid, rc)
    sent = 0
    try:
        assert up, "seat 2's user could not connect"
        for start in range(0, len(items), CHUNK):
            infos = [c.publish(t, p, qos=1, retain=True) for t, p in items[start:start + CHUNK]]
            sent += len(infos)
            end = time.monotonic() + 10
            while time.monotonic() < end and any(i.mid not in answers for i in infos):
                time.sleep(0.01)
    finally:
        c.loop_stop()
        c.disconnect()
    return sent, sum(1 for rc in answers.values() if rc.is_failure)


def stored(broker):
    """(messages, bytes) retained under seat 2's topics, read by the spectator's user."""
    held = retained(broker, f"{ROOM}-watch", f"knockboard/{ROOM}/seat/2/#")
    if held is None:
        return None
    return len(held), sum(len(t) + len(p) for t, p in held.items())


def honest_home_works(broker):
    c, up = client(broker, "other-1")
    if not up:
        c.loop_stop()
        return "cannot connect"
    try:
        info = c.publish("knockboard/other/seat/1/hello", b"{}", qos=1, retain=True)
        info.wait_for_publish(5)
        return "connects, publishes" if info.is_published() else "connects, publish lost"
    except (RuntimeError, ValueError):
        return "connects, publish fails"
    finally:
        c.loop_stop()
        c.disconnect()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=10_000)
    args = parser.parse_args()
    junk = [(f"knockboard/{ROOM}/seat/2/{FIRST_PLY + i}/act", JUNK) for i in range(args.topics)]
    mine = [(name, b"y" * (MAX_PACKET_BYTES - len(name) - 64)) for name in seat_topics(ROOM, 2)]
    print(f"{'what seat 2 publishes':<34} {'sent':>6} {'refused':>7} {'stored':>6} "
          f"{'bytes':>9} {'rss MB':>6} {'after':>6}  home of another room")
    with tempfile.TemporaryDirectory() as folder:
        broker = Broker(os.path.join(folder, "a"), {ROOM: 2, "other": 2}).start()
        try:
            for what, items in ((f"junk on {args.topics} topics of its own", junk),
                                (f"the most on its {len(mine)} topics", mine)):
                before = rss_mb(broker.proc.pid)
                sent, refused = publish_all(broker, items)
                time.sleep(1)
                after = rss_mb(broker.proc.pid)
                count, size = stored(broker) or ("-", "-")
                print(f"{what:<34} {sent:>6} {refused:>7} {count:>6} {size:>9} "
                      f"{before:>6.1f} {after:>6.1f}  {honest_home_works(broker)}")
        finally:
            broker.stop()
    print(f"bound: one seat's user stores at most {seat_store_bound()} bytes "
          f"({len(mine)} topics x {MAX_PACKET_BYTES} bytes, broker_config.seat_store_bound)")


if __name__ == "__main__":
    main()
