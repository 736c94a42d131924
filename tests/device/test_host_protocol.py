"""The host codec against docs/protocol-vectors.json, and fuzzed with hypothesis."""

import json
import os

import pytest
from hypothesis import given, strategies as st

from knockboard.device import protocol as P

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
with open(os.path.join(ROOT, "docs", "protocol-vectors.json")) as f:
    V = json.load(f)


def bitwise_crc(data):
    # a third, deliberately naive CRC-16/CCITT-FALSE, to check the vector file itself
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def test_crc_vectors():
    assert P.crc16(b"123456789") == 0x29B1
    for v in V["crc"]:
        assert P.crc16(bytes.fromhex(v["data_hex"])) == int(v["crc"], 16)
        assert bitwise_crc(bytes.fromhex(v["data_hex"])) == int(v["crc"], 16)


def test_vector_file_is_self_consistent():
    for v in V["frames"] + V["rejected"]:
        wire = bytes.fromhex(v["wire"])
        assert wire[0] == wire[-1] == 0x7E
        body = bytearray()
        it = iter(wire[1:-1])
        for b in it:
            body.append(next(it) ^ 0x20 if b == 0x7D else b)
        assert bitwise_crc(bytes(body[:-2])) == int.from_bytes(body[-2:], "big"), v["name"]


def build(msg):
    kind = msg["kind"]
    if kind == "hello":
        return P.hello_payload(msg["session"], msg["version"])
    if kind == "scene":
        return P.Scene(tuple(P.Cell(r, g, b, e, p) for r, g, b, e, p in msg["cells"]),
                       msg["brightness"]).payload()
    if kind == "display":
        return P.Display(tuple(msg["lines"]), tuple(msg["dice"]), msg["die"], msg["roll"],
                         msg["tag"]).payload()
    if kind == "sound":
        return bytes((msg["pattern"],))
    if kind == "maint":
        return b"MAINT"
    return b""


@pytest.mark.parametrize("v", [v for v in V["frames"] if v["dir"] == "h2d"],
                         ids=lambda v: v["name"])
def test_host_encodes_vector(v):
    wire = P.encode_frame(v["type"], v["seq"], build(v["message"]))
    assert wire.hex() == v["wire"]


def expected(msg):
    kind = msg["kind"]
    if kind == "info":
        return P.Info(*(msg[k] for k in ("proto", "boot_id", "session", "cells", "rows",
                                         "cols", "controls", "caps", "firmware", "board")))
    if kind == "heartbeat":
        return P.Plain(P.D_HEARTBEAT, 0)
    if kind == "ack":
        return P.Plain(P.D_ACK, msg["seq"])
    if kind == "error":
        return P.DeviceError(msg["seq"], msg["code"])
    if kind == "events":
        return P.Events(tuple(P.KeyEvent(e["index"], e["pressed"], e["control"])
                              for e in msg["events"]))
    if kind == "state":
        return P.KeyState(frozenset(msg["cells"]), frozenset(msg["controls"]), msg["overflow"])
    raise AssertionError(kind)


@pytest.mark.parametrize("v", [v for v in V["frames"] if v["dir"] == "d2h"],
                         ids=lambda v: v["name"])
def test_host_decodes_vector(v):
    frames = P.Decoder().feed(bytes.fromhex(v["wire"]))
    assert len(frames) == 1
    assert (frames[0].type, frames[0].seq, frames[0].payload.hex()) == \
        (v["type"], v["seq"], v["payload"])
    assert P.parse_device(frames[0]) == expected(v["message"])
    # and the device-side encoders of the host codec (used by the simulator) agree
    msg = P.parse_device(frames[0])
    if isinstance(msg, P.Events):
        assert P.events_payload(msg.events).hex() == v["payload"]
    if isinstance(msg, P.KeyState):
        assert P.state_payload(msg, 127).hex() == v["payload"]
    if isinstance(msg, P.Info):
        assert P.info_payload(msg).hex() == v["payload"]


@pytest.mark.parametrize("v", V["invalid"], ids=lambda v: v["name"])
def test_host_decoder_on_invalid_input(v):
    dec = P.Decoder()
    got = dec.feed(bytes.fromhex(v["wire"]))
    assert [(f.type, f.seq, f.payload.hex()) for f in got] == \
        [(f["type"], f["seq"], f["payload"]) for f in v["frames"]]


def test_host_refuses_to_build_what_the_device_would_reject():
    with pytest.raises(P.ProtocolError, match="d5"):
        P.Display(dice=(1,), kind=5)
    with pytest.raises(P.ProtocolError, match="1..6"):
        P.Display(dice=(7,), kind=6)
    with pytest.raises(P.ProtocolError, match="16"):
        P.Display(lines=("A" * 17,))
    with pytest.raises(P.ProtocolError, match="printable"):
        P.Display(lines=("a\n",))
    with pytest.raises(P.ProtocolError, match="at most 3"):
        P.Display(lines=("a", "b", "c", "d"))
    with pytest.raises(P.ProtocolError, match="effect"):
        P.Cell(effect=5)
    with pytest.raises(P.ProtocolError, match="0..255"):
        P.Cell(r=256)
    with pytest.raises(P.ProtocolError, match="exceeds"):
        P.encode_frame(P.H_SCENE, 1, bytes(1300))


@pytest.mark.parametrize("payload,why", [
    (b"", "EVENTS: payload of 0 bytes"),
    (b"\x02\x01\x00\x05", "count 2"),
    (b"\x01\x09\x00\x05", "flag bits"),
])
def test_malformed_device_payloads_are_explained(payload, why):
    with pytest.raises(P.ProtocolError, match=why):
        P.parse_device(P.Frame(P.D_EVENTS, 1, payload))


INFO = P.Info(1, 7, 0x4242, 64, 8, 8, 3, 0x1F, "0.1.0", "dodgeball")


@pytest.mark.parametrize("ftype,payload,why", [
    (P.D_STATE, P.state_payload(P.KeyState(frozenset({2}), frozenset()), 127),
     "STATE: 127 cells, but the board announced 64"),
    (P.D_STATE, P.state_payload(P.KeyState(frozenset(), frozenset({5})), 64),
     "STATE: control 5 held, but the board announced 3 controls"),
    (P.D_EVENTS, P.events_payload([P.KeyEvent(65535, True, control=True)]),
     "EVENTS: control 65535, but the board announced 3 controls"),
    (P.D_EVENTS, P.events_payload([P.KeyEvent(3, True), P.KeyEvent(64, True)]),
     "EVENTS: cell 64, but the board announced 64 cells"),
])
def test_frames_that_do_not_fit_the_boards_info_are_refused(ftype, payload, why):
    msg = P.parse_device(P.Frame(ftype, 1, payload))     # well-formed on its own
    with pytest.raises(P.ProtocolError, match=f"^{why}$"):
        P.check_against(msg, INFO)


def test_frames_that_fit_the_boards_info_pass():
    for msg in (P.KeyState(frozenset({0, 63}), frozenset({0, 2}), count=64),
                P.Events((P.KeyEvent(63, False), P.KeyEvent(2, True, control=True)))):
        P.check_against(msg, INFO)


def test_the_link_drops_and_counts_a_frame_that_does_not_fit_the_info():
    from knockboard.device.link import Link
    link = Link()
    link.info = INFO
    out = []
    frame = P.Frame(P.D_EVENTS, 1, P.events_payload([P.KeyEvent(65535, True, True)]))
    link._on_frame(frame, out)         # refused before anything is written: no transport
    assert out == [] and link.protocol_errors == 1
    assert link.last_protocol_error.startswith("EVENTS: control 65535")


# ---- fuzzing ----

frames_st = st.builds(lambda t, s, p: (t, s, p), st.integers(0, 255), st.integers(0, 255),
                      st.binary(max_size=300))


@given(frames_st)
def test_any_frame_round_trips(f):
    t, s, p = f
    got = P.Decoder().feed(P.encode_frame(t, s, p))
    assert got == [P.Frame(t, s, p)]


@given(st.binary(max_size=2000), frames_st)
def test_random_bytes_then_a_frame(junk, f):
    t, s, p = f
    dec = P.Decoder()
    dec.feed(junk)  # never raises
    got = dec.feed(P.encode_frame(t, s, p))
    assert got[-1:] == [P.Frame(t, s, p)]


@given(frames_st, st.data())
def test_chunking_does_not_matter(f, data):
    wire = P.encode_frame(*f) * 3
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=10)))
    dec = P.Decoder()
    got = []
    prev = 0
    for c in cuts + [len(wire)]:
        got += dec.feed(wire[prev:c])
        prev = c
    assert got == [P.Frame(*f)] * 3


@given(frames_st, st.integers(1, 10_000), st.integers(0, 7))
def test_a_flipped_bit_never_yields_a_wrong_frame(f, pos, bit):
    wire = bytearray(P.encode_frame(*f))
    i = 1 + pos % (len(wire) - 2)
    wire[i] ^= 1 << bit
    got = P.Decoder().feed(bytes(wire) + P.encode_frame(2, 0))
    # CRC-16 catches every single-bit error; at worst the frame is lost, never altered
    assert got[-1] == P.Frame(2, 0, b"")
    assert all(g == P.Frame(*f) for g in got[:-1])
    assert len(got) == 1


@given(st.binary(max_size=64), st.integers(0, 255), st.integers(0, 255))
def test_parse_device_only_raises_protocol_error(payload, t, s):
    try:
        P.parse_device(P.Frame(t, s, payload))
    except P.ProtocolError:
        pass
