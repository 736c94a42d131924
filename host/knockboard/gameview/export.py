"""A saved game as pictures a person can look at: the position before the first move and
after each entry of the record, one SVG file each (`knockboard export ID --svg DIR`)."""

from __future__ import annotations

from pathlib import Path

from ..session.adapters import get_ui
from ..store import apply_entry
from ..store.entries import round_number
from .picture import Picture
from .sheet import last_move, score_sheet
from .summary import summary_lines
from .svg import to_svg
from .table import table_view


def positions(record) -> list:
    """The state before the first entry and after each entry of a record (it must replay:
    callers check with `record.replay()` first)."""
    state = record.initial_state()
    states = [state.clone()]
    for entry in record.actions:
        state = apply_entry(state, entry)
        states.append(state.clone())
    return states


def matches(record, states) -> list:
    """A K.O. match as it stands at each of `states` (`positions`), None for a single game;
    replayed only where it changes, where a round ends."""
    if record.rounds is None:
        return [None] * len(states)
    out, match = [], None
    for step, state in enumerate(states):
        if step == 0 or state.is_terminal() or round_number(record.actions[step - 1]) is not None:
            match = record.replay_match(step)[1]
        out.append(match)
    return out


def frame_name(step: int, steps: int) -> str:
    """000.svg ... : numbered so that the files sort in the game's order."""
    return f"{step:0{max(3, len(str(steps)))}d}.svg"


def export_svg(record, folder) -> list:
    """Write one SVG a step into `folder` (made if missing, in a folder that exists);
    returns the paths written."""
    folder = Path(folder)
    folder.mkdir(exist_ok=True)
    states = positions(record)
    picture = Picture(get_ui(states[0].game))
    steps = len(record.actions)
    sheet = score_sheet(record)
    written = []
    for step, (state, match) in enumerate(zip(states, matches(record, states))):
        view, shown = table_view(picture.ui, state, sheet[:step])
        lines = summary_lines(state, shown, (step, steps), record.id, match, record.names)
        path = folder / frame_name(step, steps)
        shapes = picture.shapes(view, lines, last_move(shown))
        path.write_text(to_svg(shapes, picture.width, picture.height), encoding="utf-8")
        written.append(path)
    return written
