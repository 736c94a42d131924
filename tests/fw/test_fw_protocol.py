# Device-side codec against docs/protocol-vectors.json, plus fuzzing with a seeded PRNG
# (runs on CPython and in the MicroPython VM).
from fwpaths import load_json, unhex
from fastpaths import decode_runs
import random

import protocol as P

V = load_json("protocol-vectors.json")


def decode_all(data, dec=None):
    dec = dec or P.Decoder()
    out = []
    for b in data:
        r = dec.feed(b)
        if r == P.FRAME:
            out.append((dec.ftype(), dec.seq(), bytes(dec.payload())))
    return out


def test_crc_check_value():
    assert P.crc16(b"123456789") == 0x29B1
    for v in V["crc"]:
        assert P.crc16(unhex(v["data_hex"])) == int(v["crc"], 16), v


def test_vectors_decode():
    for v in V["frames"]:
        got = decode_all(unhex(v["wire"]))
        assert got == [(v["type"], v["seq"], unhex(v["payload"]))], v["name"]


def test_vectors_encode():
    enc = P.Encoder()
    for v in V["frames"]:
        p = unhex(v["payload"])
        enc.body[2:2 + len(p)] = p
        assert bytes(enc.frame(v["type"], v["seq"], len(p))) == unhex(v["wire"]), v["name"]


def test_invalid_inputs_yield_listed_frames():
    for v in V["invalid"]:
        dec = P.Decoder()
        got = decode_all(unhex(v["wire"]), dec)
        want = [(f["type"], f["seq"], unhex(f["payload"])) for f in v["frames"]]
        assert got == want, v["name"]
        assert dec.errors >= 1 or v["name"].startswith(("garbage", "REPL", "empty")), v["name"]


def test_stuffing_keeps_flag_and_ctrl_c_out_of_frames():
    enc = P.Encoder()
    for i in range(256):
        enc.body[2 + i] = i
    wire = bytes(enc.frame(0x10, 0x7E, 256))
    inner = wire[1:-1]
    assert P.FLAG not in inner and P.CTRL_C not in inner
    assert decode_all(wire) == [(0x10, 0x7E, bytes(range(256)))]


def test_cr_ctrl_c_is_an_interrupt_only_as_a_pair():
    dec = P.Decoder()
    results = [dec.feed(b) for b in b"\x03\r\x03"]
    assert results == [P.NONE, P.NONE, P.INTERRUPT]


def decode_chunks(data, size):
    return decode_runs(P.Decoder(), data, size)


def test_runs_of_bytes_decode_as_byte_by_byte():
    # every vector, valid and invalid, in one stream, then CR + Ctrl-C split across runs
    stream = b"".join(unhex(v["wire"]) for v in V["frames"] + V["invalid"])
    stream += b"\x7e\x02\x00\r\x03\x7e" + unhex(V["frames"][0]["wire"])
    dec = P.Decoder()
    want = []
    for b in stream:
        r = dec.feed(b)
        if r == P.FRAME:
            want.append((dec.ftype(), dec.seq(), bytes(dec.payload())))
        elif r == P.INTERRUPT:
            want.append("interrupt")
    assert want.count("interrupt") == 1 and len(want) > len(V["frames"])
    for size in (1, 2, 3, 4, 5, 7, 16, 64, len(stream)):
        assert decode_chunks(stream, size) == (want, dec.errors, dec.frames), size


def test_frame_split_anywhere_is_still_decoded():
    wire = unhex(V["frames"][3]["wire"])
    dec = P.Decoder()
    for cut in range(1, len(wire)):
        assert decode_all(wire[:cut], dec) == []
        assert len(decode_all(wire[cut:], dec)) == 1


def test_fuzz_random_bytes_then_valid_frame():
    rnd = random.Random(1234) if hasattr(random, "Random") else None
    rb = rnd.getrandbits if rnd else random.getrandbits
    if not rnd:
        random.seed(1234)
    good = unhex(V["frames"][0]["wire"])
    dec = P.Decoder()
    for trial in range(150):
        n = rb(9)
        junk = bytes(rb(8) for _ in range(n))
        decode_all(junk, dec)  # must not raise, whatever it finds
        assert decode_all(good, dec)[-1:] == [(1, 0, unhex(V["frames"][0]["payload"]))], trial


def test_fuzz_truncated_and_bitflipped_frames():
    if hasattr(random, "Random"):
        rb = random.Random(99).getrandbits
    else:
        random.seed(99)
        rb = random.getrandbits
    dec = P.Decoder()
    frames = [unhex(v["wire"]) for v in V["frames"]]
    for trial in range(200):
        w = bytearray(frames[trial % len(frames)])
        if trial & 1:
            # keep at least one body byte out: a frame missing only its closing FLAG is
            # complete (the next frame's opening FLAG closes it)
            w = w[:1 + rb(10) % (len(w) - 2)]
        else:
            i = 1 + rb(10) % (len(w) - 2)
            w[i] ^= 1 << (rb(3))
        got = decode_all(bytes(w), dec)
        # a single flipped bit can never pass CRC-16; a cut frame has no end FLAG
        assert got == [], (trial, bytes(w))
        nxt = frames[(trial + 1) % len(frames)]
        assert len(decode_all(nxt, dec)) == 1
