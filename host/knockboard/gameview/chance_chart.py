"""A review's chance to win across the game as a picture (`knockboard review ID --svg
FILE`): a line per player, in the seat's colour, with the blunders and the luckiest rolls
marked on the line of the player they cost or favoured."""

from __future__ import annotations

from ..review.analysis import Decision, Review, Roll
from ..review.marks import BLUNDER, LUCKY
from .looks import rgb_hex
from .picture import Shape

WIDTH, HEIGHT = 720, 320
LEFT, RIGHT, TOP, BOTTOM = 44, 16, 36, 28
LUCKIEST = 3            # the rolls marked: this many with the largest luck, from LUCKY on
BLUNDER_INK = "#d02020"
LUCK_INK = "#208020"
AXIS_INK = "#606060"


def _line_ink(rgb) -> str:
    # a white seat (KNOCKabout's White) would vanish on the white page
    return "#a0a0a0" if sum(rgb) > 660 else rgb_hex(rgb)


def chart_shapes(review: Review, names, colors) -> list:
    """The picture's shapes; `colors`: an (r, g, b) per seat."""
    steps = review.steps
    n = max(len(steps), 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def xy(k: int, chance: float) -> tuple:
        return LEFT + plot_w * k / n, TOP + plot_h * (1.0 - min(max(chance, 0.0), 1.0))

    shapes = [Shape("polygon", (0, 0, WIDTH, 0, WIDTH, HEIGHT, 0, HEIGHT), fill="#ffffff")]
    for level in (0.0, 0.5, 1.0):
        x0, y = xy(0, level)
        x1, _ = xy(n, level)
        shapes.append(Shape("line", (x0, y, x1, y), fill=AXIS_INK, width=0.5))
        shapes.append(Shape("text", (LEFT - 6, y), fill=AXIS_INK, text=f"{level:g}", size=10,
                            anchor="center"))
    shapes.append(Shape("text", (LEFT, HEIGHT - 10), fill=AXIS_INK, size=10, anchor="w",
                        text=f"chance to win after each of {len(steps)} steps"))
    for p in range(review.players):
        ink = _line_ink(colors[p])
        points = [xy(0, review.start[p])] + [xy(k + 1, s.after[p]) for k, s in enumerate(steps)]
        for a, b in zip(points, points[1:]):
            shapes.append(Shape("line", (*a, *b), fill=ink, width=1.5))
        shapes.append(Shape("text", (LEFT + 4 + 120 * p, 14), fill=ink, size=12, bold=True,
                            anchor="w", text=names[p]))
    for k, step in enumerate(steps):
        if isinstance(step, Decision) and step.error >= BLUNDER:
            x, y = xy(k + 1, step.after[step.player])
            shapes.append(Shape("oval", (x - 4, y - 4, x + 4, y + 4), outline=BLUNDER_INK,
                                width=2))
    rolls = [(k, s) for k, s in enumerate(steps) if isinstance(s, Roll)]
    rolls = [(k, s) for k, s in rolls if s.luck[s.favoured] >= LUCKY]
    for k, step in sorted(rolls, key=lambda ks: -ks[1].luck[ks[1].favoured])[:LUCKIEST]:
        x, y = xy(k + 1, step.after[step.favoured])
        shapes.append(Shape("polygon", (x, y - 6, x + 6, y, x, y + 6, x - 6, y),
                            outline=LUCK_INK, width=2))
    shapes.append(Shape("text", (WIDTH - RIGHT - 250, HEIGHT - 10), fill=AXIS_INK, size=10,
                        anchor="w", text="circle: a blunder; diamond: a luckiest roll"))
    return shapes


def chart_svg(review: Review, names, colors) -> str:
    from .svg import to_svg
    return to_svg(chart_shapes(review, names, colors), WIDTH, HEIGHT)
