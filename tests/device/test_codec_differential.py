"""Differential fuzzing: the firmware decoder and the host decoder, fed the same bytes,
must extract exactly the same frames and count the same damaged ones, whatever the bytes;
the bytes the grammar gives a meaning (FLAG, ESC, Ctrl-C, and CR before it) are put at
every position of a frame, the first (right after the opening FLAG) included."""

from hypothesis import given, strategies as st

import harness  # noqa: F401  (firmware on sys.path)
import protocol as FW

from knockboard.device import protocol as P


SPECIAL = (P.FLAG, P.ESC, P.CTRL_C, 0x0D)


def fw_frames(data):
    dec = FW.Decoder()
    out = []
    for b in data:
        if dec.feed(b) == FW.FRAME:
            out.append((dec.ftype(), dec.seq(), bytes(dec.payload())))
    return out, dec.errors


def host_frames(data):
    dec = P.Decoder()
    return [(f.type, f.seq, f.payload) for f in dec.feed(data)], dec.errors


def spoilt(wire, pos, byte, overwrite):
    """`wire` with `byte` put at `pos`: written over the byte there, or inserted before it."""
    return wire[:pos] + bytes((byte,)) + wire[pos + 1 if overwrite else pos:]


frame = st.builds(lambda t, s, p: P.encode_frame(t, s, p), st.integers(0, 255),
                  st.integers(0, 255), st.binary(max_size=200))
noise = st.binary(max_size=40)


@st.composite
def frame_with_special(draw):
    """A frame with one to three special bytes put anywhere in it, position 1 (right after
    the opening FLAG) as likely as any other."""
    wire = draw(frame)
    for _ in range(draw(st.integers(1, 3))):
        pos = draw(st.integers(0, len(wire)))
        wire = spoilt(wire, pos, draw(st.sampled_from(SPECIAL)), draw(st.booleans()))
    return wire


stream = st.lists(st.one_of(frame, noise, frame.map(lambda f: f[:len(f) // 2]),
                            frame_with_special(), st.binary(max_size=8).map(
                                lambda b: bytes(SPECIAL[x % 4] for x in b))), max_size=12)


@given(stream)
def test_both_decoders_agree_on_any_stream(parts):
    data = b"".join(parts)
    assert fw_frames(data) == host_frames(data)


@given(st.binary(max_size=3000))
def test_both_decoders_agree_on_random_bytes(data):
    assert fw_frames(data) == host_frames(data)


def test_both_decoders_agree_with_each_special_byte_at_every_position():
    # exhaustive over positions: the property tests draw positions, this leaves none out
    good = P.encode_frame(P.D_HEARTBEAT, 0)
    for wire in (P.encode_frame(P.D_EVENTS, 7, b"\x01\x01\x00\x05"),
                 P.encode_frame(P.D_STATE, 0x7E, b"\x00\x00\x03\x7d\x03")):
        for pos in range(len(wire) + 1):
            for byte in SPECIAL:
                for overwrite in (False, True):
                    data = spoilt(wire, pos, byte, overwrite) + good
                    fw, host = fw_frames(data), host_frames(data)
                    assert fw == host, (data.hex(), fw, host)
                    if byte == P.CTRL_C and (0 if overwrite else 1) <= pos < len(wire):
                        # a raw Ctrl-C anywhere between the FLAGs spoils the frame, right
                        # after the opening one too (over a FLAG: the frame it runs into)
                        assert host[0] == [(P.D_HEARTBEAT, 0, b"")], data.hex()


@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=300))
def test_firmware_encoder_equals_host_encoder(t, s, p):
    enc = FW.Encoder()
    enc.body[2:2 + len(p)] = p
    assert bytes(enc.frame(t, s, len(p))) == P.encode_frame(t, s, p)
