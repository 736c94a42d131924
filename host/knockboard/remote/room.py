"""A room on an MQTT broker (paho-mqtt, MQTT 5, QoS 1): this home's connection, which
publishes the remote game's messages on its seats' topics and hands what arrives to the
game.

paho runs the network in its own thread and reconnects by itself (a broker restarted, a
network gone for a while); what arrives is queued and handed over in the caller's thread
by `pump`, so the game is only ever touched by one thread.  After every (re)connection the
game says hello again with how far its record goes, and the other homes send what it
missed: nothing is lost, and the sequence numbers keep anything from being applied twice.
Each of this home's messages about the game also goes into its seat's pages (pages.py),
republished retained as they grow; the seats' pages, read back (catchup.py), are how a
spectator or a restarted home gets the game so far."""

import queue
import socket
import ssl
import threading
import uuid
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional, Union

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode
from paho.mqtt.subscribeoptions import SubscribeOptions

from .address import RoomAddress
from .catchup import SPECTATOR_PLIES, Catchup
from .messages import (FULL, GAME_KINDS, MAX_BYTES, ONLINE, Message, MessageError, decode,
                       room_filter, topic)
from .pages import PageBook, page_of_topic

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
# messages that arrived and wait for `pump`: beyond this many (a flood) more are dropped
# and counted; a message of the game that is dropped is sent again when our hello says what
# we lack.  A page waits once, its last version (at most PAGES a seat), beside them
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
        # (a payload too large to read: its size; a page: None, its last version in `_pages`)
        self.inbox: queue.Queue[Union[str, tuple[str, Union[bytes, bytearray, int, None]]]] = \
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
        # this home's seats' pages (pages.py), written from its record once connected
        self.books = {s: PageBook(address.room, s + 1) for s in self.seats}
        self._books_written = False
        self.catchup = Catchup(address.room)     # the seats' pages read back (catchup.py)
        # page topic -> its last version, to read
        self._pages: dict[str, Union[bytes, bytearray]] = {}
        self._pages_lock = threading.Lock()
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
        """A message about the game goes live and into its seat's pages (pages.HistoryFull,
        nothing sent, if they are full); a hello and presence are retained on their own
        topics, and a note that the pages are full on the live one."""
        book = self.books.get(message.seat - 1)      # (none: not ours, the broker refuses)
        paged = message.kind in GAME_KINDS and book is not None
        if message.kind in GAME_KINDS:
            if book is not None:
                book.add(message)
            retain = False                 # (its page keeps it)
        elif message.kind == FULL:
            retain = True
        info = self._send(message.topic(), message.encode(), retain)
        if paged:
            self._write_pages()
        return info

    def _send(self, name: str, payload: bytes, retain: bool) -> mqtt.MQTTMessageInfo:
        info = self.client.publish(name, payload, qos=1, retain=retain, properties=_EXPIRY)
        self._pending_publishes[info.mid] = name
        self.sent_messages += 1
        self.sent_bytes += len(payload)
        return info

    def _write_pages(self) -> None:
        """Republish the pages (and tails) that changed."""
        for book in self.books.values():
            for name, payload in book.due():
                self._send(name, payload, retain=True)

    def pump(self, game: Union["RemoteGame", "SetupReader"], limit: int = 1000) -> None:
        """Hand what arrived to `game` (a RemoteGame) and let its time pass."""
        item: Any                          # CONNECTED or (name, payload): see `inbox`
        for _ in range(limit):
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                break
            if item == CONNECTED:
                if not self._books_written:
                    self._books_written = True      # a resumed home's history, as it sent it
                    for m in game.history():
                        self.books[m.seat - 1].add(m)
                    self._write_pages()
                game.hello()
                continue
            name, payload = item
            if payload is None:
                self._read_page(game, name)
                continue
            if isinstance(payload, int):
                game.refuse_unread(name, f"{payload} bytes (at most {MAX_BYTES})")
                continue
            try:
                message = decode(name, payload, self.address.room)
            except MessageError as err:
                game.refuse_unread(name, err)
                continue
            except Exception as err:      # noqa: BLE001 - no payload may end the home
                game.refuse_unread(name, f"unreadable ({type(err).__name__})")
                continue
            if message.kind in GAME_KINDS and not self.seats \
                    and message.ply >= len(game.record) + SPECTATOR_PLIES:
                continue                   # (a spectator reads later ones in the pages)
            if message.kind in GAME_KINDS:
                self.catchup.handed(message.seat, payload)      # (not again from a page)
            game.receive(message)
        self._hand_over(game)
        lost = self.dropped - self._dropped_said
        if lost:
            game.refuse_unread(self.address.room, f"{lost} messages dropped: more than "
                               f"{INBOX_MAX} waiting")
            self._dropped_said += lost
        game.tick(self.connected, lost)

    def _read_page(self, game: Union["RemoteGame", "SetupReader"], name: str) -> None:
        where = page_of_topic(self.address.room, name)
        with self._pages_lock:
            payload = self._pages.pop(name, None)
        if where is None or payload is None:
            return
        for why in self.catchup.page(*where, payload):
            game.refuse_unread(name, why)

    def _hand_over(self, game: Union["RemoteGame", "SetupReader"]) -> None:
        """The pages' messages within the game's window, as its record grows (catchup.py)."""
        for _ in range(100_000):
            ready = self.catchup.ready(len(game.record))
            if not ready:
                return
            for message in ready:
                game.receive(message)

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
        # noLocal: our own messages do not come back to us.  The room's retained messages
        # are a few a seat (its pages, hello, presence), whatever the game's length
        client.subscribe(room_filter(self.address.room),
                         options=SubscribeOptions(qos=1, noLocal=True))
        if self.seats:
            self.publish(self._online(True), retain=True)
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
        payload: Union[bytes, bytearray, int, None] = message.payload
        page = page_of_topic(self.address.room, name) is not None
        if page:
            with self._pages_lock:        # a page waits once, its last version
                waits = name in self._pages
                self._pages[name] = message.payload
            if waits:
                return
            payload = None
        elif len(message.payload) > MAX_BYTES:     # not kept: only its size is said
            payload = len(message.payload)
        try:
            self.inbox.put_nowait((name, payload))
        except queue.Full:
            self.dropped += 1
            if page:
                with self._pages_lock:
                    self._pages.pop(name, None)

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason_code: ReasonCode,
                    properties: Properties) -> None:
        name = self._pending_publishes.pop(mid, None)
        if reason_code.is_failure:
            self.denied.append((name, str(reason_code)))
            self.log(f"remote: the broker refused our message on {name}: {reason_code}")
