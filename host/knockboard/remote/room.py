"""A room on an MQTT broker (paho-mqtt, MQTT 5, QoS 1): this home's connection, which
publishes the remote game's messages on its seats' topics and hands what arrives to the
game.

paho runs the network in its own thread and reconnects by itself (a broker restarted, a
network gone for a while); what arrives is queued and handed over in the caller's thread
by `pump`, so the game is only ever touched by one thread.  After every (re)connection the
game says hello again with how far its record goes, and the other homes send what it
missed: nothing is lost, and the sequence numbers keep anything from being applied twice."""

import queue
import socket
import ssl
import uuid
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional, Union

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode
from paho.mqtt.subscribeoptions import SubscribeOptions

from .address import RoomAddress
from .catchup import PlyWindow, seat_filters
from .messages import ONLINE, Message, MessageError, decode, room_filter, topic

if TYPE_CHECKING:
    from .game import RemoteGame
    from .watch import SetupReader

CONNECTED = "connected"
# MQTT keep-alive: a connection gone silent (no FIN, no RST: a home router off the internet)
# is given up by the broker after 1.5 x this (it then publishes the home's last will), and by
# the home when its ping goes unanswered for this long
KEEPALIVE_S = 10
# the broker forgets a room's retained messages this long after they were sent (MQTT 5
# message expiry), so finished games do not pile up on it
RETAIN_S = 7 * 24 * 3600
# messages that arrived and wait for `pump`: beyond this many (a flood; a whole long game's
# retained messages are about 4,000) more are dropped and counted; a message of the game
# that is dropped is sent again when our hello says what we lack
INBOX_MAX = 8192


_EXPIRY = Properties(PacketTypes.PUBLISH)
_EXPIRY.MessageExpiryInterval = RETAIN_S


def _no_delay(client: mqtt.Client, userdata: Any, sock: Any) -> None:
    # one small message each way per step: Nagle's algorithm would hold each back for the
    # peer's delayed ACK (tens of milliseconds a message)
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except (OSError, AttributeError):
        pass


class RoomError(Exception):
    """The broker refused us (bad user or password, not allowed in the room)."""


class Room:
    def __init__(self, address: RoomAddress, password: Optional[str], seats: Iterable[int], *,
                 ca_file: Optional[str] = None, log: Callable[[str], None] = print,
                 client_id: Optional[str] = None, keepalive: int = KEEPALIVE_S) -> None:
        """`seats`: this home's 0-based seats; `ca_file`: the CA that signed the broker's
        certificate for mqtts:// (default: the system's); `keepalive`: seconds (above)."""
        self.address, self.seats, self.log = address, sorted(seats), log
        self.keepalive = keepalive
        # CONNECTED, or (topic name, payload) of a message
        self.inbox: queue.Queue[Union[str, tuple[str, Union[bytes, bytearray]]]] = \
            queue.Queue(INBOX_MAX)
        self.dropped = 0               # messages not queued: the inbox was full
        self._dropped_said = 0
        self.connected = False
        self.error: Optional[str] = None            # the broker's refusal, once it has said it
        # publications the broker refused (ACL)
        self.denied: list[tuple[Optional[str], str]] = []
        self.sent_messages = 0
        self.sent_bytes = 0
        self._pending_publishes: dict[int, str] = {}   # mid -> topic, until the broker acknowledges
        self.window = PlyWindow(address.room)   # a spectator's subscriptions (catchup.py)
        client_id = client_id or f"knockboard-{address.room}-{uuid.uuid4().hex[:12]}"
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                        protocol=mqtt.MQTTv5)
        if address.user is not None:
            c.username_pw_set(address.user, password)
        if address.tls:
            c.tls_set(ca_certs=ca_file, cert_reqs=ssl.CERT_REQUIRED)
        if self.seats:                     # a spectator has no seat to be missed from
            c.will_set(topic(address.room, self.seats[0] + 1, ONLINE),
                       self._online(False).encode(), qos=1, retain=True)
        c.reconnect_delay_set(1, 4)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_message = self._on_message
        c.on_publish = self._on_publish
        c.on_socket_open = _no_delay
        self.client = c

    def start(self) -> None:
        self.client.connect_async(self.address.host, self.address.port, self.keepalive)
        self.client.loop_start()

    def close(self) -> None:
        if self.connected and self.seats:
            info = self.publish(self._online(False), retain=True)
            try:
                info.wait_for_publish(2.0)
            except (RuntimeError, ValueError):
                pass                       # gone already: the broker's will says it
        self.connected = False             # leaving: no "disconnected ... reconnecting"
        self.client.disconnect()
        self.client.loop_stop()

    def publish(self, message: Message, retain: bool = True) -> mqtt.MQTTMessageInfo:
        """Every message is retained on its own topic (messages.py): the room's state."""
        payload = message.encode()
        info = self.client.publish(message.topic(), payload, qos=1, retain=retain,
                                   properties=_EXPIRY)
        self._pending_publishes[info.mid] = message.topic()
        self.sent_messages += 1
        self.sent_bytes += len(payload)
        return info

    def pump(self, game: Union["RemoteGame", "SetupReader"], limit: int = 1000) -> None:
        """Hand what arrived to `game` (a RemoteGame) and let its time pass."""
        item: Any                          # CONNECTED or (name, payload): see `inbox`
        for _ in range(limit):
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                break
            if item == CONNECTED:
                self.window.reset()
                game.hello()
                continue
            name, payload = item
            try:
                message = decode(name, payload, self.address.room)
            except MessageError as err:
                game.refuse_unread(name, err)
                continue
            except Exception as err:      # noqa: BLE001 - no payload may end the home
                game.refuse_unread(name, f"unreadable ({type(err).__name__})")
                continue
            game.receive(message)
        lost = self.dropped - self._dropped_said
        if lost:
            game.refuse_unread(self.address.room, f"{lost} messages dropped: more than "
                               f"{INBOX_MAX} waiting")
            self._dropped_said += lost
        if not self.seats and self.connected:
            self._follow(len(game.record))
        game.tick(self.connected, lost)

    def _follow(self, length: int) -> None:
        """A spectator reads the room a window of entries at a time (catchup.py)."""
        new, old = self.window.move(length)
        if new:
            self.client.subscribe([(name, SubscribeOptions(qos=1)) for name in new])
        if old:
            self.client.unsubscribe(old)

    def _online(self, online: bool) -> Message:
        return Message(self.address.room, self.seats[0] + 1, ONLINE, 0,
                       {"online": online, "seats": [s + 1 for s in self.seats]})

    # --- paho's thread ---------------------------------------------------------------------
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: mqtt.ConnectFlags,
                    reason_code: ReasonCode, properties: Optional[Properties]) -> None:
        if reason_code.is_failure:
            self.error = f"the broker at {self.address.host}:{self.address.port} refused " \
                         f"the connection: {reason_code}"
            self.log(f"remote: {self.error}")
            client.disconnect()            # a wrong password does not get better by retrying
            return
        self.connected = True
        if self.seats:
            # noLocal: our own messages do not come back to us
            client.subscribe(room_filter(self.address.room),
                             options=SubscribeOptions(qos=1, noLocal=True))
            self.publish(self._online(True), retain=True)
        else:                              # a spectator: the entries follow (`_follow`)
            client.subscribe([(name, SubscribeOptions(qos=1))
                              for name in seat_filters(self.address.room)])
        self.inbox.put(CONNECTED)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: mqtt.DisconnectFlags,
                       reason_code: ReasonCode, properties: Optional[Properties]) -> None:
        if self.connected:
            self.log(f"remote: disconnected from the broker ({reason_code}); reconnecting")
        self.connected = False

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        try:
            name = message.topic
        except UnicodeDecodeError:         # not a topic name MQTT allows
            name = "(a topic name that is not UTF-8)"
        try:
            self.inbox.put_nowait((name, message.payload))
        except queue.Full:
            self.dropped += 1

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason_code: ReasonCode,
                    properties: Properties) -> None:
        name = self._pending_publishes.pop(mid, None)
        if reason_code.is_failure:
            self.denied.append((name, str(reason_code)))
            self.log(f"remote: the broker refused our message on {name}: {reason_code}")
