"""The link layer: handshake, stop-and-wait delivery with retransmission, acknowledgement
and de-duplication in both directions, heartbeats (docs/protocol.md)."""

from __future__ import annotations

import random
import time
from collections import deque
from typing import Callable, Optional

from . import protocol as P
from .transport import Transport, TransportError

RTO = 0.2  # retransmit an unacknowledged frame after this long
HEARTBEAT = 1.0  # send a heartbeat after this much quiet
TIMEOUT = 3.0  # the device counts as gone after this much silence
HELLO_EVERY = 0.3
ERRORS_KEPT = 32  # the board's last ERROR answers kept in Link.errors


class LinkError(Exception):
    """The device cannot be talked to (wrong protocol, no answer). Message says why."""


class LinkDown(LinkError):
    """The device stopped answering or the port vanished; the Board reconnects."""


class Link:
    """One host session with a device, surviving transport swaps (reconnects): sequence
    numbers and the de-duplication state live here, not in the transport."""

    def __init__(self, transport: Optional[Transport] = None, *,
                 clock: Callable[[], float] = time.monotonic, session: Optional[int] = None):
        self.transport = transport
        self.clock = clock
        self.session = random.getrandbits(16) if session is None else session & 0xFFFF
        self.decoder = P.Decoder()
        self.info: Optional[P.Info] = None
        self.tx_seq = 0
        self.queue: deque = deque()  # (type, payload, coalesce)
        self.pending: Optional[tuple[int, int, bytes]] = None  # (seq, type, frame bytes)
        # The SCENE payload the board shows as far as its ACKs tell, and the one pending:
        # a new scene goes out as CELLS, only the cells that changed, when the board
        # can take them (docs/protocol.md): a 127-cell board reads a SCENE for ~50 ms.
        self.board_scene: Optional[bytes] = None
        self.pending_scene: Optional[bytes] = None
        self.pending_sent = 0.0
        self.retransmits = 0
        self.rx_boot: Optional[int] = None
        self.rx_last = 0
        self.last_rx = 0.0
        self.last_tx = 0.0
        # When a short plain frame (heartbeat, ACK, HELLO) last went out: a retransmitted
        # long command does not keep the board's host timeout at bay, because on a noisy
        # line it may be damaged every time while a 6-byte heartbeat gets through.
        self.last_keepalive = 0.0
        # the board's latest ERROR answers (bounded: a long session must not grow), and how
        # many there were in all
        self.errors: deque[P.DeviceError] = deque(maxlen=ERRORS_KEPT)
        self.rejected = 0
        self.protocol_errors = 0
        self.last_protocol_error = ""   # why the last well-framed frame was refused
        self._backlog: list = []  # messages read during the handshake, for poll()
        # The ACK owed for the last EVENTS or STATE handed out: written right behind the
        # command the application answers with (send()), or by the next poll() if it gives
        # none; a press's answer reaches the board before the ACK, so the board lights it
        # before it reads the ACK.
        self.ack_owed: Optional[int] = None

    # ---- connection ----

    def attach(self, transport: Transport) -> None:
        # _backlog is kept: what the old port delivered (and acknowledged) before it failed
        # is still handed out by the next poll()
        self.transport = transport
        self.decoder = P.Decoder()

    def handshake(self, timeout: float = 3.0) -> P.Info:
        """HELLO until the device answers with INFO for our session."""
        assert self.transport is not None
        deadline = self.clock() + timeout
        next_hello = self.clock()
        tail = b""
        while True:
            now = self.clock()
            if now >= next_hello:
                self._write(P.encode_frame(P.H_HELLO, 0, P.hello_payload(self.session)),
                            keepalive=True)
                next_hello = now + HELLO_EVERY
            if now >= deadline:
                if b">>> " in tail or b"raw REPL" in tail:
                    raise LinkError("the board is at the MicroPython REPL, not running the "
                                    "firmware (stopped by a flash tool?): `mpremote reset` "
                                    "or the reset button starts it again")
                raise LinkError(f"no answer to HELLO within {timeout:g} s (is the Knockboard "
                                "firmware running? `knockboard flash` installs it)")
            data = self.transport.read(min(next_hello, deadline) - now)
            tail = (tail + data)[-256:]  # what a REPL would have said, for the error
            frames = self.decoder.feed(data)
            for k, frame in enumerate(frames):
                msg = self._parse(frame)
                if msg is None:
                    continue
                if isinstance(msg, P.Info) and msg.session == self.session:
                    if msg.proto != P.PROTO_VERSION:
                        raise LinkError(f"board speaks protocol {msg.proto}, this host "
                                        f"{P.PROTO_VERSION}: run `knockboard flash`")
                    if msg.boot_id != self.rx_boot:
                        self.rx_boot = msg.boot_id
                        self.rx_last = 0
                        self.ack_owed = None  # the frame it was for died with that boot
                    self.info = msg
                    self.last_rx = self.clock()
                    self.board_scene = None  # restarted, or a new session cleared it
                    if self.pending_scene is not None and self.pending is not None:
                        # a CELLS in flight changes a scene the board may have lost: it
                        # goes again as the whole scene, under the same number
                        seq = self.pending[0]
                        self.pending = (seq, P.H_SCENE,
                                        P.encode_frame(P.H_SCENE, seq, self.pending_scene))
                    if self.pending is not None:  # resend what the old port swallowed
                        self.pending_sent = -1e9
                    # The device sends its first STATE right behind INFO: keep it for
                    # poll() instead of waiting for the retransmission 200 ms later.
                    for rest in frames[k + 1:]:
                        self._on_frame(rest, self._backlog)
                    return msg

    # ---- sending ----

    def send(self, ftype: int, payload: bytes, coalesce: bool = False) -> None:
        """Queue a sequenced command. With coalesce, a queued, not yet sent command of the
        same type is replaced: scenes and displays are full state, only the newest counts."""
        if coalesce:
            for i, (t, _, c) in enumerate(self.queue):
                if t == ftype and c:
                    del self.queue[i]
                    break
        P.encode_frame(ftype, 1, payload)  # size check now, not at send time
        self.queue.append((ftype, payload, coalesce))
        if self.ack_owed is not None and self.transport is not None:
            # The answer to a press goes out now, its ACK behind it, not at the next poll():
            # the application may think a while first (a computer player's move, up to its
            # 2.5 s cap), and the board counts the host gone after 3 s without a word.
            try:
                self._pump_tx(self.clock())
                self._pay_ack()
            except TransportError:
                pass  # the port is gone: the next poll() finds it and reconnects

    def _scene_frame(self, payload: bytes) -> tuple[int, bytes]:
        caps = self.info.caps if self.info is not None else 0
        if self.board_scene is not None and caps & P.CAP_CELLS:
            cells = P.cells_payload(self.board_scene, payload)
            if cells is not None:
                return P.H_CELLS, cells
        return P.H_SCENE, payload

    def idle(self) -> bool:
        return self.pending is None and not self.queue

    def _write(self, data: bytes, keepalive: bool = False) -> None:
        assert self.transport is not None
        self.transport.write(data)
        self.last_tx = self.clock()
        if keepalive:
            self.last_keepalive = self.last_tx

    def _pump_tx(self, now: float) -> None:
        if self.pending is not None:
            if now - self.pending_sent >= RTO:
                if self.pending_sent > 0:
                    self.retransmits += 1
                self._write(self.pending[2])
                self.pending_sent = now
        elif self.queue:
            ftype, payload, _ = self.queue.popleft()
            self.tx_seq = self.tx_seq % 255 + 1
            self.pending_scene = None
            if ftype == P.H_SCENE:
                self.pending_scene = payload
                ftype, payload = self._scene_frame(payload)
            frame = P.encode_frame(ftype, self.tx_seq, payload)
            self.pending = (self.tx_seq, ftype, frame)
            self._write(frame)
            self.pending_sent = now
        if now - self.last_keepalive >= HEARTBEAT:
            self._write(P.encode_frame(P.H_HEARTBEAT, 0), keepalive=True)

    # ---- receiving ----

    def poll(self, timeout: float = 0.0) -> list:
        """Run timers and read for up to `timeout` s; returns the device messages for the
        application (Events, KeyState, DeviceError) in order. LinkDown when the device is
        gone; the caller reconnects."""
        if self.transport is None:
            raise LinkDown("not connected")
        out, self._backlog = self._backlog, []
        end = self.clock() + timeout
        while True:
            now = self.clock()
            try:
                self._pump_tx(now)
                self._pay_ack()
                if now - self.last_rx >= TIMEOUT:
                    raise LinkDown(f"no word from the board for {TIMEOUT:g} s")
                # wake up for the next retransmission or heartbeat, whatever the timeout
                wait = min(end - now, self.last_keepalive + HEARTBEAT - now,
                           RTO / 2 if self.pending is not None else TIMEOUT)
                data = self.transport.read(0.0 if out else max(0.0, wait))
                # handling a frame writes too (its ACK, the next command): a write that
                # fails here is a lost port like a failed read
                for frame in self.decoder.feed(data):
                    self._on_frame(frame, out)
            except (TransportError, LinkDown) as err:
                # what was delivered before the failure is handed out after the reconnect
                self._backlog = out + self._backlog
                if isinstance(err, LinkDown):
                    raise
                raise LinkDown(str(err)) from None
            if out or self.clock() >= end:
                return out

    def _parse(self, frame: P.Frame) -> Optional[P.DeviceMessage]:
        """The message in `frame`, or None (counted) if it is malformed or does not fit
        what the board announced in INFO."""
        try:
            msg = P.parse_device(frame)
            if self.info is not None:
                P.check_against(msg, self.info)
            return msg
        except P.ProtocolError as err:
            self.protocol_errors += 1
            self.last_protocol_error = str(err)
            return None

    def _on_frame(self, frame: P.Frame, out: list) -> None:
        msg = self._parse(frame)
        if msg is None:
            return
        self.last_rx = self.clock()
        if isinstance(msg, P.Plain):
            if msg.type == P.D_ACK and self.pending and msg.seq == self.pending[0]:
                self.pending = None
                if self.pending_scene is not None:
                    self.board_scene = self.pending_scene
                self._pump_tx(self.clock())
            return
        if isinstance(msg, P.DeviceError):
            if msg.code == 5:
                # the board restarted and forgot us: handshake again (the Board does)
                raise LinkDown("the board restarted")
            if self.pending and msg.seq == self.pending[0]:
                self.pending = None
                self.errors.append(msg)
                self.rejected += 1
                out.append(msg)
                self._pump_tx(self.clock())
            return
        if isinstance(msg, P.Info):
            if msg.boot_id != self.rx_boot:
                # the board rebooted under us: its sequence numbers start over
                self.rx_boot = msg.boot_id
                self.rx_last = 0
                self.ack_owed = None
            self.info = msg
            return
        # EVENTS / STATE: sequenced. Delivered before the ACK is written: if that write
        # fails, the board sends the frame again after the reconnect and rx_last drops the
        # copy (whether or not the ACK got out), so nothing is lost or doubled.
        seq = frame.seq
        if seq != 0 and seq != self.rx_last:   # else a retransmission already delivered
            self.rx_last = seq
            out.append(msg)
        if out and self.ack_owed is None:
            self.ack_owed = seq  # the application may answer it: see ack_owed
        else:
            self._pay_ack()
            self._write(P.encode_frame(P.H_ACK, seq), keepalive=True)

    def _pay_ack(self) -> None:
        if self.ack_owed is not None:
            seq, self.ack_owed = self.ack_owed, None
            self._write(P.encode_frame(P.H_ACK, seq), keepalive=True)

    def close(self) -> None:
        if self.transport is not None:
            try:
                self._pay_ack()  # or the board sends the frame again to nobody
            except TransportError:
                pass
            self.transport.close()
            self.transport = None
