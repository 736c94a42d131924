"""How each game's pieces look in the game view, named by the game's registration
(`registry.GameEntry.look`). A look turns a piece of the engine's view into a `Token` (fill,
label, edge) and adds what the game shows besides its pieces. The colours are the board's
own (the adapter's LED colours), so the screen and the lit board agree; KNOCKabout's dice
are shown as the real white and black dice."""

from __future__ import annotations

from ..sim import look as sim_look
from .picture import PIECE_SCALE, Shape, Token

TURN_COLOUR = "#ffd84a"         # the ring round the die a KNOCKabout re-roll is for
THROW_COLOUR = "#ff4a4a"

# (fill, pips) per seat: White's dice and Black's (the LEDs light Black's in blue)
KNOCKABOUT_DICE = (("#f4f4f0", "#101010"), ("#1a1a1a", "#f4f4f0"))


def rgb_hex(rgb) -> str:
    return sim_look.hex_colour(rgb)


def ink_on(rgb) -> str:
    """Black or white text, whichever reads on a fill of `rgb`."""
    r, g, b = rgb
    return "#101010" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#f4f4f0"


class Look:
    """Any game: a piece is a disc in its owner's colour; nothing else is drawn."""

    def token(self, ui, view, piece) -> Token:
        rgb = ui.color(piece.owner)
        return Token(rgb_hex(rgb), "", ink_on(rgb))

    def extras(self, picture, view) -> list:
        return []


class KnockaboutLook(Look):
    """White and black dice showing their faces and sides; a ring round the die that a
    re-roll is for."""

    def token(self, ui, view, piece) -> Token:
        fill, pips = KNOCKABOUT_DICE[piece.owner]
        return Token(fill, str(piece.face), pips, edge="#808080")

    def extras(self, picture, view) -> list:
        shapes = []
        for space, piece in view.pieces.items():
            cx, cy = picture.piece_centre(space)
            r = PIECE_SCALE * picture.view_px.radius(picture.layout.cell(space))
            shapes.append(Shape("text", (cx, cy + 0.62 * r), fill=KNOCKABOUT_DICE[piece.owner][1],
                                text=f"d{piece.sides}", size=max(7, round(r * 0.34))))
        if view.reroll:
            cell = picture.layout.cell(view.reroll)
            cx, cy = picture.view_px.centre(cell)
            r = picture.view_px.radius(cell)
            shapes.append(Shape("oval", (cx - r, cy - r, cx + r, cy + r), outline=TURN_COLOUR,
                                width=3))
        return shapes


class DodgeballLook(Look):
    """Pawns in their team's colour, a ball beside a pawn that carries one, loose balls on
    their squares, the starting balls on the centre line, the throw in the air."""

    def token(self, ui, view, piece) -> Token:
        rgb = ui.color(piece.owner)
        return Token(rgb_hex(rgb), "", ink_on(rgb), ball=piece.ball)

    def extras(self, picture, view) -> list:
        shapes = []
        v = picture.view_px
        for space, count in view.loose.items():
            cell = picture.layout.cell(space)
            cx, cy = v.centre(cell)
            half = v.radius(cell)
            r = 0.22 * half
            for k in range(count):
                shapes += picture.ball(cx - 0.55 * half + 2.2 * r * k, cy - 0.55 * half, r)
        for files in view.start_balls:           # "ab": between files a and b, ranks 4|5
            corners = [picture.layout.cell(f + rank) for f in files for rank in "45"]
            x = sum(v.centre(c)[0] for c in corners) / 4
            y = sum(v.centre(c)[1] for c in corners) / 4
            shapes += picture.ball(x, y, 0.25 * v.radius(corners[0]))
        if view.throw is not None:
            a, b = (picture.layout.cell(s) for s in (view.throw.thrower, view.throw.target))
            shapes.append(Shape("line", v.edge_segment(a, b), fill=THROW_COLOUR, width=4))
        return shapes


class KOLook(Look):
    """Pieces in their colour with their number."""

    def token(self, ui, view, piece) -> Token:
        rgb = ui.color(piece.color)
        # number 0: a piece of the secret set-up, its number not shown (adapters/ko.py)
        return Token(rgb_hex(rgb), str(piece.number) if piece.number else "", ink_on(rgb))


class KnockoffLook(Look):
    """Pawns in their seat's colour; a home base shows how many pawns still wait in it."""

    def extras(self, picture, view) -> list:
        shapes = []
        for seat, (base, count) in enumerate(zip(view.home_bases, view.home)):
            if count:
                rgb = picture.ui.color(seat)
                shapes += picture.token(base, Token(rgb_hex(rgb), str(count), ink_on(rgb)),
                                        scale=0.6)
        return shapes
