# Buzzer patterns and the standalone dice roller.
import fwpaths  # noqa: F401

import sound
from sound import Player, PATTERNS
from dice import DiceRoller, roll_die, KINDS
from keys import OK, BACK, MENU


def test_player_steps_through_a_pattern_and_ends_silent():
    p = Player()
    p.start(sound.OK, 0)  # (1568, 60), (0, 20), (2093, 90)
    seen = []
    for t in range(0, 300):
        f = p.tick(t)
        if f >= 0:
            seen.append((t, f))
    assert seen == [(0, 1568), (60, 0), (80, 2093), (170, 0)]
    assert not p.busy


def test_every_pattern_is_well_formed():
    for pat in PATTERNS:
        for f, ms in pat:
            assert f == 0 or 100 <= f <= 5000
            assert 0 < ms <= 1000


class Bits:
    def __init__(self, seq):
        self.seq = list(seq)

    def __call__(self, n):
        return self.seq.pop(0)


def test_roll_die_rejects_out_of_range_draws():
    # 3-bit draws 6 and 7 are not faces of a d6: skipped, not folded (no modulo bias)
    assert roll_die(6, Bits([7, 6, 2])) == 3
    assert roll_die(8, Bits([7])) == 8
    assert roll_die(4, Bits([0])) == 1


def test_controls_choose_die_and_count_and_roll():
    r = DiceRoller(Bits([0, 5, 3]))
    assert (KINDS[r.k], r.count) == (6, 2)
    assert r.press(BACK) == sound.CLICK
    assert KINDS[r.k] == 8
    r.press(MENU)
    r.press(MENU)
    assert r.count == 4
    r.press(MENU)
    assert r.count == 1
    r.press(MENU)
    r.press(MENU)
    assert r.count == 3
    assert r.press(OK) == sound.ROLL
    assert bytes(r.values) == bytes([1, 6, 4])
