"""Knockboard serial protocol, host side (docs/protocol.md).

An independent implementation of the same specification as firmware/protocol.py; both are
checked against docs/protocol-vectors.json, so neither can drift alone.
"""

from __future__ import annotations

import binascii
import struct
from dataclasses import dataclass, field
from typing import Iterable, Sequence, Union

PROTO_VERSION = 1
FLAG, ESC, CTRL_C = 0x7E, 0x7D, 0x03
MAX_BODY = 1200

H_HELLO, H_HEARTBEAT, H_ACK = 0x01, 0x02, 0x03
H_SCENE, H_DISPLAY, H_SOUND, H_RESYNC, H_CELLS, H_MAINT = 0x10, 0x11, 0x12, 0x13, 0x14, 0x1F
D_INFO, D_HEARTBEAT, D_ACK, D_ERROR, D_EVENTS, D_STATE = 0x81, 0x82, 0x83, 0x84, 0x90, 0x91
# the simulator only: where the pieces stand, for its window to draw (docs/protocol.md);
# sent only to a device whose INFO has CAP_PIECES, which no firmware build sets
H_PIECES = 0x20

E_TYPE = 1             # the device's answer to a frame type it does not take
ERROR_NAMES = {E_TYPE: "unknown frame type", 2: "bad length", 3: "bad value",
               4: "unsupported protocol version", 5: "no session (HELLO first)"}

SOLID, BLINK, PULSE, CHASE = 0, 1, 2, 3
EFFECTS = {"solid": SOLID, "blink": BLINK, "pulse": PULSE, "chase": CHASE}
SOUNDS = {"stop": 0, "click": 1, "ok": 2, "error": 3, "roll": 4, "win": 5, "alert": 6,
          "hello": 7}
CONTROLS = ("OK", "BACK", "MENU")
DICE_KINDS = (4, 6, 8)
MAX_DICE, MAX_LINES, MAX_CHARS = 4, 3, 16

CAP_NAMES = ("oled", "buzzer", "effects", "roll-animation", "standalone-dice", "cells",
             "pieces")
CAP_CELLS = 1 << CAP_NAMES.index("cells")
CAP_PIECES = 1 << CAP_NAMES.index("pieces")


class ProtocolError(ValueError):
    """A frame or message that does not follow docs/protocol.md."""


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE; crc16(b"123456789") == 0x29B1."""
    return binascii.crc_hqx(data, crc)


def stuff(body: bytes) -> bytes:
    out = bytearray()
    for b in body:
        if b in (FLAG, ESC, CTRL_C):
            out += bytes((ESC, b ^ 0x20))
        else:
            out.append(b)
    return bytes(out)


def encode_frame(ftype: int, seq: int, payload: bytes = b"") -> bytes:
    if not (0 <= ftype <= 255 and 0 <= seq <= 255):
        raise ProtocolError(f"type {ftype} / seq {seq} out of range 0..255")
    body = bytes((ftype, seq)) + bytes(payload)
    if len(body) + 2 > MAX_BODY:
        raise ProtocolError(f"frame of {len(body) + 2} bytes exceeds {MAX_BODY}")
    body += struct.pack(">H", crc16(body))
    return bytes((FLAG,)) + stuff(body) + bytes((FLAG,))


@dataclass(frozen=True)
class Frame:
    type: int
    seq: int
    payload: bytes


class Decoder:
    """Feeds on any byte chunks; returns complete, CRC-checked frames. Everything else
    (REPL chatter, garbage, cut frames, bad escapes, oversize runs) is counted in `errors`
    or skipped, and decoding resumes at the next FLAG."""

    def __init__(self, max_body: int = MAX_BODY):
        self.max_body = max_body
        self._buf = bytearray()
        self._sync = False
        self._esc = False
        self._bad = False
        self.frames = 0
        self.errors = 0

    def feed(self, data: bytes) -> list[Frame]:
        out = []
        for b in data:
            if b == FLAG:
                if self._sync and (self._buf or self._bad):  # spoilt counts, even empty
                    body = bytes(self._buf)
                    if self._bad or self._esc or len(body) < 4 or crc16(body) != 0:
                        self.errors += 1
                    else:
                        self.frames += 1
                        out.append(Frame(body[0], body[1], body[2:-2]))
                self._sync, self._esc, self._bad = True, False, False
                self._buf.clear()
                continue
            if not self._sync or self._bad:
                continue
            if b == CTRL_C:
                self._bad = True
                continue
            if self._esc:
                self._esc = False
                b ^= 0x20
                if b not in (FLAG, ESC, CTRL_C):
                    self._bad = True
                    continue
            elif b == ESC:
                self._esc = True
                continue
            if len(self._buf) >= self.max_body:
                self._bad = True
                continue
            self._buf.append(b)
        return out


# ---- messages, host -> device ---------------------------------------------------------------

@dataclass(frozen=True)
class Cell:
    r: int = 0
    g: int = 0
    b: int = 0
    effect: int = SOLID
    phase: int = 0  # blink: 1 = opposite half; pulse: unused; chase: position along the path

    def __post_init__(self):
        for name in ("r", "g", "b"):
            v = getattr(self, name)
            if not (isinstance(v, int) and 0 <= v <= 255):
                raise ProtocolError(f"cell colour {name}={v!r}: expected 0..255")
        if self.effect not in (SOLID, BLINK, PULSE, CHASE):
            raise ProtocolError(f"cell effect {self.effect!r}: expected 0..3")
        if not (isinstance(self.phase, int) and 0 <= self.phase <= 15):
            raise ProtocolError(f"cell phase {self.phase!r}: expected 0..15")


OFF = Cell()


@dataclass(frozen=True)
class Scene:
    cells: tuple[Cell, ...]
    brightness: int = 255

    def __post_init__(self):
        object.__setattr__(self, "cells", tuple(self.cells))
        if not (isinstance(self.brightness, int) and 0 <= self.brightness <= 255):
            raise ProtocolError(f"brightness {self.brightness!r}: expected 0..255")
        if not 1 <= len(self.cells) <= 256:
            raise ProtocolError(f"{len(self.cells)} cells: expected 1..256")

    @classmethod
    def blank(cls, cells: int, brightness: int = 255) -> "Scene":
        return cls((OFF,) * cells, brightness)

    def payload(self) -> bytes:
        out = bytearray((self.brightness,)) + struct.pack(">H", len(self.cells))
        for c in self.cells:
            out += bytes((c.r, c.g, c.b, c.effect | c.phase << 4))
        return bytes(out)


def cells_payload(old: bytes, new: bytes) -> Union[bytes, None]:
    """The CELLS payload that turns a board showing SCENE payload `old` into `new` (the
    brightness, then index, r, g, b, fx of each cell that differs), or None when it would
    not be shorter than `new` itself or the cell counts differ."""
    if len(old) != len(new) or old[1:3] != new[1:3]:
        return None
    out = bytearray(new[:1])
    for i in range(3, len(new), 4):
        if new[i:i + 4] != old[i:i + 4]:
            out.append((i - 3) >> 2)
            out += new[i:i + 4]
            if len(out) >= len(new):
                return None
    return bytes(out)


@dataclass(frozen=True)
class Display:
    lines: tuple[str, ...] = ()
    dice: tuple[int, ...] = ()
    kind: int = 0  # 4, 6, 8, or 0 for no dice
    roll: bool = False  # play the roll animation, then show `dice`
    tag: int = 0  # changes per new roll, so an identical re-roll still animates

    def __post_init__(self):
        object.__setattr__(self, "lines", tuple(self.lines))
        object.__setattr__(self, "dice", tuple(self.dice))
        if len(self.lines) > MAX_LINES:
            raise ProtocolError(f"{len(self.lines)} text lines: at most {MAX_LINES}")
        for line in self.lines:
            if len(line) > MAX_CHARS or any(not 0x20 <= ord(ch) <= 0x7E for ch in line):
                raise ProtocolError(f"text line {line!r}: at most {MAX_CHARS} printable "
                                    "ASCII characters")
        if self.kind == 0:
            if self.dice:
                raise ProtocolError("dice values given without a die kind (4, 6 or 8)")
        elif self.kind not in DICE_KINDS:
            raise ProtocolError(f"die kind d{self.kind}: expected d4, d6 or d8")
        if len(self.dice) > MAX_DICE:
            raise ProtocolError(f"{len(self.dice)} dice: at most {MAX_DICE}")
        for v in self.dice:
            if not (isinstance(v, int) and 1 <= v <= self.kind):
                raise ProtocolError(f"die value {v!r}: expected 1..{self.kind}")
        if not 0 <= self.tag <= 255:
            raise ProtocolError(f"display tag {self.tag!r}: expected 0..255")

    def payload(self) -> bytes:
        out = bytearray((self.tag, 1 if self.roll else 0, self.kind, len(self.dice)))
        out += bytes(self.dice)
        out.append(len(self.lines))
        for line in self.lines:
            raw = line.encode("ascii")
            out.append(len(raw))
            out += raw
        return bytes(out)


def hello_payload(session: int, version: int = PROTO_VERSION) -> bytes:
    return struct.pack(">BH", version, session)


# ---- messages, device -> host ---------------------------------------------------------------

@dataclass(frozen=True)
class Info:
    proto: int
    boot_id: int
    session: int
    cells: int
    rows: int
    cols: int
    controls: int
    caps: int
    firmware: str
    board: str

    @property
    def capabilities(self) -> list[str]:
        return [n for i, n in enumerate(CAP_NAMES) if self.caps >> i & 1]


@dataclass(frozen=True)
class KeyEvent:
    index: int
    pressed: bool
    control: bool = False

    @property
    def name(self) -> str:
        if self.control:
            return CONTROLS[self.index] if self.index < len(CONTROLS) else f"C{self.index}"
        return f"cell {self.index}"


@dataclass(frozen=True)
class KeyState:
    cells: frozenset[int]
    controls: frozenset[int]
    overflow: bool = False
    count: int = field(default=0, compare=False)    # the cell count the STATE was sent for


@dataclass(frozen=True)
class DeviceError:
    seq: int
    code: int

    @property
    def text(self) -> str:
        return ERROR_NAMES.get(self.code, f"error code {self.code}")


@dataclass(frozen=True)
class Plain:
    """HEARTBEAT or ACK (seq carries the acknowledged sequence number)."""
    type: int
    seq: int


DeviceMessage = Union[Info, Plain, DeviceError, "Events", KeyState]


@dataclass(frozen=True)
class Events:
    events: tuple[KeyEvent, ...] = field(default_factory=tuple)


def _need(payload: bytes, n: int, what: str, exact: bool = True):
    if (len(payload) != n) if exact else (len(payload) < n):
        raise ProtocolError(f"{what}: payload of {len(payload)} bytes, expected "
                            f"{'' if exact else 'at least '}{n}")


def parse_device(frame: Frame) -> DeviceMessage:
    """Decodes a device->host frame; ProtocolError for anything malformed."""
    t, seq, p = frame.type, frame.seq, frame.payload
    if t == D_INFO:
        _need(p, 14, "INFO", exact=False)
        proto, boot, session, cells, rows, cols, controls, caps = struct.unpack(">BHHHBBBH",
                                                                                p[:12])
        i = 12
        texts = []
        for what in ("firmware version", "board id"):
            if i >= len(p) or i + 1 + p[i] > len(p):
                raise ProtocolError(f"INFO: {what} cut short")
            texts.append(p[i + 1:i + 1 + p[i]].decode("ascii", "replace"))
            i += 1 + p[i]
        if i != len(p):
            raise ProtocolError(f"INFO: {len(p) - i} bytes after the board id")
        return Info(proto, boot, session, cells, rows, cols, controls, caps, *texts)
    if t in (D_HEARTBEAT, D_ACK):
        _need(p, 0, "HEARTBEAT" if t == D_HEARTBEAT else "ACK")
        return Plain(t, seq)
    if t == D_ERROR:
        _need(p, 1, "ERROR")
        return DeviceError(seq, p[0])
    if t == D_EVENTS:
        _need(p, 1, "EVENTS", exact=False)
        n = p[0]
        if n == 0 or len(p) != 1 + 3 * n:
            raise ProtocolError(f"EVENTS: count {n} does not match {len(p)} payload bytes")
        evs = []
        for k in range(n):
            flags, index = struct.unpack_from(">BH", p, 1 + 3 * k)
            if flags & ~3:
                raise ProtocolError(f"EVENTS: unknown flag bits 0x{flags:02x}")
            evs.append(KeyEvent(index, bool(flags & 1), bool(flags & 2)))
        return Events(tuple(evs))
    if t == D_STATE:
        _need(p, 4, "STATE", exact=False)
        flags, cells = struct.unpack_from(">BH", p)
        nb = (cells + 7) // 8
        _need(p, 4 + nb, "STATE")
        bitmap = p[3:3 + nb]
        down = frozenset(i for i in range(cells) if bitmap[i >> 3] >> (i & 7) & 1)
        ctl = p[3 + nb]
        return KeyState(down, frozenset(i for i in range(8) if ctl >> i & 1), bool(flags & 1),
                        cells)
    raise ProtocolError(f"unknown device frame type 0x{t:02x}")


def check_against(msg: DeviceMessage, info: Info) -> None:
    """ProtocolError if a decoded EVENTS or STATE does not fit the board INFO announced: a
    key the board does not have, a STATE of another cell count."""
    if isinstance(msg, Events):
        for e in msg.events:
            have = info.controls if e.control else info.cells
            if e.index >= have:
                kind = "control" if e.control else "cell"
                raise ProtocolError(f"EVENTS: {kind} {e.index}, but the board announced "
                                    f"{have} {kind}s")
    elif isinstance(msg, KeyState):
        if msg.count != info.cells:
            raise ProtocolError(f"STATE: {msg.count} cells, but the board announced "
                                f"{info.cells}")
        if msg.controls and max(msg.controls) >= info.controls:
            raise ProtocolError(f"STATE: control {max(msg.controls)} held, but the board "
                                f"announced {info.controls} controls")


def events_payload(events: Iterable[KeyEvent]) -> bytes:
    """Device-side encoding, for tests and the simulator's wire checks."""
    evs = list(events)
    out = bytearray((len(evs),))
    for e in evs:
        out += struct.pack(">BH", (1 if e.pressed else 0) | (2 if e.control else 0), e.index)
    return bytes(out)


def state_payload(state: KeyState, cells: int) -> bytes:
    bitmap = bytearray((cells + 7) // 8)
    for i in state.cells:
        bitmap[i >> 3] |= 1 << (i & 7)
    ctl = sum(1 << i for i in state.controls)
    return struct.pack(">BH", 1 if state.overflow else 0, cells) + bytes(bitmap) + bytes((ctl,))


def info_payload(info: Info) -> bytes:
    out = struct.pack(">BHHHBBBH", info.proto, info.boot_id, info.session, info.cells,
                      info.rows, info.cols, info.controls, info.caps)
    for s in (info.firmware, info.board):
        raw = s.encode("ascii")
        out += bytes((len(raw),)) + raw
    return out


def solid(cells: Sequence[tuple[int, int, int]], brightness: int = 255) -> Scene:
    """A scene of plain colours, one (r, g, b) per cell."""
    return Scene(tuple(Cell(r, g, b) for r, g, b in cells), brightness)
