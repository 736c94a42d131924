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
    def __init__(self, cells, limiter):
        self.n = cells
        self.cells = bytearray(4 * cells)  # r, g, b, fx per cell (fx: effect | phase << 4)
        self.brightness = 0
        self.level = 0  # brightness after the power limiter
        self.anim = array("H", bytes(2 * cells))
        self.n_anim = 0
        self.chase_len = 1
        self.limiter = limiter
        self.dirty = True

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
        n_anim = 0
        chase_len = 1
        total = 0
        for i in range(self.n):
            o = i << 2
            total += cells[o] + cells[o + 1] + cells[o + 2]
            fx = cells[o + 3]
            if fx & 0x0F:
                self.anim[n_anim] = i
                n_anim += 1
                if fx & 0x0F == CHASE and (fx >> 4) + 1 > chase_len:
                    chase_len = (fx >> 4) + 1
        self.n_anim = n_anim
        self.chase_len = chase_len
        self.level = self.limiter.limit(total, self.brightness)
        self.dirty = True

    def clear(self):
        for i in range(len(self.cells)):
            self.cells[i] = 0
        self.brightness = 0
        self.level = 0
        self.n_anim = 0
        self.dirty = True

    def render(self, now, out):
        """Write GRB bytes for time `now` (ms) into out (3 * cells). Returns True if out
        changed and must be shown."""
        changed = False
        cells = self.cells
        lvl = self.level
        if self.dirty:
            self.dirty = False
            changed = True
            for i in range(self.n):
                o = i << 2
                p = i * 3
                out[p] = cells[o + 1] * lvl // 255
                out[p + 1] = cells[o] * lvl // 255
                out[p + 2] = cells[o + 2] * lvl // 255
        if not self.n_anim:
            return changed
        blink_on = (now // BLINK_MS) & 1
        t = now % PULSE_MS
        half = PULSE_MS // 2
        tri = t if t < half else PULSE_MS - t  # 0..half..0
        step = (now // CHASE_MS) % self.chase_len
        for k in range(self.n_anim):
            i = self.anim[k]
            o = i << 2
            fx = cells[o + 3]
            e = fx & 0x0F
            ph = fx >> 4
            if e == BLINK:
                f = 255 if (blink_on ^ (ph & 1)) == 0 else 0
            elif e == PULSE:
                f = DIM + (255 - DIM) * tri // half
            else:
                d = (step - ph) % self.chase_len
                f = 255 if d == 0 else (96 if d == 1 else DIM)
            f = f * lvl // 255
            p = i * 3
            g = cells[o + 1] * f // 255
            r = cells[o] * f // 255
            b = cells[o + 2] * f // 255
            if out[p] != g or out[p + 1] != r or out[p + 2] != b:
                changed = True
                out[p] = g
                out[p + 1] = r
                out[p + 2] = b
        return changed
