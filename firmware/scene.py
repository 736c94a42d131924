# LED scene: per cell colour + effect, global brightness, rendered into the WS2812 GRB
# buffer. Solid cells are written once per scene; only animated cells are touched per frame.
from micropython import const
from array import array

SOLID = const(0)
BLINK = const(1)
PULSE = const(2)
CHASE = const(3)
N_EFFECTS = const(4)

BLINK_MS = const(500)
PULSE_MS = const(1600)
CHASE_MS = const(120)
DIM = const(26)  # ~10 %: unlit chase cells and the pulse floor stay visible
QUICK_MAX = const(8)  # cells a CELLS frame may change and still take the quick path


# (Comments, not docstrings, in the firmware's largest modules: a source install keeps every
# docstring in the heap, which tests/test_fw_micropython.py counts.)
# A frame is rendered in slices (start, then render_some until it returns True) so the main loop
# can scan keys between them: a whole 127-cell frame is ~6 ms of MicroPython on the RP2040,
# three times the key scan's 2 ms period.
class Scene:
    def __init__(self, cells, limiter, quick=None):
        self.n = cells
        # quick(): cells, the most colour the power limit passes, the total; the function
        # (hal_rp2.quick_cells, machine code; the Python it follows, tests/fw/fastpaths.py,
        # says what it does), None where the HAL has none
        self.qs = array("i", (cells, 0, 0))
        self.quick_fn = quick
        self.cells = bytearray(4 * cells)  # r, g, b, fx per cell (fx: effect | phase << 4)
        self.brightness = 0
        self.level = 0  # brightness after the power limiter
        self.total = 0  # the scene's colour channels' sum, for relimit()
        self.anim = array("H", bytes(2 * cells))
        self.n_anim = 0
        self.chase_len = 1
        self.limiter = limiter
        self.dirty = True
        # The fx bytes the animated cells use (at most N_EFFECTS * 16 distinct) and, for the
        # frame being rendered, each fx byte's factor (effect x limited brightness, 0..255):
        # per cell the frame then costs one table look-up instead of the effect's maths.
        self.fx_used = bytearray(N_EFFECTS * 16)
        self.n_fx = 0
        self.fac = bytearray(256)
        self.everyone = array("H", range(cells))
        # cells a CELLS update changed since the last frame, then (when the effects move
        # too) the animated cells: what the next frame renders instead of the board
        self.touched = array("H", bytes(4 * cells))
        self.n_touched = 0
        self.total = 0  # the colour channels' sum, for the power limiter
        self.order = self.anim  # the cells of the frame being rendered
        self.pos = 0  # next cell (or animated cell) of the frame to render
        self.todo = 0

    # Validates a SCENE payload: returns 0 or a protocol error code (2 length, 3 value). Nothing
    # is changed by a rejected scene.
    @staticmethod
    def check(payload, cells):
        if len(payload) < 3:
            return 2
        count = payload[1] << 8 | payload[2]
        if count != cells or len(payload) != 3 + 4 * cells:
            return 2
        for i in range(6, len(payload), 4):
            if payload[i] & 0x0F >= N_EFFECTS:
                return 3
        return 0

    # Apply a checked SCENE payload (brightness, count, cells).
    def set(self, payload):
        self.brightness = payload[0]
        self.cells[:] = payload[3:]
        self._index()

    # Validates a CELLS payload (brightness, then index, r, g, b, fx per changed cell): 0 or a
    # protocol error code, like check().
    @staticmethod
    def check_cells(payload, cells):
        if len(payload) < 1 or (len(payload) - 1) % 5:
            return 2
        for i in range(1, len(payload), 5):
            if payload[i] >= cells or payload[i + 4] & 0x0F >= N_EFFECTS:
                return 3
        return 0

    # Apply a checked CELLS payload: the listed cells change, the rest stay. Only they are
    # rendered in the next frame, unless an effect or the power limit changed (then the board is
    # re-indexed and rendered whole, as after set()).
    def update(self, payload):
        cells = self.cells
        touched = self.touched
        n = self.n_touched
        total = self.total
        relist = payload[0] != self.brightness
        self.brightness = payload[0]
        for j in range(1, len(payload), 5):
            i = payload[j]
            o = i << 2
            total += payload[j + 1] + payload[j + 2] + payload[j + 3] \
                - cells[o] - cells[o + 1] - cells[o + 2]
            cells[o] = payload[j + 1]
            cells[o + 1] = payload[j + 2]
            cells[o + 2] = payload[j + 3]
            if cells[o + 3] != payload[j + 4]:
                cells[o + 3] = payload[j + 4]
                relist = True
            if n < self.n:
                touched[n] = i
                n += 1
            else:
                relist = True  # more changes than cells: render them all
        self.n_touched = n
        self.total = total
        if relist or self.limiter.limit(total, self.brightness) != self.level:
            self._index()

    # The answer to a press, straight into the LED frame `out`: a CELLS payload that only
    # recolours a few cells, while the last frame is current (no whole frame, no changed
    # cells waiting) and the power limit does not dim the scene. 0: the cells are rendered
    # into out (to show now); 2 or 3: an error code (nothing changed); -1: not for this path
    # (nothing changed: check_cells, update and the next frame take it).
    def quick(self, payload, out):
        n = len(payload)
        if self.quick_fn is None or self.dirty or self.n_touched or n < 6 or n > 1 + 5 * QUICK_MAX or (n - 1) % 5 \
                or payload[0] != self.brightness or self.level != self.brightness:
            return -1
        s = self.qs
        s[2] = self.total
        r = self.quick_fn(payload, n, self.cells, out, self.fac, s)
        if not r:
            self.total = s[2]
        return r

    # The animated cells, the fx bytes in use and the power limit, from the cells; the next
    # frame renders every cell.
    def _index(self):
        cells = self.cells
        anim = self.anim
        fac = self.fac
        used = self.fx_used
        self._forget_fx()
        n_anim = 0
        n_fx = 0
        chase_len = 1
        fx_sum = 0
        for i in range(3, len(cells), 4):
            fx = cells[i]
            if fx:
                fx_sum += fx
                if fx & 0x0F:
                    anim[n_anim] = i >> 2
                    n_anim += 1
                    if fx & 0x0F == CHASE and (fx >> 4) + 1 > chase_len:
                        chase_len = (fx >> 4) + 1
                if not fac[fx]:
                    fac[fx] = 1  # seen
                    used[n_fx] = fx
                    n_fx += 1
        self.n_anim = n_anim
        self.n_fx = n_fx
        self.chase_len = chase_len
        # every byte minus the fx bytes: the colour channels' sum, summed in C
        self.total = sum(memoryview(cells)) - fx_sum
        self.level = self.limiter.limit(self.total, self.brightness)
        self.qs[1] = self.limiter.headroom(self.brightness)
        self.n_touched = 0
        self.dirty = True

    # The limiter's budget changed (another supply): limit the scene again.
    def relimit(self):
        self.qs[1] = self.limiter.headroom(self.brightness)
        if self.total:
            self.level = self.limiter.limit(self.total, self.brightness)
            self.dirty = True

    def clear(self):
        for i in range(len(self.cells)):
            self.cells[i] = 0
        self.brightness = 0
        self.level = 0
        self.total = 0
        self.n_anim = 0
        self.n_touched = 0
        self.qs[1] = self.limiter.headroom(0)
        self._forget_fx()
        self.dirty = True

    def _forget_fx(self):
        # fac doubles as set()'s "fx seen" mark: only the entries in use are non-zero
        fac = self.fac
        used = self.fx_used
        for k in range(self.n_fx):
            fac[used[k]] = 0
        fac[0] = 0
        self.n_fx = 0

    # Begins the frame for time `now` (ms). False if it has nothing to render (no new scene, no
    # changed cell, nothing animated).
    def start(self, now):
        every = self.dirty
        touched = self.n_touched
        self.dirty = False
        self.n_touched = 0
        self.pos = 0
        self.todo = 0
        if not every and not self.n_anim and not touched:
            return False
        changed = self._factors(now) or every
        if every:
            self.order = self.everyone
            self.todo = self.n
        elif changed and not touched:
            self.order = self.anim
            self.todo = self.n_anim
        elif changed:
            # the animation moves: the changed cells, then the animated ones
            order = self.touched
            anim = self.anim
            for k in range(self.n_anim):
                order[touched + k] = anim[k]
            self.order = order
            self.todo = touched + self.n_anim
        elif touched:
            self.order = self.touched
            self.todo = touched
        # A blink changes twice a second and a chase step every 120 ms: most frames of
        # such scenes have nothing to redraw.
        return self.todo > 0

    # Each fx byte's factor for the frame at `now`; True if one changed.
    def _factors(self, now):
        lvl = self.level
        fac = self.fac
        blink_on = (now // BLINK_MS) & 1
        t = now % PULSE_MS
        half = PULSE_MS // 2
        tri = t if t < half else PULSE_MS - t  # 0..half..0
        step = (now // CHASE_MS) % self.chase_len
        fac[0] = lvl
        used = self.fx_used
        changed = False
        for k in range(self.n_fx):
            fx = used[k]
            e = fx & 0x0F
            ph = fx >> 4
            if e == SOLID:
                f = 255  # a phase on a solid cell means nothing
            elif e == BLINK:
                f = 255 if (blink_on ^ (ph & 1)) == 0 else 0
            elif e == PULSE:
                f = DIM + (255 - DIM) * tri // half
            else:
                d = (step - ph) % self.chase_len
                f = 255 if d == 0 else (96 if d == 1 else DIM)
            f = f * lvl // 255
            if fac[fx] != f:
                fac[fx] = f
                changed = True
        return changed

    # Writes the GRB bytes of up to `count` more cells of the frame begun by start() into out (3
    # * cells). True when the frame is complete.
    def render_some(self, out, count):
        k = self.pos
        end = self.todo
        if end - k > count:
            end = k + count
        cells = self.cells
        fac = self.fac
        order = self.order
        while k < end:
            i = order[k]
            o = i << 2
            f = fac[cells[o + 3]]
            p = o - i
            out[p] = cells[o + 1] * f // 255
            out[p + 1] = cells[o] * f // 255
            out[p + 2] = cells[o + 2] * f // 255
            k += 1
        self.pos = k
        return k >= self.todo

    # The whole frame for time `now` (ms) in one go (tests, benchmarks). True if out changed and
    # must be shown.
    def render(self, now, out):
        if not self.start(now):
            return False
        before = bytes(out)
        self.render_some(out, self.todo)
        return out != before
