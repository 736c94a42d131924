"""A flooding seat, as a process of its own: seat N's broker user publishes junk on its own
topics (4 KB payloads nested deep, which the homes refuse, each costing them a full read)
as fast as the broker takes them, at most COUNT messages and for at most SECONDS; then it
prints how many it sent and exits.

    python3 flooder.py PORT ROOM SEAT PASSWORD COUNT SECONDS"""

import sys
import threading
import time
import uuid

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

PAYLOAD = b"[" * 1900 + b"]" * 1900
INFLIGHT = 1000             # publications not yet acknowledged the client lets out at once
CHUNK = 500                 # publications queued before waiting for the last of them
CONNECT_S = 5.0


def main(port, room, seat, password, count, seconds):
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5,
                         client_id=f"flood-{room}-{uuid.uuid4().hex[:8]}")
    client.username_pw_set(f"{room}-{seat}", password)
    client.max_inflight_messages_set(INFLIGHT)
    up = threading.Event()
    client.on_connect = lambda c, u, f, rc, p: up.set()
    client.connect("127.0.0.1", port, 10)
    client.loop_start()
    if not up.wait(CONNECT_S):
        print("0 sent: no connection")
        return 1
    end = time.monotonic() + seconds
    sent = 0
    while sent < count and time.monotonic() < end:
        for _ in range(min(CHUNK, count - sent)):
            info = client.publish(f"knockboard/{room}/seat/{seat}/live",
                                  PAYLOAD, qos=1, retain=False)
            sent += 1
        try:                    # the chunk on its way before the next: bounded in time
            info.wait_for_publish(max(0.0, end - time.monotonic()))
        except (RuntimeError, ValueError):
            break
    client.disconnect()
    client.loop_stop()
    print(f"{sent} sent")
    return 0


if __name__ == "__main__":
    port, room, seat, password, count, seconds = sys.argv[1:]
    sys.exit(main(int(port), room, int(seat), password, int(count), float(seconds)))
