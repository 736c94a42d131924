# Debounce and the event queue.
import fwpaths  # noqa: F401
from array import array

from keys import Keys, EventQueue, PRESSED, CONTROL, OK, MENU


def drain(k):
    out = []
    q = k.queue
    while q.count:
        out.append(q.peek())
        q.pop()
    return out


def run(k, raw, t0, t1):
    for t in range(t0, t1):
        k.scan(t, raw)


def test_press_reported_on_the_second_closed_scan_release_after_debounce():
    k = Keys(3, 4, 12, debounce_ms=8)
    raw = array("H", [0, 0, 0, 0])
    raw[1] = 1 << 2  # row 1, col 2 = cell 6
    k.scan(0, raw)
    assert drain(k) == [] and k.confirm  # one reading is not a press: scan again
    k.scan(0, raw)
    assert drain(k) == [PRESSED | 6] and not k.confirm
    assert k.is_down(6)
    run(k, raw, 1, 30)
    assert drain(k) == []
    raw[1] = 0
    run(k, raw, 30, 38)
    assert drain(k) == []  # 30..37 ms: open, but not yet for 8 ms
    k.scan(38, raw)
    assert drain(k) == [6]
    assert not k.is_down(6)


def lcg(seed):
    """A small deterministic generator (the MicroPython VM has no `random` to rely on)."""
    state = [seed]

    def bit():
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return state[0] >> 16 & 1
    return bit


def bounce_train(length, bit, first):
    """Contact readings, one per scan (1 ms apart), for a bounce of `length` ms: the first reading
    is `first` (the contact has just moved), the rest random until the train ends."""
    return [first] + [bit() for _ in range(length - 1)] if length else []


def test_bounce_trains_up_to_the_debounce_time_give_one_press_and_one_release():
    deb = 8
    for length in range(deb + 1):
        for seed in range(12):
            bit = lcg(seed * 31 + length)
            k = Keys(2, 4, 8, debounce_ms=deb)
            raw = array("H", [0, 0, 0])
            readings = ([0] * 3 + bounce_train(length, bit, 1) + [1] * 30
                        + bounce_train(length, bit, 0) + [0] * 30)
            for t, v in enumerate(readings):
                raw[1] = v << 3  # cell 7
                k.scan(t, raw)
            assert drain(k) == [PRESSED | 7, 7], (length, seed, readings)


def test_single_scan_glitches_give_no_press_and_no_release():
    k = Keys(2, 4, 8, debounce_ms=5)
    raw = array("H", [0, 0, 0])
    bit = lcg(7)
    for t in range(400):
        # every key of the matrix and the control row: at most one closed reading in a row,
        # wherever the generator puts them
        for r in range(3):
            raw[r] = (0b1111 if bit() else 0) if t % 2 == 0 else 0
        k.scan(t, raw)
        assert not k.busy or k.confirm
    assert drain(k) == []
    # a key held down: a single open reading (or one in every other scan) is no release
    raw[0] = 1
    run(k, raw, 400, 420)
    assert drain(k) == [PRESSED | 0]
    for t in range(420, 500):
        raw[0] = 0 if t % 3 == 0 else 1
        k.scan(t, raw)
    assert drain(k) == []


def test_glitch_shorter_than_debounce_is_ignored():
    k = Keys(2, 2, 4, debounce_ms=5)
    raw = array("H", [0, 0, 0])
    for t in range(100):
        raw[0] = 1 if t % 4 == 0 else 0  # 1 ms spikes every 4 ms
        k.scan(t, raw)
    assert drain(k) == []


def test_bouncing_contact_settles_to_one_press():
    k = Keys(1, 8, 8, debounce_ms=5)
    raw = array("H", [0, 0])
    bounce = [1, 0, 1, 1, 0, 1, 0, 0, 1] + [1] * 20
    for t, v in enumerate(bounce):
        raw[0] = v << 3
        k.scan(t, raw)
    assert drain(k) == [PRESSED | 3]


def test_other_keys_in_a_row_are_not_held_up_by_a_bouncing_one():
    k = Keys(1, 8, 8, debounce_ms=5)
    raw = array("H", [0, 0])
    for t in range(40):
        raw[0] = (1 << 0) | ((t & 1) << 5)  # key 0 held, key 5 chatters forever
        k.scan(t, raw)
    assert drain(k) == [PRESSED | 0]


def test_controls_and_unused_matrix_positions():
    k = Keys(2, 3, 5, debounce_ms=5)  # 2x3 matrix, only 5 cells: row 1 col 2 is unused
    raw = array("H", [0, 1 << 2, 1 << MENU])
    run(k, raw, 0, 10)
    assert drain(k) == [PRESSED | CONTROL | MENU]
    assert k.control_bits() == 1 << MENU


def test_simultaneous_presses_in_order_of_rows_and_columns():
    k = Keys(2, 4, 8, debounce_ms=5)
    raw = array("H", [0b1001, 0b0010, 1 << OK])
    run(k, raw, 0, 10)
    assert drain(k) == [PRESSED | 0, PRESSED | 3, PRESSED | 5, PRESSED | CONTROL | OK]


def test_ticks_wraparound():
    k = Keys(1, 2, 2, debounce_ms=5)
    raw = array("H", [1, 0])
    top = (1 << 30) - 3
    for i in range(10):
        k.scan((top + i) & ((1 << 30) - 1), raw)
    assert drain(k) == [PRESSED | 0]


def test_queue_overflow_sets_flag_and_stops_queueing():
    q = EventQueue(3)
    assert q.put(1) and q.put(2) and q.put(3)
    assert not q.put(4)
    assert q.overflowed
    q.pop()
    assert not q.put(5)  # nothing more until the full STATE has been sent
    assert [q.peek(i) for i in range(q.count)] == [2, 3]
    q.clear()
    assert not q.overflowed and q.count == 0 and q.put(6)


def test_state_bitmap():
    k = Keys(3, 4, 10, debounce_ms=5)
    raw = array("H", [0b0001, 0b1000, 0b0010, 0])  # cells 0, 7, 9
    run(k, raw, 0, 10)
    out = bytearray(4)
    n = k.state_bitmap(out, 1)
    assert n == 2
    assert out == bytearray([0, 0b10000001, 0b00000010, 0])
