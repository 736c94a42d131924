"""Differential fuzzing: the firmware decoder and the host decoder, fed the same bytes,
must extract exactly the same frames, whatever the bytes."""

from hypothesis import given, strategies as st

import harness  # noqa: F401  (firmware on sys.path)
import protocol as FW

from knockboard.device import protocol as P


def fw_frames(data):
    dec = FW.Decoder()
    out = []
    for b in data:
        if dec.feed(b) == FW.FRAME:
            out.append((dec.ftype(), dec.seq(), bytes(dec.payload())))
    return out


def host_frames(data):
    return [(f.type, f.seq, f.payload) for f in P.Decoder().feed(data)]


frame = st.builds(lambda t, s, p: P.encode_frame(t, s, p), st.integers(0, 255),
                  st.integers(0, 255), st.binary(max_size=200))
noise = st.binary(max_size=40)
stream = st.lists(st.one_of(frame, noise, frame.map(lambda f: f[:len(f) // 2])), max_size=12)


@given(stream)
def test_both_decoders_agree_on_any_stream(parts):
    data = b"".join(parts)
    assert fw_frames(data) == host_frames(data)


@given(st.binary(max_size=3000))
def test_both_decoders_agree_on_random_bytes(data):
    assert fw_frames(data) == host_frames(data)


@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=300))
def test_firmware_encoder_equals_host_encoder(t, s, p):
    enc = FW.Encoder()
    enc.body[2:2 + len(p)] = p
    assert bytes(enc.frame(t, s, len(p))) == P.encode_frame(t, s, p)
