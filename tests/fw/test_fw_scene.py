# LED rendering, effects and the power limiter.
import fwpaths  # noqa: F401

from scene import Scene, SOLID, BLINK, PULSE, CHASE
from power import PowerLimiter


def payload(cells, brightness=255):
    p = bytearray([brightness, len(cells) >> 8, len(cells) & 0xFF])
    for r, g, b, fx in cells:
        p += bytes([r, g, b, fx])
    return p


def big_budget(n):
    return PowerLimiter(n, budget_ma=100000)


def test_solid_colours_are_grb_and_scaled_by_brightness():
    s = Scene(2, big_budget(2))
    s.set(payload([(255, 0, 0, SOLID), (10, 20, 30, SOLID)], brightness=255))
    out = bytearray(6)
    assert s.render(0, out)
    assert out == bytearray([0, 255, 0, 20, 10, 30])
    assert not s.render(20, out)  # nothing animated: no rewrite
    s.set(payload([(255, 0, 0, SOLID), (10, 20, 30, SOLID)], brightness=51))
    s.render(40, out)
    assert out == bytearray([0, 51, 0, 4, 2, 6])


def test_blink_and_its_opposite_phase():
    s = Scene(2, big_budget(2))
    s.set(payload([(0, 0, 200, BLINK), (0, 0, 200, BLINK | 1 << 4)]))
    out = bytearray(6)
    s.render(0, out)
    assert out[2] == 200 and out[5] == 0
    s.render(500, out)
    assert out[2] == 0 and out[5] == 200


def test_pulse_goes_from_dim_to_full():
    s = Scene(1, big_budget(1))
    s.set(payload([(0, 255, 0, PULSE)]))
    out = bytearray(3)
    s.render(0, out)
    low = out[0]
    s.render(800, out)
    assert low == 26 and out[0] == 255


def test_chase_moves_along_the_phases():
    s = Scene(3, big_budget(3))
    s.set(payload([(255, 255, 255, CHASE | p << 4) for p in range(3)]))
    assert s.chase_len == 3
    out = bytearray(9)
    lit = []
    for step in range(3):
        s.render(step * 120, out)
        lit.append([out[3 * i] for i in range(3)].index(255))
    assert lit == [0, 1, 2]


def test_check_rejects_bad_scenes():
    ok = payload([(1, 2, 3, SOLID)] * 3)
    assert Scene.check(ok, 3) == 0
    assert Scene.check(ok, 4) == 2
    assert Scene.check(ok[:-1], 3) == 2
    bad = bytearray(ok)
    bad[3 + 4 * 2 + 3] = 0x07
    assert Scene.check(bad, 3) == 3
    assert Scene.check(b"", 3) == 2


def test_power_limiter_hand_computed():
    lim = PowerLimiter(127, budget_ma=400, ma_per_channel=20, ma_idle=1)
    # all white at full: 127 idle + 127*3*20 mA = 7747 mA
    assert lim.estimate_ma(127 * 3 * 255, 255) == 127 + 7620
    b = lim.limit(127 * 3 * 255, 255)
    # (400-127) * 255*255 // (97155 * 20) = 9
    assert b == 9
    assert lim.estimate_ma(127 * 3 * 255, b) <= 400
    assert lim.estimate_ma(127 * 3 * 255, b + 1) > 400
    # a few lit cells stay untouched
    assert lim.limit(3 * 255, 200) == 200


def test_scene_level_respects_budget():
    s = Scene(64, PowerLimiter(64, budget_ma=400))
    s.set(payload([(255, 255, 255, SOLID)] * 64))
    assert s.level < 255
    assert s.limiter.estimate_ma(64 * 765, s.level) <= 400


def cells_update(brightness, changes):
    p = bytearray([brightness])
    for i, (r, g, b, fx) in changes:
        p += bytes([i, r, g, b, fx])
    return p


def test_a_cells_update_renders_only_the_cells_it_changes():
    n = 127
    s = Scene(n, PowerLimiter(n, budget_ma=400))
    s.set(payload([(0, 0, 0, SOLID)] * 40 + [(0, 0, 200, SOLID)] + [(0, 0, 0, SOLID)] * 86))
    out = bytearray(3 * n)
    assert s.start(0) and s.todo == n  # a new scene: every cell
    s.render_some(out, n)
    changes = [(40, (0, 0, 0, SOLID)), (99, (200, 0, 0, SOLID))]
    assert Scene.check_cells(cells_update(255, changes), n) == 0
    s.update(cells_update(255, changes))
    assert s.start(20) and s.todo == 2 and sorted(s.order[:2]) == [40, 99]
    assert s.render_some(out, 20)
    assert out[3 * 40:3 * 41] == bytearray(3) and out[3 * 99:3 * 100] == bytearray([0, 200, 0])
    # the same as the whole scene, rendered whole
    whole = Scene(n, PowerLimiter(n, budget_ma=400))
    whole.set(payload([(0, 0, 0, SOLID)] * 99 + [(200, 0, 0, SOLID)] + [(0, 0, 0, SOLID)] * 27))
    ref = bytearray(3 * n)
    whole.render(0, ref)
    assert out == ref
    assert not s.start(40)  # nothing changed since


def test_a_cells_update_that_moves_the_power_limit_or_an_effect_renders_the_board():
    n = 10
    s = Scene(n, PowerLimiter(n, budget_ma=100))
    s.set(payload([(0, 0, 0, SOLID)] * n))
    out = bytearray(3 * n)
    s.render(0, out)
    s.update(cells_update(255, [(i, (255, 255, 255, SOLID)) for i in range(5)]))
    assert s.level < 255  # 5 white cells are over 100 mA: every cell dims
    assert s.start(20) and s.todo == n
    s.render_some(out, n)
    s.update(cells_update(255, [(7, (0, 0, 0, PULSE))]))
    assert s.start(40) and s.todo == n and s.n_anim == 1
    s.render_some(out, n)
    # a white cell moves (the same power): the changed cells, then the pulsing one
    s.update(cells_update(255, [(0, (0, 0, 0, SOLID)), (8, (255, 255, 255, SOLID))]))
    assert s.start(60) and s.todo == 3
    assert list(s.order[:3]) == [0, 8, 7]


def test_bad_cells_updates_are_refused():
    assert Scene.check_cells(b"", 10) == 2
    assert Scene.check_cells(bytes([255, 1, 0, 0]), 10) == 2  # not whole entries
    assert Scene.check_cells(bytes([255, 10, 0, 0, 0, 0]), 10) == 3  # no cell 10
    assert Scene.check_cells(bytes([255, 3, 0, 0, 0, 4]), 10) == 3  # no effect 4
    assert Scene.check_cells(bytes([255]), 10) == 0  # the brightness alone


def test_a_press_answer_on_the_quick_path_lights_what_the_general_path_does():
    # CELLS frames that recolour a few cells take Scene.quick (hal_rp2's machine code on
    # the Pico; here the Python it follows, fastpaths.quick_cells); the rest, and anything
    # it must not take (a changed effect or brightness, a cell twice, the power limit
    # acting, bad cells), the general path: the same cells, totals, limits, LED frames and
    # answers as a scene that takes every CELLS the general way
    import fastpaths
    assert fastpaths.check_quick(fastpaths.quick_cells) > 50
