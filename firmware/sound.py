# Buzzer patterns: (frequency Hz, duration ms) steps, 0 Hz = silence. The player is ticked
# from the main loop and tells the HAL only when the tone changes.
from micropython import const
from kbtime import ticks_add, ticks_diff

STOP = const(0)
CLICK = const(1)
OK = const(2)
ERROR = const(3)
ROLL = const(4)
WIN = const(5)
ALERT = const(6)
HELLO = const(7)

PATTERNS = (
    (),
    ((2400, 12),),
    ((1568, 60), (0, 20), (2093, 90)),
    ((196, 140), (0, 40), (147, 240)),
    ((1800, 8), (0, 52), (1800, 8), (0, 62), (1800, 8), (0, 82), (1800, 8), (0, 112),
     (1800, 8), (0, 152), (2400, 30)),
    ((1047, 100), (1319, 100), (1568, 100), (2093, 300)),
    ((2637, 80), (0, 60), (2637, 80), (0, 60), (2637, 80)),
    ((1319, 60), (1760, 80)),
)
N_PATTERNS = const(8)


class Player:
    def __init__(self):
        self.steps = PATTERNS[STOP]
        self.i = 0
        self.t = 0
        self.freq = 0
        self.changed = False

    def start(self, pattern, now):
        self.steps = PATTERNS[pattern]
        self.i = -1
        self.t = now
        self._next(now)

    def _next(self, now):
        self.i += 1
        if self.i < len(self.steps):
            f, ms = self.steps[self.i]
            self.t = ticks_add(now, ms)
        else:
            f = 0
            self.steps = PATTERNS[STOP]
            self.i = 0
        if f != self.freq:
            self.freq = f
            self.changed = True

    def tick(self, now):
        """Returns the frequency to play if it changed since the last call, else -1."""
        while self.steps and ticks_diff(now, self.t) >= 0:
            self._next(self.t)
        if self.changed:
            self.changed = False
            return self.freq
        return -1

    @property
    def busy(self):
        return bool(self.steps)
