"""Where the parts of one cell sit on a cell board, relative to the cell's centre (the overlay's
cell centre, hardware/out/cells-GAME.csv), in millimetres, KiCad's axes (x right, y down, viewed
from the top). Every cell of every game is placed the same way, so the printed parts (caps, frame)
and the PCB generator (hardware/placement/cell_board_layout.py) read the same numbers from here.

The key (a 6x6 mm SMD tactile switch, C&K PTS645) sits at the cell centre; the LED
(SK6812MINI, 3.5x3.5 mm, top-mounted, lens up) beside it in +x; its 100 nF capacitor below
the LED and the key's diode on the other side of the key. A translucent printed cap covers
all of them: it presses the key and lets the LED's light through. Everything lies within
CAP_KEEPOUT_R of the centre, so the smallest cell (22 mm, Knock-Off) holds it."""

# (dx, dy) of each part's centre from the cell centre, its rotation in degrees (KiCad's,
# counter-clockwise seen from the top), its body size (w, h) in mm before rotation and its
# height above the board.
KEY_OFFSET = (0.0, 0.0)
KEY_ROTATION = 90.0
KEY_BODY = (6.2, 6.2)          # PTS645 body, 6x6 mm nominal plus tolerance
KEY_HEIGHT = 4.3               # PTS645SM43SMTR92: 4.3 mm to the top of the actuator

LED_OFFSET = (6.0, 0.0)
LED_ROTATION = 270.0
LED_BODY = (3.5, 3.5)
LED_HEIGHT = 0.9

CAP_OFFSET = (6.0, 4.1)        # the LED's 100 nF, 0805
CAP_ROTATION = 0.0
CAP_BODY = (2.0, 1.25)
CAP_HEIGHT = 1.25

DIODE_OFFSET = (-6.0, 0.0)     # 1N4148W, SOD-123
DIODE_ROTATION = 90.0
DIODE_BODY = (2.7, 1.6)
DIODE_HEIGHT = 1.35

# The printed cap covers a circle of this radius about the cell centre: no part of the
# cell reaches beyond it, and nothing else on the board (tracks aside) may lie inside it.
CAP_KEEPOUT_R = 9.0

PARTS = {
    "key": (KEY_OFFSET, KEY_ROTATION, KEY_BODY, KEY_HEIGHT),
    "led": (LED_OFFSET, LED_ROTATION, LED_BODY, LED_HEIGHT),
    "cap": (CAP_OFFSET, CAP_ROTATION, CAP_BODY, CAP_HEIGHT),
    "diode": (DIODE_OFFSET, DIODE_ROTATION, DIODE_BODY, DIODE_HEIGHT),
}


def corners(part):
    """The four corners (dx, dy) of a part's body about the cell centre."""
    (ox, oy), rot, (w, h), _ = PARTS[part]
    if rot % 180:
        w, h = h, w
    return [(ox + sx * w / 2, oy + sy * h / 2) for sx in (-1, 1) for sy in (-1, 1)]


def reach():
    """The farthest body corner of any part from the cell centre (mm)."""
    return max((x * x + y * y) ** 0.5 for p in PARTS for x, y in corners(p))
