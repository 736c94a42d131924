"""The session's side of edit mode (the controller is `edit.py`): opening it, answering its
results with sounds, flashes and messages, and keeping an accepted edit in the game's
record, where undo, redo, saving and resuming treat it like a move.

An accepted edit replaces the session's engine state by the engine's own reading of the
edited position (`from_position`); the state it replaced is kept so that an undo restores it
exactly, history and all.  A mixin of `Session`: it uses the session's state, record, ui,
terminal and feedback."""

from . import edit as E
from .record import Edit
from .types import BACK_KEY, EDIT, MENU_KEY, OK_KEY, OVER, PLAYING
from ..store.entries import edited_position


class Editing:
    def _open_edit(self, info):
        self.mode = EDIT
        self.edit = E.EditMode(self.ui, self.state, info)

    def _edit_control(self, key):
        edit = self.edit
        handler = {OK_KEY: edit.ok, BACK_KEY: edit.back, MENU_KEY: edit.menu}[key]
        self._edit_result(handler())

    def _edit_result(self, result, cell=None):
        kind = result.kind
        if kind == E.ILLEGAL:
            if cell is None:
                self._refuse(result.text)
            else:
                self._illegal(cell, result.text)
        elif kind == E.REFUSE:
            self.term.log(f"Edit refused: {result.text}")
            self._sound("error")
        elif kind == E.ACCEPT:
            self._accept_edit(result.state, result.changes)
        elif kind == E.LEAVE:
            self._leave_edit()
        else:
            self._sound("click")

    def _accept_edit(self, state, changes):
        """The engine accepted the edited position: it becomes the game's, as a record
        entry; the steps that were being shown are void (the pieces are where the players
        said) and redo is forgotten, as after a new move."""
        if state.to_position() == self.state.to_position():
            self._leave_edit()
            return
        self.redo_units.clear()
        self._push_edit(state)
        self.term.log("edited: " + ", ".join(step.text for step in changes))
        self.animation = self.interaction = None
        self.hint = ()
        self._save()
        self._sound("ok")
        self._leave_edit(sound=False)

    def _leave_edit(self, sound=True):
        self.edit = None
        self.mode = OVER if self.state.is_terminal() else PLAYING
        if sound:
            self._sound("click")
        self.advance()

    # --- edits in the record ----------------------------------------------------------------
    def _push_edit(self, state, position=None):
        """Make `state` the game's by an edit entry (`position`: its text as recorded)."""
        self.before_edits.append(self.state)
        self.record.push_edit(position or state.to_position())
        self.state = state

    def _replay_edit(self, entry):
        """Replay `entry` of a resumed record if it is an edit; False if it is an action."""
        position = edited_position(entry)
        if position is None:
            return False
        self._push_edit(self.game.from_position(position), position)
        return True

    def _undo_edit(self, steps):
        """Take back the record's last entry, an edit; add the steps that put the pieces
        back to `steps` and return the Edit for redo."""
        edited = self.state
        self.record.pop()
        self.state = self.before_edits.pop()
        steps.extend(E.edit_steps(self.ui, edited, self.state))
        return Edit(edited.to_position())

    def _redo_edit(self, edit, steps):
        before = self.state
        self._push_edit(self.game.from_position(edit.position))
        steps.extend(E.edit_steps(self.ui, before, self.state))
