"""Remote play through one local Mosquitto: what a game costs on the wire and how the time
a move takes to reach the other home grows with the number of rooms on the broker.

    python3 benchmarks/remote.py [--rooms 1,4,16,64] [--seconds 8] [--games 3]

Starts its own broker on 127.0.0.1 (tests/remote/broker.py: password file, ACL per room)
and prints:

  1. messages and bytes per ply: whole games between two headless homes (a seeded random
     player at each), every message both homes published (moves, commitments, reveals,
     hellos, presence) over the plies of the record;
  2. the broker round trip: one client publishes (QoS 1), a second client receives it and
     answers, the first receives the answer;
  3. N rooms at once, each two headless homes (their own MQTT connections, 2N in all)
     playing K.O. (quick start: long games, so no room runs out of moves): per move, the
     time from the home that played it to the other home having it in its record
     (commit-reveal dice are plies of their own, not in this time), and the plies per
     second all rooms together reached, with the CPU the broker and this process used (a
     share of one core).  The homes run in this one process, so at large N the time
     includes waiting for this process's own CPU.

Printed, never asserted.  Run it alone (the machine's other work shows in the figures).
"""

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "tests", "remote"))

import paho.mqtt.client as mqtt  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402

from broker import Broker, password  # noqa: E402
from homes import Home, play_headless  # noqa: E402
from knockboard.games import CHANCE  # noqa: E402
from knockboard.remote.messages import HELLO, PREFIX  # noqa: E402

GAMES = [("knockabout", {}), ("dodgeball", {}), ("ko", {"players": 2, "quick_start": 1}),
         ("knockoff", {"players": 2})]
ROUND_TRIPS = 300
MAX_GAME_S = 300.0


def per_ply(broker_rooms, games_each):
    print("1. messages and bytes per ply (two homes, both directions, whole games)")
    print(f"   {'game':<12} {'games':>5} {'plies':>7} {'msgs/ply':>9} {'bytes/ply':>10} "
          f"{'bytes/msg':>9} {'s/game':>7}")
    for index, (game, options) in enumerate(GAMES):
        plies = messages = sent = 0
        start = time.monotonic()
        for g in range(games_each):
            room = f"ply{index}g{g}"
            homes = [Home(broker_rooms, room, game, options, [s]).start() for s in (1, 2)]
            try:
                play_headless(homes, [g * 2 + 1, g * 2 + 2], max_seconds=MAX_GAME_S)
                plies += len(homes[0].game.record)
                messages += sum(h.room.sent_messages for h in homes)
                sent += sum(h.room.sent_bytes for h in homes)
            finally:
                for h in homes:
                    h.close()
        took = (time.monotonic() - start) / games_each
        print(f"   {game:<12} {games_each:>5} {plies:>7} {messages / plies:>9.2f} "
              f"{sent / plies:>10.1f} {sent / messages:>9.1f} {took:>7.2f}")


def round_trip(broker):
    """Median and 95th percentile of publish -> other client -> answer -> back."""
    got = threading.Event()
    clients = []
    # each user writes only its seat's topics (the documented ACL): its hello topic here
    seat = {n: f"{PREFIX}/rt/seat/{n}/{HELLO}" for n in (1, 2)}
    for user, listen, answer in (("rt-1", seat[2], None), ("rt-2", seat[1], seat[2])):
        c = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        c.username_pw_set(user, password(user))
        c.on_socket_open = lambda client, userdata, sock: sock.setsockopt(6, 1, 1)
        if answer is None:
            c.on_message = lambda client, userdata, msg: got.set()
        else:
            c.on_message = (lambda topic: lambda client, userdata, msg:
                            client.publish(topic, msg.payload, qos=1))(answer)
        c.connect("127.0.0.1", broker.port)
        c.subscribe(listen, qos=1)
        c.loop_start()
        clients.append(c)
    time.sleep(0.5)
    times = []
    for i in range(ROUND_TRIPS):
        got.clear()
        t = time.perf_counter()
        clients[0].publish(seat[1], b"x" * 80, qos=1)
        if got.wait(2.0):
            times.append(time.perf_counter() - t)
    for c in clients:
        c.loop_stop()
        c.disconnect()
    times.sort()
    print(f"2. broker round trip (QoS 1, 80-byte payload, client -> broker -> client -> "
          f"broker -> client), {len(times)} of {ROUND_TRIPS}: median "
          f"{statistics.median(times) * 1000:.2f} ms, 95th percentile "
          f"{times[int(len(times) * 0.95) - 1] * 1000:.2f} ms")


def cpu_seconds(pid):
    """User + system CPU time of a process so far (Linux /proc), or None elsewhere."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rooms_at_once(broker, n, seconds):
    homes, hosts = [], []
    for r in range(n):
        pair = [Home(broker, f"n{n}r{r}", "ko", {"players": 2, "quick_start": 1}, [s]).start()
                for s in (1, 2)]
        homes.append(pair)
        hosts += [h.headless(r * 2 + s) for s, h in enumerate(pair)]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not all(h.game.joined for p in homes for h in p):
        for host in hosts:
            host.link.pump()
        time.sleep(0.01)
    played = {}                        # (room, ply) -> when its author played it
    seen = [0] * len(hosts)
    latencies = []
    plies = 0
    broker_cpu, own_cpu = cpu_seconds(broker.proc.pid), time.process_time()
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        for i, host in enumerate(hosts):
            ply = len(host.game.record)
            if host.step():
                played[(i // 2, ply)] = time.perf_counter()
            record = host.game.record
            for p in range(seen[i], len(record)):
                if host.game.actors[p] != CHANCE and host.game.actors[p] not in host.game.local:
                    t = played.pop((i // 2, p), None)
                    if t is not None:
                        latencies.append(time.perf_counter() - t)
            if i % 2 == 0:
                plies += len(record) - seen[i]
            seen[i] = len(record)
        time.sleep(0.0005)
    took = time.monotonic() - start
    broker_cpu = (cpu_seconds(broker.proc.pid) - broker_cpu) / took if broker_cpu is not None \
        else float("nan")
    own_cpu = (time.process_time() - own_cpu) / took
    for pair in homes:
        for h in pair:
            h.close()
    latencies.sort()
    if not latencies:
        print(f"   {n:>5} {'-':>8}")
        return
    p95 = latencies[max(0, int(len(latencies) * 0.95) - 1)]
    print(f"   {n:>5} {2 * n:>8} {len(latencies):>7} {statistics.median(latencies) * 1000:>10.2f} "
          f"{p95 * 1000:>10.2f} {plies / took:>10.0f} {broker_cpu:>10.0%} {own_cpu:>10.0%}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", default="1,4,16,64")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    counts = [int(x) for x in args.rooms.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        rooms = {f"ply{i}g{g}": 2 for i in range(len(GAMES)) for g in range(args.games)}
        rooms.update({f"n{n}r{r}": 2 for n in counts for r in range(n)})
        rooms["rt"] = 2
        broker = Broker(folder, rooms).start()
        try:
            print(f"mosquitto on 127.0.0.1:{broker.port}, {os.cpu_count()} cores")
            per_ply(broker, args.games)
            round_trip(broker)
            print(f"3. N rooms at once, two headless homes each, K.O., {args.seconds:g} s "
                  "each")
            print(f"   {'rooms':>5} {'clients':>8} {'moves':>7} {'median ms':>10} "
                  f"{'p95 ms':>10} {'plies/s':>10} {'broker CPU':>10} {'homes CPU':>10}")
            for n in counts:
                rooms_at_once(broker, n, args.seconds)
        finally:
            broker.stop()


if __name__ == "__main__":
    main()
