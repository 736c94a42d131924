"""Edit mode: the players change the program's position so that it matches the pieces on
the board (a piece knocked off the table, a move made without the board, a die turned to
the wrong face), with the cell buttons and OK/BACK/MENU only.

It opens showing every piece the program has, at full strength.  With nothing selected:

- a cell with a piece selects it (it blinks, the OLED names it);
- an empty cell offers the pieces off the board that may stand there (the cell pulses):
  MENU or the cell again shows the next, OK puts it there, BACK cancels;
- MENU steps through the position's settings (whose turn; Dodgeball's starting balls):
  OK changes the one shown, MENU the next, BACK (or MENU after the last) returns;
- OK hands the edited position to the engine (`from_position`): accepted, the session
  records it; refused, the engine's reason is shown (MENU pages through it, OK or BACK
  returns to the edit) and nothing changes;
- BACK leaves and forgets the changes.

With a piece selected: an empty cell moves it there; another piece is selected instead
(except a Knock-Off pawn's own home base, which takes it home); the piece itself again
changes what it is where the game has that (KNOCKabout: the next face; Dodgeball: a pawn
takes a spare ball or drops its own) and is deselected elsewhere; MENU takes it off the
board (KNOCKabout: off; Dodgeball: out; K.O.: knocked out; Knock-Off: home); OK or BACK
deselects.  A press that cannot do anything is refused (red flash, buzz) with a reason
and changes nothing.

A position is edited only where a player is to decide with nothing half done (no die to
roll, no throw in the air, not during a secret set-up): elsewhere the pieces are shown,
a press names what is on a cell, and the OLED says why nothing can be changed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional

from ..device.protocol import BLINK, PULSE
from ..games import GameError
from . import oled, scene as S
from .types import Step, clip

if TYPE_CHECKING:
    from ..device.protocol import Cell
    from ..games.base import State
    from ..layouts.base import Layout
    from .adapters.base import GameUI
    from .types import Piece, View

VIEW, IDLE, SELECTED, PUT, SETTINGS, REFUSED = \
    "view", "idle", "selected", "put", "settings", "refused"

# what a press or a button did, for the session
CHANGED, ILLEGAL, REFUSE, ACCEPT, LEAVE = "changed", "illegal", "refuse", "accept", "leave"


@dataclass(frozen=True)
class EditResult:
    kind: str
    text: str = ""            # ILLEGAL: a short reason; REFUSE: the engine's message
    state: Optional[State] = None   # ACCEPT: the engine's state of the edited position
    changes: tuple[Step, ...] = ()   # ACCEPT: the Steps from the old position to the new


class EditMode:
    def __init__(self, ui: GameUI, state: State, info: str = "press a cell") -> None:
        self.ui = ui
        self.state = state
        self.refusal = ui.edit_refusal(state)       # None: the position can be changed
        # both None when refused: the stages that read them are then never reached
        self.original: Any = None
        self.board: Any = None
        if not self.refusal:
            self.original = ui.edit_board(state)
            self.board = self.original.copy()
        self.stage = VIEW if self.refusal else IDLE
        self.info = info
        self.selected: Any = None          # SELECTED: the space
        self.put_at: Any = None            # PUT: the space, the pieces offered, the one shown
        self.candidates: list[Piece] = []
        self.index = 0
        self.setting = 0              # SETTINGS: the entry shown
        self.pages: list[list[str]] = []   # REFUSED: the engine's message, two lines a page
        self.page = 0

    # --- what the board shows ---------------------------------------------------------------
    def view(self) -> View:
        if self.board is None:
            return self.ui.view(self.state)
        return self.ui.edit_view(self.board)

    def changes(self) -> list[Step]:
        """The Steps from the program's position to the edited one ([]: nothing changed)."""
        if self.board is None:
            return []
        return self.ui.edit_diff(self.original, self.board)

    def highlights(self, layout: Layout) -> dict[int, Cell]:
        hl: dict[int, Cell] = {}
        if self.stage == SELECTED:
            piece = self.board.pieces[self.selected]
            hl[layout.cell(self.selected).index] = S.cell(S.piece_rgb(self.ui, piece), BLINK)
        elif self.stage == PUT:
            hl[layout.cell(self.put_at).index] = S.cell(S.target_rgb(self.ui), PULSE)
        return hl

    def lines(self) -> list[str]:
        stage = self.stage
        # "OK=done" while nothing is changed: scripts that resume games press OK on it
        if stage == VIEW:
            return [clip(f"View only: {self.refusal}"), self.info, "OK=done"]
        if stage == SELECTED:
            piece = self.board.pieces[self.selected]
            vary = self.ui.edit_can_vary(self.board, self.selected)
            return [clip(f"{self.selected}: {piece.name}"), "press: to where",
                    "MENU=off" + (f" 2x={self.ui.EDIT_VARIANT}" if vary else "")]
        if stage == PUT:
            return [clip(f"{self.put_at}: put?"), clip("> " + self.candidates[self.index].name),
                    clip(f"OK=put MENU {self.index + 1}/{len(self.candidates)}")]
        if stage == SETTINGS:
            _, label = self.ui.edit_settings(self.board)[self.setting]
            return ["Edit: settings", clip("> " + label), "OK=chg MENU=nxt"]
        if stage == REFUSED:
            n = len(self.pages)
            head = f"refused {self.page + 1}/{n} MENU" if n > 1 else "refused: OK=back"
            return [clip(head)] + self.pages[self.page]
        if self.changes():
            return ["Edit: changed", self.info, "OK=keep BACK=no"]
        return ["Edit: as program", self.info, "OK=done"]

    # --- input ------------------------------------------------------------------------------
    def press(self, space: str) -> EditResult:
        if self.stage == VIEW:
            piece = self.ui.view(self.state).pieces.get(space)
            self.info = clip(f"{space}: {piece.name if piece else 'empty'}")
            return EditResult(CHANGED)
        if self.stage in (REFUSED, SETTINGS):
            self.stage = IDLE
        if self.stage == SELECTED:
            return self._press_selected(space)
        if self.stage == PUT:
            if space == self.put_at:
                return self._next_candidate()
            self.stage = IDLE
        if space in self.board.pieces:
            return self._select(space)
        candidates = self.ui.edit_candidates(self.board, space)
        if not candidates:
            return EditResult(ILLEGAL, "nothing to put")
        self.stage, self.put_at, self.candidates, self.index = PUT, space, candidates, 0
        return EditResult(CHANGED)

    def _press_selected(self, space: str) -> EditResult:
        board, src = self.board, self.selected
        if space == src:
            if not self.ui.edit_can_vary(board, src):
                return self._idle("press a cell")
            reason = self.ui.edit_vary(board, src)
            if reason:
                return EditResult(ILLEGAL, reason)
            self.info = clip(f"{src}: {board.pieces[src].name}")
            return EditResult(CHANGED)
        if space in board.pieces and not self.ui.edit_takes(board, src, space):
            return self._select(space)
        piece = board.pieces[src]
        reason = self.ui.edit_move(board, src, space)
        if reason:
            return EditResult(ILLEGAL, reason)
        return self._idle(f"{piece.name} {src}>{space}")

    def ok(self) -> EditResult:
        stage = self.stage
        if stage == VIEW:
            return EditResult(LEAVE)
        if stage in (REFUSED, SELECTED):
            return self._idle(self.info if stage == REFUSED else "press a cell")
        if stage == PUT:
            piece = self.candidates[self.index]
            self.ui.edit_put(self.board, self.put_at, piece)
            return self._idle(f"{piece.name} on {self.put_at}")
        if stage == SETTINGS:
            key, _ = self.ui.edit_settings(self.board)[self.setting]
            reason = self.ui.edit_setting(self.board, key)
            return EditResult(ILLEGAL, reason) if reason else EditResult(CHANGED)
        changes = self.changes()
        if not changes:
            return EditResult(LEAVE)
        try:
            state = self.ui.game.from_position(self.ui.edit_position(self.board))
        except GameError as err:
            self.stage, self.page = REFUSED, 0
            why = self.ui.table_words(str(err))
            lines = oled.wrap(why) or ["?"]        # the OLED's layout: no word cut
            self.pages = [(lines[i:i + 2] + [""])[:2] for i in range(0, len(lines), 2)]
            return EditResult(REFUSE, why)
        return EditResult(ACCEPT, state=state, changes=tuple(changes))

    def back(self) -> EditResult:
        if self.stage in (VIEW, IDLE):
            return EditResult(LEAVE)
        return self._idle(self.info if self.stage == REFUSED else "press a cell")

    def menu(self) -> EditResult:
        stage = self.stage
        if stage == VIEW:
            return EditResult(ILLEGAL, clip(f"not now: {self.refusal}"))
        if stage == REFUSED:
            self.page = (self.page + 1) % len(self.pages)
            return EditResult(CHANGED)
        if stage == SELECTED:
            src = self.selected
            piece = self.board.pieces[src]
            reason = self.ui.edit_remove(self.board, src)
            if reason:
                return EditResult(ILLEGAL, reason)
            return self._idle(f"{piece.name} {src} off")
        if stage == PUT:
            return self._next_candidate()
        if stage == SETTINGS:
            self.setting += 1
            if self.setting >= len(self.ui.edit_settings(self.board)):
                return self._idle(self.info)
            return EditResult(CHANGED)
        if not self.ui.edit_settings(self.board):
            return EditResult(ILLEGAL, "no settings")
        self.stage, self.setting = SETTINGS, 0
        return EditResult(CHANGED)

    # --- inner ------------------------------------------------------------------------------
    def _select(self, space: str) -> EditResult:
        self.stage, self.selected = SELECTED, space
        return EditResult(CHANGED)

    def _idle(self, info: str) -> EditResult:
        self.stage, self.selected, self.put_at = IDLE, None, None
        self.info = clip(info)
        return EditResult(CHANGED)

    def _next_candidate(self) -> EditResult:
        self.index = (self.index + 1) % len(self.candidates)
        return EditResult(CHANGED)


def edit_steps(ui: GameUI, before: State, after: State) -> list[Step]:
    """The Steps that take the physical board from state `before` to state `after` across an
    edit entry (or back, for an undo).  Where either is no editable position (a record made
    elsewhere may edit anywhere), one step says the position changed."""
    if any(ui.edit_refusal(s) not in (None, "over") for s in (before, after)):
        return [Step("info", text="new position")]
    return ui.edit_diff(ui.edit_board(before), ui.edit_board(after))
