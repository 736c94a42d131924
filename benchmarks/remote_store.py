"""What one seat's broker user can make the broker store, under the documented configuration.

    python3 benchmarks/remote_store.py [--topics 10000] [--small-limit-mb 64]

Starts its own Mosquitto on 127.0.0.1 with the documented configuration
(tests/remote/broker.py, remote/broker_config.py).  Seat 2's user (tests/remote/hostile.py)
publishes retained 4 KB junk, each on a topic of its own that its ACL allows
(`seat/2/PLY/act`, PLY far past any game); then the room's spectator user, another
account, subscribes to those topics a window of exact names at a time and counts the
retained messages the broker holds.  Printed per run:

  sent      junk messages the seat's user got the broker to acknowledge
  stored    retained junk messages the spectator user then reads from the broker ("-":
            it cannot connect)
  rss MB    the broker's resident memory before and after
  home      whether an honest home of another room can then connect and publish

Run 1 is the documented configuration (memory_limit 512 MB); run 2 the same with a small
memory_limit, to show what happens when one seat's user reaches it.  Printed, never
asserted.
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
from paho.mqtt.subscribeoptions import SubscribeOptions  # noqa: E402

from broker import Broker, password  # noqa: E402
from hostile import Attacker  # noqa: E402
from knockboard.remote.broker_config import MEMORY_LIMIT_BYTES  # noqa: E402

ROOM = "store"
FIRST_PLY = 100_000          # past any game: the homes never read these
WINDOW = 100                 # exact topic names a subscription (its packet under max_packet_size)
JUNK = b"x" * 4000


class SmallMemoryBroker(Broker):
    def __init__(self, folder, rooms, limit):
        self.limit = limit
        super().__init__(folder, rooms)

    def _configure(self):
        super()._configure()
        conf = self.folder / "mosquitto.conf"
        conf.write_text(conf.read_text().replace(f"memory_limit {MEMORY_LIMIT_BYTES}",
                                                 f"memory_limit {self.limit}"))


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
    except OSError:                  # a broker at its memory limit takes no connection
        return c, False
    c.loop_start()
    return c, up.wait(5)


def flood(broker, topics):
    """Retained junk from seat 2's user until `topics` were acknowledged or the broker
    dropped the connection; the number acknowledged."""
    attacker = Attacker(broker, ROOM, 2)
    sent = 0
    try:
        for i in range(topics):
            if attacker.disconnects:
                break
            info = attacker.client.publish(f"knockboard/{ROOM}/seat/2/{FIRST_PLY + i}/act",
                                           JUNK, qos=1, retain=True)
            if i % 200 == 199:
                try:
                    info.wait_for_publish(10)
                except (RuntimeError, ValueError):
                    break
            sent = i + 1
    finally:
        attacker.close()
    return sent


def count_stored(broker, topics):
    """Retained junk messages the broker holds, read by the room's spectator user."""
    c, up = client(broker, f"{ROOM}-watch")
    if not up:
        c.loop_stop()
        return None
    seen = set()
    c.on_message = lambda cl, u, m: seen.add(m.topic)
    try:
        for start in range(0, topics, WINDOW):
            names = [f"knockboard/{ROOM}/seat/2/{FIRST_PLY + i}/act"
                     for i in range(start, min(topics, start + WINDOW))]
            c.subscribe([(n, SubscribeOptions(qos=0)) for n in names])
            end = time.monotonic() + 5
            before = -1
            while time.monotonic() < end and len(seen) != before:
                before = len(seen)
                time.sleep(0.2)
            c.unsubscribe(names)
    finally:
        c.loop_stop()
        c.disconnect()
    return len(seen)


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


def run(name, broker, topics):
    broker.start()
    try:
        before = rss_mb(broker.proc.pid)
        sent = flood(broker, topics)
        time.sleep(1)
        after = rss_mb(broker.proc.pid)
        stored = count_stored(broker, sent)
        home = honest_home_works(broker)
        print(f"{name:<28} {sent:>7} {stored if stored is not None else '-':>7} "
              f"{before:>8.1f} {after:>8.1f}  {home}")
    finally:
        broker.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=10_000)
    parser.add_argument("--small-limit-mb", type=int, default=32)
    args = parser.parse_args()
    rooms = {ROOM: 2, "other": 2}
    print(f"{'configuration':<28} {'sent':>7} {'stored':>7} {'rss MB':>8} {'after':>8}  "
          "home of another room")
    with tempfile.TemporaryDirectory() as folder:
        run("documented (512 MB limit)", Broker(os.path.join(folder, "a"), rooms),
            args.topics)
        run(f"memory_limit {args.small_limit_mb} MB",
            SmallMemoryBroker(os.path.join(folder, "b"), rooms,
                              args.small_limit_mb * 1024 * 1024), args.topics)


if __name__ == "__main__":
    main()
