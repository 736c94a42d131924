"""Edit mode as a mode of the session (the controller is `edit_presses.py`): answering its results
with sounds, flashes and messages, and keeping an accepted edit in the game's record, where
undo, redo, saving and resuming treat it like a move.

An accepted edit replaces the session's engine state by the engine's own reading of the
edited position (`from_position`); the state it replaced is kept so that an undo restores it
exactly, history and all."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional, Sequence

from ..store.entries import edited_position
from . import edit_presses as E
from . import scene as S
from .modes import Mode, Over, Waiting
from .types import BACK_KEY, EDIT, MENU_KEY, OK_KEY

if TYPE_CHECKING:
    from ..device.protocol import Scene
    from ..games.base import State
    from .edit_presses import EditResult
    from .session import Session
    from .types import Step, View


@dataclass(frozen=True)
class Edit:
    """An edit as the session undoes and redoes it: the position it sets."""
    position: str


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
        s.redo_units.clear()
        push_edit(s, state)
        s.term.log("edited: " + ", ".join(step.text for step in changes))
        s.hint = ()
        s.save()
        s.sound("ok")
        self._leave(Waiting(s), sound=False)

    def _leave(self, back: Mode, sound: bool = True) -> None:
        s = self.s
        if s.state.is_terminal():
            s.current = Over(s)
        else:
            s.current = back if back.kept_through_edit else Waiting(s)
        if sound:
            s.sound("click")
        s.advance()


# --- edits in the record ----------------------------------------------------------------------
def push_edit(session: Session, state: State, position: Optional[str] = None) -> None:
    """Make `state` the session's game by an edit entry (`position`: its text as recorded)."""
    session.before_edits.append(session.state)
    session.record.push_edit(position or state.to_position())
    session.state = state


def replay_edit(session: Session, entry: str) -> bool:
    """Replay `entry` of a resumed record if it is an edit; False if it is an action."""
    position = edited_position(entry)
    if position is None:
        return False
    push_edit(session, session.game.from_position(position), position)
    return True


def undo_edit(session: Session, steps: list[Step]) -> Edit:
    """Take back the record's last entry, an edit; add the steps that put the pieces back to
    `steps` and return the Edit for redo."""
    edited = session.state
    session.record.pop()
    session.state = session.before_edits.pop()
    steps.extend(E.edit_steps(session.ui, edited, session.state))
    return Edit(edited.to_position())


def redo_edit(session: Session, edit: Edit, steps: list[Step]) -> None:
    before = session.state
    push_edit(session, session.game.from_position(edit.position))
    steps.extend(E.edit_steps(session.ui, before, session.state))
