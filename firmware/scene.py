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


class Scene:
    """A frame is rendered in slices (start, then render_some until it returns True) so the
    main loop can scan keys between them: a whole 127-cell frame is ~6 ms of MicroPython on
    the RP2040, three times the key scan's 2 ms period."""

    def __init__(self, cells, limiter):
        self.n = cells
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
        self.order = self.anim  # the cells of the frame being rendered
        self.pos = 0  # next cell (or animated cell) of the frame to render
        self.todo = 0

    @staticmethod
    def check(payload, cells):
        """Validates a SCENE payload: returns 0 or a protocol error code (2 length, 3 value).
        Nothing is changed by a rejected scene."""
        if len(payload) < 3:
            return 2
        count = payload[1] << 8 | payload[2]
        if count != cells or len(payload) != 3 + 4 * cells:
            return 2
        for i in range(6, len(payload), 4):
            if payload[i] & 0x0F >= N_EFFECTS:
                return 3
        return 0

    def set(self, payload):
        """Apply a checked SCENE payload (brightness, count, cells)."""
        self.brightness = payload[0]
        self.cells[:] = payload[3:]
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
        self.dirty = True

    def relimit(self):
        """The limiter's budget changed (another supply): limit the scene again."""
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

    def start(self, now):
        """Begins the frame for time `now` (ms). False if it has nothing to render (no new
        scene, nothing animated)."""
        every = self.dirty
        self.dirty = False
        self.pos = 0
        if not every and not self.n_anim:
            self.todo = 0
            return False
        lvl = self.level
        fac = self.fac
        blink_on = (now // BLINK_MS) & 1
        t = now % PULSE_MS
        half = PULSE_MS // 2
        tri = t if t < half else PULSE_MS - t  # 0..half..0
        step = (now // CHASE_MS) % self.chase_len
        fac[0] = lvl
        used = self.fx_used
        changed = every
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
        # A blink changes twice a second and a chase step every 120 ms: most frames of
        # such scenes have nothing to redraw.
        if not changed:
            self.todo = 0
            return False
        self.order = self.everyone if every else self.anim
        self.todo = self.n if every else self.n_anim
        return True

    def render_some(self, out, count):
        """Writes the GRB bytes of up to `count` more cells of the frame begun by start()
        into out (3 * cells). True when the frame is complete."""
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

    def render(self, now, out):
        """The whole frame for time `now` (ms) in one go (tests, benchmarks). True if out
        changed and must be shown."""
        if not self.start(now):
            return False
        before = bytes(out)
        self.render_some(out, self.todo)
        return out != before
