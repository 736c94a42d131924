"""What the people around the table may see of a position. K.O.'s set-up (KO-1) is secret:
its pieces are seen as colours only, and its moves, which name the numbers, read "(secret)"
on the score sheet until the game starts. The window, the SVG export and the web page all
draw through this, so none of them shows what the others hide."""

from __future__ import annotations

from dataclasses import replace

SECRET = "(secret)"          # a move of a secret set-up, on the sheet while it lasts


def table_view(ui, state, sheet: list) -> tuple:
    """(view, sheet) of `state` as the table sees it: the adapter's public view of the
    position, and the score sheet `sheet` (`sheet.SheetEntry`s, other items kept as they
    are) with the moves hidden while the view hides anything."""
    view = ui.public(state.view())
    if view == state.view():
        return view, sheet
    return view, [replace(e, text=SECRET) if getattr(e, "is_move", False) else e for e in sheet]
