"""A board plan: footprints placed, holes, marks and the routing, as plain data (JSON) that
hardware/kicad/board_file.py turns into a KiCad 6 board with pcbnew. The placement comes from
hardware/placement/cell_board_layout.py (cell boards) and hardware/placement/controller_layout.py;
the routing from hardware/routing/router.py. Plans are made in the project's Python; only the KiCad
step needs pcbnew."""

from dataclasses import asdict, dataclass, field

from ..inputs import fab_rules as fab  # its upper-case names go into the plan, for KiCad
from ..inputs import mechanics
from ..parts import footprint_geometry

GROUND = "GND"


@dataclass
class Placed:
    ref: str
    footprint: str
    x: float
    y: float
    rot: float = 0.0
    flip: bool = False                  # on the bottom side
    value: str = ""
    nets: dict = field(default_factory=dict)    # pad number -> net

    def pads(self):
        return footprint_geometry.pads(self.footprint, self.x, self.y, self.rot, self.flip)

    def courtyard(self):
        return footprint_geometry.courtyard(self.footprint, self.x, self.y, self.rot, self.flip)

    def outline(self):
        """The box of its courtyard and silkscreen: what the placer keeps apart."""
        return footprint_geometry.courtyard(self.footprint, self.x, self.y, self.rot, self.flip,
                                            silk=True)


@dataclass
class Plan:
    name: str
    width: float
    height: float
    footprints: list                    # [Placed]
    holes: list = field(default_factory=list)      # (x, y, diameter): mounting holes
    marks: list = field(default_factory=list)      # (x, y): overlay registration marks
    texts: list = field(default_factory=list)      # (x, y, text, layer)
    tracks: list = field(default_factory=list)
    vias: list = field(default_factory=list)
    zones: list = field(default_factory=lambda: [(GROUND, "B.Cu")])   # the ground pour
    failed: list = field(default_factory=list)
    # ground pads on a piece of pour not joined (_join_islands)
    islands: list = field(default_factory=list)
    step_cost: tuple = fab.STEP_COST     # per grid step on F.Cu, B.Cu
    attempts: int = 6                   # routing passes at most (route())
    origin: tuple = (0.0, 0.0)          # where the plan's (0, 0) is on the layout (a tile's corner)
    # the nets drawn led_current.TRACK_MM wide, the LEDs' current (pcb.make: from the netlist,
    # led_current.nets; the ground is the pour): each connection that width or none
    wide_nets: list = field(default_factory=list)
    # pads of those nets the LEDs' current does not pass ("ref.pin", led_current.path_pins): a
    # branch that finds no way that wide joins the wide copper by a normal track
    branch_pads: list = field(default_factory=list)
    wide_last: bool = False             # route wide_nets after the others (_order)
    # the through-hole ground pads' links to the pour after every net (route._ground_links)
    ground_links_last: bool = False
    # the order the last build's routing ended with (routing/net_order.py: pcbs.make sets
    # it), and this build's: what route() started from, ended with, and its passes
    route_first: list = field(default_factory=list)
    route_last: list = field(default_factory=list)
    route_order: dict = field(default_factory=dict)
    passes: int = 0

    def shifted(self, dx):
        """The same plan in coordinates moved by dx (a tile drawn from its own left edge)."""
        for f in self.footprints:
            f.x = round(f.x + dx, 4)
        self.holes = [(x + dx, y, d) for x, y, d in self.holes]
        self.marks = [(x + dx, y) for x, y in self.marks]
        self.texts = [(x + dx, y, t, ly) for x, y, t, ly in self.texts]
        self.origin = (self.origin[0] - dx, self.origin[1])
        return self

    def to_json(self):
        d = asdict(self)
        d["fab"] = {k: getattr(fab, k) for k in dir(fab) if k.isupper()}
        # around each hole (hardware/kicad/board_file.py's rule areas)
        d["keepout_r"] = mechanics.KEEPOUT_R
        return d


