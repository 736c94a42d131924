"""The board house the PCBs are drawn for, and the rules they are drawn with.

JLCPCB, standard 2-layer FR-4, 1.6 mm, 1 oz copper, HASL (https://jlcpcb.com/capabilities):
largest board 400 x 500 mm; minimum track and space 0.127 mm (5 mil); minimum via drill
0.3 mm and via diameter 0.6 mm on 2-layer boards; PTH annular ring 0.15 mm or more; board
edge to copper 0.3 mm. The boards are drawn well inside those, with margin for the cheap
process: 0.25 mm tracks, 0.2 mm clearance, 0.6/0.3 mm vias, 0.5 mm from the edge (the LEDs'
current runs wider: hardware/schematic/led_current.py). The
minima go into each board's design settings (KiCad's DRC checks against them), the values
used into its default net class."""

NAME = "JLCPCB standard 2-layer FR-4 1.6 mm, 1 oz, HASL"
MAX_SIZE = (400.0, 500.0)      # mm, either orientation

# the fab's minima (board design settings)
MIN_TRACK = 0.127
MIN_CLEARANCE = 0.127
MIN_VIA_DRILL = 0.3
MIN_VIA_DIAMETER = 0.6
MIN_ANNULAR_RING = 0.13
MIN_THROUGH_HOLE = 0.3
MIN_HOLE_TO_HOLE = 0.5
MIN_COPPER_EDGE = 0.3

# what the boards use (default net class)
TRACK = 0.25
CLEARANCE = 0.2
VIA_DIAMETER = 0.6
VIA_DRILL = 0.3
EDGE_CLEARANCE = 0.5
HOLE_CLEARANCE = 0.2


def fits(width, height):
    """Whether a board of width x height mm is within the fab's largest panel."""
    a, b = sorted((width, height))
    return a <= min(MAX_SIZE) and b <= max(MAX_SIZE)






G = 0.5                       # grid pitch, mm


STEP_COST = (2, 6)            # per grid step on F.Cu, B.Cu: the bottom is the ground pour
