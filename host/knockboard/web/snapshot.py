"""A position as the page shows it, as JSON-able data: the board drawn by the game view
(`gameview.picture`, as SVG, without its text column: the page sets the text itself, large
enough to read on a phone or across a room), whose turn it is, the dice, the last move, the
seats with their scores, the score sheet and the result."""

from __future__ import annotations

from ..gameview.picture import Picture
from ..gameview.sheet import last_move
from ..gameview.summary import summary_lines, who_line
from ..gameview.svg import to_svg
from ..gameview.table import table_view
from ..session.adapters import get_ui
from .seats import LetteredLook, seat_letters, seat_rows


class SnapshotMaker:
    """Makes snapshots, keeping the board's picture of the game last shown."""

    def __init__(self, fit_px: float = 560):
        self.fit_px = fit_px
        self._key = None
        self.picture = None
        self.letters: list = []

    def _picture_for(self, record, state):
        key = (record.game, tuple(sorted(record.options.items())))
        if key != self._key:
            ui = get_ui(state.game)
            self.picture = Picture(ui, self.fit_px)
            self.letters = seat_letters(ui, state.game.num_players)
            self.picture.look = LetteredLook(self.picture.look, self.letters)
            self._key = key
        return self.picture

    def make(self, record, state, sheet, step=None, match=None, latest=True) -> dict:
        """`state` reached by the entries `sheet` (`gameview.sheet.score_sheet`, as far as
        `state`); `step`: (k, n) when a replay shows step k of n; `match`: a K.O. match as
        it stands (`GameRecord.replay_match`); `latest`: `state` is the record's last (a
        game stopped before its end shows why only there)."""
        picture = self._picture_for(record, state)
        ui = picture.ui
        view, sheet = table_view(ui, state, sheet)
        last = last_move(sheet)
        shapes = picture.board() + picture.last_move(last) + picture.pieces(view)
        moves = [k for k, e in enumerate(sheet) if e.is_move]
        over = state.is_terminal() or (latest and step is None and record.status != "playing")
        lines = summary_lines(state, sheet, step, record.id, match, record.names)
        return {
            "title": state.game.title or state.game.name,
            "id": record.id,
            "svg": to_svg(shapes, picture.view_px.width, picture.height),
            "phase": view.phase,
            "turn": who_line(ui, state, view),
            "dice": [str(d) for d in view.dice],
            "seats": seat_rows(ui, view, self.letters),
            "plies": len(sheet),
            "last": None if not moves else {"ply": moves[-1] + 1, "who": sheet[moves[-1]].who,
                                            "text": sheet[moves[-1]].text,
                                            "spaces": list(last)},
            "sheet": [{"ply": k + 1, "who": e.who, "text": e.text} for k, e in enumerate(sheet)],
            "match": [line for line in lines if line.startswith("match")],
            "step": None if step is None else list(step),
            "result": _result(record, state, ui, step) if over else None,
        }


def _result(record, state, ui, step):
    if state.is_terminal():
        return ui.result(state) or record.result or "game over"
    return record.result or record.status        # stopped: abandoned, or won by forfeit
