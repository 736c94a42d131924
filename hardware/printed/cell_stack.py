"""The stack-up of one cell, bottom to top, in millimetres above the cell board's top copper (z =
0): where the key, the printed cap, the printed frame and the overlay sit, and why. The parts'
places in the plane come from hardware/placement/cell_geometry.py (the PCB generator reads it too);
hardware/printed/solids.py makes the caps and the frame from these numbers,
hardware/printed/cell_drawing.py draws them.

    z 6.9   cap top (0.3 above the frame top, so the overlay rests on the cap and a press on
            a piece reaches it; the key's 0.25 mm travel never lets it sink to the frame)
    z 6.6   frame top: the overlay (a printed film or thin paper, one whole sheet) lies here
    z 5.3   underside of the cap's top plate (1.6 mm of translucent PETG: the light diffuser)
    z 4.3   key actuator top (C&K PTS645SM43, 4.3 mm): the cap's stem rests on it
    z 2.0   bottom of the cap's skirt (it guides the cap in the frame's opening)
    z 0.9   LED (SK6812MINI) top: 4.4 mm of air under the cap's top plate spreads its light
    z 0     cell board top; the frame stands on it between the cells

A piece standing on a cell stands on the overlay above the cap: pressing the piece (or the
cell) pushes the film, the cap and its stem onto the key.  The key needs 1.6 N (160 gf,
PTS645 standard force) while the heaviest piece (a stack of K.O. discs, a d8) weighs well
under 0.3 N, so pieces at rest never press their key."""

from ..placement import cell_geometry as G

KEY_TRAVEL = 0.25          # PTS645: 0.25 mm to the switch point
KEY_FORCE_N = 1.6          # 160 gf
ACTUATOR_D = 3.5           # PTS645 round actuator
KEY_BODY_HEIGHT = 3.5      # PTS645 housing, below the actuator

CLEARANCE = 0.3            # cap to frame opening, per side (PETG on a 0.4 mm nozzle)
WALL_MIN = 1.2             # the frame's thinnest wall (three 0.4 mm lines)

STEM_D = 3.0               # the cap's stem: on the actuator, inside its 3.5 mm
STEM_BOTTOM = G.KEY_HEIGHT
TOP_PLATE = 1.6            # the cap's top plate: the diffuser
PLATE_BOTTOM = STEM_BOTTOM + 1.0    # 1.0 mm stem
CAP_TOP = PLATE_BOTTOM + TOP_PLATE
SKIRT = 1.0                # the cap's side wall
SKIRT_BOTTOM = 2.0
PROUD = 0.3                # cap top above the frame top, more than KEY_TRAVEL
FRAME_TOP = CAP_TOP - PROUD
OVERLAY = 0.15             # a printed film (or 90 g/m2 tracing paper)

# What the tests check against (tests/test_printed.py).
LED_AIR_MIN = 2.0          # air between the LED's top and the cap's plate
PART_KEEPOUT_R = G.CAP_KEEPOUT_R   # every part of the cell within this radius

assert PROUD > KEY_TRAVEL, "a pressed cap must not sink to the frame before the key switches"
