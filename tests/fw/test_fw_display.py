# OLED layout, dice faces and the roll animation. The golden CRCs were taken from the real
# framebuf in the MicroPython VM; the same test on CPython checks the fbcompat stand-in.
import fwpaths  # noqa: F401

import protocol as P
from display import Display, check_payload, DIE, GAP


def px(d, x, y):
    return d.fb.pixel(x, y)


def die_x(n, i):
    return (128 - (n * DIE + (n - 1) * GAP)) // 2 + i * (DIE + GAP)


def payload(tag=0, roll=0, kind=0, dice=(), lines=()):
    p = bytearray([tag, roll, kind, len(dice)]) + bytes(dice) + bytes([len(lines)])
    for s in lines:
        p += bytes([len(s)]) + s.encode()
    return p


def test_d6_pips_hand_checked():
    d = Display()
    d.show(6, b"\x01", (), False, 0)
    d.tick(0)
    x = die_x(1, 0)  # 50
    assert x == 50
    # value 1: only the centre pip, a 4x4 block at +12..+15
    for yy in range(2 + 12, 2 + 16):
        for xx in range(x + 12, x + 16):
            assert px(d, xx, yy) == 1
    assert px(d, x + 6, 2 + 6) == 0  # where the top-left pip of a 6 would be
    assert px(d, x + 1, 2) == 1 and px(d, x, 2) == 0  # outline with a rounded corner
    d.show(6, b"\x06", (), False, 0)
    d.tick(0)
    for gx, gy in ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)):
        assert px(d, x + 6 + 7 * gx, 2 + 6 + 7 * gy) == 1
    assert px(d, x + 13, 2 + 13) == 0  # no centre pip on a 6


def test_d4_and_d8_shapes():
    d = Display()
    d.show(4, b"\x03", (), False, 0)
    d.tick(0)
    x = die_x(1, 0)
    assert px(d, x + 14, 3) == 1  # apex
    assert px(d, x + 1, 2 + 26) == 1 and px(d, x + 27, 2 + 26) == 1  # base ends
    d.show(8, b"\x08", (), False, 0)
    d.tick(0)
    assert px(d, x + 14, 2) == 1  # top corner
    assert px(d, x + 1, 2 + 13) == 1 and px(d, x + 27, 2 + 13) == 1  # side corners


def test_text_lines_are_centred():
    d = Display()
    d.show(0, b"", ("AB",), False, 0)
    d.tick(0)
    # one line, no dice: y = 28; "AB" is 16 px wide -> x = 56
    lit = [x for x in range(128) for y in range(64) if px(d, x, y)]
    assert min(lit) >= 56 and max(lit) < 72
    ys = [y for x in range(128) for y in range(64) if px(d, x, y)]
    assert min(ys) >= 28 and max(ys) < 36


def test_roll_animates_then_lands_on_the_values():
    d = Display()
    d.seed(7)
    d.show(6, b"\x02\x05", ("roll",), True, 1000)
    redraws = 0
    faces = set()
    t = 1000
    while t < 2100:
        if d.tick(t):
            redraws += 1
            faces.add(bytes(d.faces[:2]))
        t += 5
    assert not d.rolling
    assert bytes(d.faces[:2]) == b"\x02\x05"
    assert redraws >= 8  # it visibly tumbles
    assert len(faces) >= 4
    assert not d.tick(t)  # idle afterwards: nothing to push to the OLED


def test_check_payload_accepts_and_rejects():
    assert check_payload(payload(kind=6, dice=(1, 6), lines=("a", "b", "c"))) == 0
    assert check_payload(payload(kind=8, dice=(8,), roll=1)) == 0
    assert check_payload(payload(kind=6, dice=(7,))) == 3
    assert check_payload(payload(kind=0, dice=(1,))) == 3
    assert check_payload(payload(kind=6, dice=(1, 1, 1, 1, 1))) == 3
    assert check_payload(payload(lines=("x" * 17,))) == 3
    assert check_payload(payload(lines=("a", "b", "c", "d"))) == 3
    assert check_payload(payload(roll=2)) == 3
    assert check_payload(payload(lines=("abc",))[:-1]) == 2
    assert check_payload(payload(lines=("abc",)) + b"x") == 2
    assert check_payload(b"\x00\x00") == 2


GOLDEN = (
    payload(kind=6, dice=(1, 2, 3, 4), lines=("Red to move", "roll: 10", "OK")),
    payload(kind=4, dice=(1, 4), lines=("d4 test",)),
    payload(kind=8, dice=(5, 8, 3), lines=()),
    payload(lines=("Waiting for host", "~!@#$%^&*()_+{}|", "0123456789abcdef")),
)
GOLDEN_CRC = (0x4756, 0x95F1, 0x2E69, 0xA3AF)


def screen_crcs():
    out = []
    for p in GOLDEN:
        d = Display()
        assert check_payload(p) == 0
        d.show_payload(p, 0)
        d.tick(0)
        out.append(P.crc16(d.buf))
    return out


def test_screens_match_micropython_framebuf():
    got = screen_crcs()
    print("screen CRCs", ["0x%04x" % c for c in got])
    assert tuple(got) == GOLDEN_CRC
