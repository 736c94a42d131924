"""How the simulator window shows a board, as plain data (no Tk here, so tests can check
it without a display): millimetres to pixels, each cell's outline, the printed overlay's
colours, and the colour an LED appears as on screen."""

from __future__ import annotations

import math

BACKGROUND = "#15171c"          # around the overlay
OVERLAY = "#23262e"             # the printed overlay between the cells
CELL_EDGE = "#0c0d10"
LINE = "#5c6474"                # K.O. lattice lines, Knock-Off arrows, Dodgeball marks
TEXT = "#9aa3b5"
HELD = "#ffffff"                # outline of a cell whose button is down

# unlit cells show the overlay's print; K.O. start corners keep their colour as an outline
KIND_FILL = {"main": "#3b4352", "gutter": "#272d38", "dark": "#343843", "light": "#525866",
             "space": "#3b4352", "home": "#3d3a2c"}
START_COLOURS = {"red": "#d04848", "green": "#3fae5a", "blue": "#4a78d8", "yellow": "#d8c040"}
LEVEL_FILLS = ("#2c323d", "#343b47", "#3d4552", "#47505e", "#525c6b", "#5e6979")

GAMMA = 1 / 2.2  # an LED at 10 % looks far brighter than 10 % grey on a monitor


def led_on_screen(rgb) -> tuple:
    """The screen colour of an LED emitting `rgb` (0..255 drive levels)."""
    return tuple(0 if v <= 0 else round(255 * (v / 255) ** GAMMA) for v in rgb)


def hex_colour(rgb) -> str:
    return "#%02x%02x%02x" % tuple(rgb)


def unlit_fill(cell) -> str:
    if cell.kind.startswith("level-"):
        level = int(cell.kind[6:])
        return LEVEL_FILLS[min(level, len(LEVEL_FILLS)) - 1]
    if cell.kind.startswith("start-"):
        return KIND_FILL["space"]
    return KIND_FILL.get(cell.kind, KIND_FILL["main"])


def outline_colour(cell) -> str:
    if cell.kind.startswith("start-"):
        return START_COLOURS.get(cell.kind[6:], CELL_EDGE)
    return CELL_EDGE


class Viewport:
    """Millimetres on the overlay to canvas pixels: the board fitted into `fit_px` pixels
    with `margin_px` around it."""

    def __init__(self, layout, fit_px: float, margin_px: float = 12):
        self.layout = layout
        self.scale = fit_px / max(layout.width_mm, layout.height_mm)
        self.margin = margin_px
        self.width = round(layout.width_mm * self.scale + 2 * margin_px)
        self.height = round(layout.height_mm * self.scale + 2 * margin_px)

    def px(self, x_mm: float, y_mm: float) -> tuple:
        return self.margin + x_mm * self.scale, self.margin + y_mm * self.scale

    def centre(self, cell) -> tuple:
        return self.px(cell.x, cell.y)

    def radius(self, cell) -> float:
        """Half the cell's width in pixels (the inscribed circle for a hex)."""
        if cell.shape == "hex":
            return cell.size * math.sqrt(3) / 2 * self.scale
        return cell.size / 2 * self.scale

    def outline(self, cell) -> list:
        """Polygon points (x0, y0, x1, y1, ...) of a hex or square; for a circle its
        bounding box (x0, y0, x1, y1)."""
        cx, cy = self.centre(cell)
        if cell.shape == "hex":  # flat-topped, size = circumradius
            r = cell.size * self.scale
            pts = []
            for k in range(6):
                a = math.pi / 3 * k
                pts += [cx + r * math.cos(a), cy + r * math.sin(a)]
            return pts
        h = cell.size / 2 * self.scale
        if cell.shape == "square":
            return [cx - h, cy - h, cx + h, cy - h, cx + h, cy + h, cx - h, cy + h]
        return [cx - h, cy - h, cx + h, cy + h]

    def sample_point(self, cell) -> tuple:
        """A point inside the cell that no text covers (labels sit in the lower half)."""
        cx, cy = self.centre(cell)
        return cx, cy - 0.3 * self.radius(cell)

    def label_point(self, cell) -> tuple:
        cx, cy = self.centre(cell)
        return cx, cy + 0.5 * self.radius(cell)

    def edge_segment(self, a, b) -> tuple:
        """The segment between two cells' centres, trimmed to their edges (arrows)."""
        (ax, ay), (bx, by) = self.centre(a), self.centre(b)
        d = math.hypot(bx - ax, by - ay) or 1.0
        ux, uy = (bx - ax) / d, (by - ay) / d
        ra, rb = self.radius(a), self.radius(b)
        return ax + ux * ra, ay + uy * ra, bx - ux * rb, by - uy * rb
