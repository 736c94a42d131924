"""A hostile seat for the remote tests: a second program with seat N's own broker user (as
the documented ACL gives it), publishing whatever it likes on that seat's topics, and
noting what the broker answers each publication."""

import json
import threading
import time
import uuid

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from knockboard.remote import dice, transcript
from knockboard.remote.messages import ONLINE, PREFIX, Message

from broker import password

WAIT_S = 5.0


class Attacker:
    def __init__(self, broker, room, seat, protocol=mqtt.MQTTv5, record=None):
        """`record`: the game's record as an honest home holds it (the list itself, which
        grows), whose chain the attacker's messages carry (transcript.py)."""
        self.room, self.seat, self.port = room, seat, broker.port
        self._tail = None                # its seat's tail as it last wrote it (`append`)
        self.record = [] if record is None else record
        user = f"{room}-{seat}"
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=protocol,
                                  client_id=f"hostile-{room}-{uuid.uuid4().hex[:8]}")
        self.client.username_pw_set(user, password(user))
        self.up = threading.Event()
        self.disconnects = 0
        self.answers = {}                # mid -> the broker's reason code (MQTT 5), for
        self._asked = set()              # the publications whose answer is waited for
        self.client.on_connect = lambda c, u, f, rc, p: self.up.set()
        self.client.on_disconnect = self._gone
        self.client.on_publish = self._answered
        self.client.connect("127.0.0.1", broker.port, 10)
        self.client.loop_start()
        assert self.up.wait(WAIT_S), "the attacker could not connect"

    def _answered(self, client, userdata, mid, reason_code, properties):
        if mid in self._asked:
            self.answers[mid] = reason_code

    def _gone(self, *args):
        self.disconnects += 1
        self.up.clear()

    def send(self, tail, payload, retain=True, wait=WAIT_S):
        """Publish `payload` (bytes) on knockboard/ROOM/TAIL (QoS 1); the broker's answer
        within `wait` seconds, or None if it gave none (it dropped the connection)."""
        if not wait:                     # a flood: nobody waits for the answers
            self.client.publish(f"{PREFIX}/{self.room}/{tail}", payload, qos=1, retain=retain)
            return None
        info = self.client.publish(f"{PREFIX}/{self.room}/{tail}", payload, qos=1,
                                   retain=retain)
        self._asked.add(info.mid)
        try:
            info.wait_for_publish(wait)
        except (RuntimeError, ValueError):
            return None
        finally:
            self._asked.discard(info.mid)
        return self.answers.pop(info.mid, None)

    def message(self, kind, ply, retain=True, wait=WAIT_S, **body):
        """A well-formed message of its own seat: about the game, with the chain of the
        record's first `ply` entries (of all of it, for a later ply) unless `body` says."""
        if kind != ONLINE and "chain" not in body:
            body["chain"] = transcript.chains(self.room, self.record[:ply])[-1]
        if kind != ONLINE and "own" not in body:     # (the homes do not check it: only a
            body["own"] = transcript.own_start(self.room, self.seat - 1)   # spectator
                                                     # that blames a seat reads it)
        m = Message(self.room, self.seat, kind, ply, body)
        return self.send(m.topic().split("/", 2)[2], m.encode(), retain, wait)

    def pages(self, wait=1.0):
        """Its seat's retained pages and tail as the broker holds them: topic -> payload."""
        held = {}
        reader = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5,
                             client_id=f"hostile-read-{uuid.uuid4().hex[:8]}")
        user = f"{self.room}-{self.seat}"
        reader.username_pw_set(user, password(user))
        reader.on_message = lambda c, u, m: held.__setitem__(m.topic, m.payload)
        reader.connect("127.0.0.1", self.port, 10)
        reader.loop_start()
        base = f"{PREFIX}/{self.room}/seat/{self.seat}"
        reader.subscribe([(f"{base}/page/+", 1), (f"{base}/tail", 1)])
        time.sleep(wait)                 # (retained messages come at once)
        reader.disconnect()
        reader.loop_stop()
        return held

    def rewrite(self, kind, ply, **body):
        """Overwrite its seat's message of `kind` for entry `ply` where its pages (or its
        tail) hold it, with one of `body` (and the chains `message` gives): what a seat's
        user that rewrites its history does.  The page's topic."""
        if kind != ONLINE and "chain" not in body:
            body["chain"] = transcript.chains(self.room, self.record[:ply])[-1]
        if "own" not in body:
            body["own"] = transcript.own_start(self.room, self.seat - 1)
        line = Message(self.room, self.seat, kind, ply, body).encode()
        for name, payload in self.pages().items():
            lines = payload.split(b"\n")
            for i, old in enumerate(lines):
                data = json.loads(old)
                if (data["kind"], data["ply"]) == (kind, ply):
                    lines[i] = line
                    tail = name.split("/", 2)[2]
                    assert not self.send(tail, b"\n".join(lines)).is_failure
                    return name
        raise AssertionError(f"no {kind} for entry {ply} in seat {self.seat}'s pages")

    def append(self, kind, ply, **body):
        """`message`, and the message kept in its seat's tail too (replacing one of the same
        kind and entry), as a home keeps its history (remote/pages.py): a seat playing its
        part by hand.  The broker's answer to the tail."""
        self.message(kind, ply, **body)
        m = Message(self.room, self.seat, kind, ply, self._chained(kind, ply, body))
        if self._tail is None:
            held = self.pages()
            tail = held.get(f"{PREFIX}/{self.room}/seat/{self.seat}/tail", b"")
            self._tail = [line for line in tail.split(b"\n") if line]
        self._tail = [line for line in self._tail
                      if (json.loads(line)["kind"], json.loads(line)["ply"]) != (kind, ply)]
        self._tail.append(m.encode())
        return self.send(f"seat/{self.seat}/tail", b"\n".join(self._tail))

    def _chained(self, kind, ply, body):
        body = dict(body)
        if kind != ONLINE and "chain" not in body:
            body["chain"] = transcript.chains(self.room, self.record[:ply])[-1]
        if kind != ONLINE and "own" not in body:
            body["own"] = transcript.own_start(self.room, self.seat - 1)
        return body

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


def steering_nonce(outcomes, others, want, seat):
    """A nonce for `seat` (1-based) that, with the other seats' revealed nonces `others`
    (in seat order, None for `seat`), makes the roll of `outcomes` come out as `want`: what
    a seat that sees the others' reveals first would look for."""
    for i in range(10_000):
        nonce = i.to_bytes(32, "big")
        reveals = [nonce if s == seat - 1 else n for s, n in enumerate(others)]
        if dice.outcome(outcomes, reveals) == want:
            return nonce
    raise AssertionError("no nonce steers the roll")


class _Chained(dict):
    """A message body whose `chain` (and `own`) is, when the game reads it, the receiving
    game's own for the message's ply: for tests of other checks, which build messages in
    this process."""

    def __init__(self, body, game, ply, seat):
        super().__init__(body)
        self.game, self.ply, self.seat = game, ply, seat

    def __missing__(self, key):
        if key not in ("chain", "own"):
            raise KeyError(key)
        chains = self.game.chains if key == "chain" else \
            self.game.owns.get(self.seat, [transcript.own_start(self.game.room, self.seat)])
        return chains[self.ply] if self.ply < len(chains) else "0" * 64


def receive_chained(game, m):
    """`game` receives `m` (built in this process) as if it followed its own history."""
    if m.kind != ONLINE and "chain" not in m.body:
        m = Message(m.room, m.seat, m.kind, m.ply, _Chained(m.body, game, m.ply, m.seat - 1))
    game.receive(m)
