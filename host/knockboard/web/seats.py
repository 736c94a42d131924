"""Each seat as the page shows it: its name, the board's LED colour, and a letter, so that
a seat is told apart without telling colours apart (colour-blind players, a dim TV)."""

from __future__ import annotations

from dataclasses import replace

from ..gameview.looks import rgb_hex


def seat_letters(ui, players: int) -> list[str]:
    """The first letter of each seat's name ("R", "B"), or the seats' numbers where two
    names begin with the same letter."""
    letters = [ui.seat_name(seat)[:1].upper() or str(seat + 1) for seat in range(players)]
    if len(set(letters)) < players:
        return [str(seat + 1) for seat in range(players)]
    return letters


def seat_rows(ui, view, letters) -> list[dict]:
    """The seats in play order: name, letter, colour and score."""
    unit = ui.SCORE_UNIT
    rows = []
    for seat, letter in enumerate(letters):
        score = view.scores[seat] if seat < len(view.scores) else None
        if isinstance(score, float) and score.is_integer():
            score = int(score)
        rows.append({"seat": seat, "name": ui.seat_name(seat), "letter": letter,
                     "colour": rgb_hex(ui.color(seat)),
                     "score": None if score is None else f"{score} {unit}".rstrip()})
    return rows


class LetteredLook:
    """A game's look (`gameview.looks`) whose plain pieces carry their seat's letter; pieces
    that show something already (a die's face, a piece's number) keep it."""

    def __init__(self, look, letters):
        self.look = look
        self.letters = letters

    def token(self, ui, view, piece):
        token = self.look.token(ui, view, piece)
        owner = getattr(piece, "owner", None)
        if token.label or owner is None or not 0 <= owner < len(self.letters):
            return token
        return replace(token, label=self.letters[owner])

    def extras(self, picture, view):
        return self.look.extras(picture, view)
