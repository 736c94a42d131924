"""Edit mode as a mode of the session (the controller is `edit_presses.py`): answering its results
with sounds, flashes and messages, and handing an accepted edit to the game line
(`game_line.py`), where undo, redo, saving and resuming treat it like a move; and the steps
that show the pieces' way when a move or an edit is taken back or played again.

An accepted edit replaces the session's engine state by the engine's own reading of the
edited position (`from_position`); the line keeps the state it replaced so that an undo
restores it exactly, history and all."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence

from . import edit_presses as E
from . import scene as S
from .game_line import Edit
from .modes import Mode, Over, Waiting
from .types import BACK_KEY, EDIT, MENU_KEY, OK_KEY

if TYPE_CHECKING:
    from ..device.protocol import Scene
    from ..games.base import State
    from .adapters.base import GameUI
    from .edit_presses import EditResult
    from .game_line import Move
    from .session import Session
    from .types import Step, View


class Editing(Mode):
    name = EDIT
    back_arms_undo = False        # BACK leaves edit mode (forgetting the edit): no undo

    def __init__(self, session: Session, info: str, back: Mode) -> None:
        super().__init__(session)
        self.edit = E.EditMode(session.ui, session.state, info)
        self.back = back          # the mode to come back to when nothing was changed

    def press(self, cell: int) -> None:
        self._result(self.edit.press(self.s.layout.space_of(cell)), cell)

    def control(self, key: int) -> None:
        edit = self.edit
        handler = {OK_KEY: edit.ok, BACK_KEY: edit.back, MENU_KEY: edit.menu}[key]
        self._result(handler())

    def lines(self, view: View) -> list[str]:
        return self.edit.lines()

    def scene(self, view: View) -> Scene:
        hl = self.edit.highlights(self.s.layout)
        self.s.add_flash(hl)
        return S.build(self.s.ui, self.edit.view(), hl, level=1.0)

    def _result(self, result: EditResult, cell: Optional[int] = None) -> None:
        s, kind = self.s, result.kind
        if kind == E.ILLEGAL:
            if cell is None:
                s.refuse(result.text)
            else:
                s.illegal(cell, result.text)
        elif kind == E.REFUSE:
            s.term.log(f"Edit refused: {result.text}")
            s.sound("error")
        elif kind == E.ACCEPT and result.state is not None:     # ACCEPT has the state
            self._accept(result.state, result.changes)
        elif kind == E.LEAVE:
            self._leave(self.back)
        else:
            s.sound("click")

    def _accept(self, state: State, changes: Sequence[Step]) -> None:
        """The engine accepted the edited position: it becomes the game's, as a record
        entry; the steps that were being shown are void (the pieces are where the players
        said) and redo is forgotten, as after a new move."""
        s = self.s
        if state.to_position() == s.state.to_position():
            self._leave(self.back)
            return
        if s.remote is not None:
            # the other homes play on from the agreed position: set the pieces as lit
            s.refuse("remote: no edits")
            return
        s.apply_edit(state)
        s.term.log("edited: " + ", ".join(step.text for step in changes))
        s.sound("ok")
        self._leave(Waiting(s), sound=False)

    def _leave(self, back: Mode, sound: bool = True) -> None:
        s = self.s
        if s.state.is_terminal():
            s.switch_to(Over(s))
        else:
            s.switch_to(back if back.kept_through_edit else Waiting(s))
        if sound:
            s.sound("click")
        s.advance()


# --- the steps of a move taken back or played again -----------------------------------------
def steps_back(ui: GameUI, move: Move) -> list[Step]:
    """The steps that take `move` back on the board: an action's own steps reversed, or the
    pieces an edit placed put back where they stood."""
    if isinstance(move.entry, Edit):
        return E.edit_steps(ui, move.after, move.before)
    return [step.reversed() for step in reversed(ui.steps(move.before, move.entry, move.after))]


def steps_forward(ui: GameUI, move: Move) -> list[Step]:
    """The steps that play `move` again: an action's steps, or an edit's pieces."""
    if isinstance(move.entry, Edit):
        return E.edit_steps(ui, move.before, move.after)
    return ui.steps(move.before, move.entry, move.after)
