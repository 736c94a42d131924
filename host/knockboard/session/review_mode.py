"""After a game: its review on the board (MENU -> Review once the game is over).

The review (`knockboard.review`) is made in a thread of its own, its progress on the OLED;
then the board steps through the game's big moments, in the game's order: each mistake or
blunder (an error of `marks.MISTAKE` or more) and each roll lucky for somebody (from
`marks.LUCKY`).  A moment shows the position before it, the cells of the move played lit in
its mark's colour, the best move the analysis found pulsing white; a roll lights the cells
of the move that used it, in green.  OK goes to the next moment (after the last, the first
again), BACK leaves.  The mode is handed what it needs: the record (copied: the review reads
it in its thread), the game's UI, the review's budget, and for a saved game where to keep
the review (`keep_in`), so that `knockboard show` and the window have it without reviewing
again."""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

from ..device.protocol import BLINK, PULSE, SOLID
from ..review import Decision, Review, ReviewError, Roll, review_record
from ..review.marks import LUCKY, MISTAKE, error_mark, luck_mark
from . import scene as S
from .modes import Mode
from .types import BACK_KEY, OK_KEY

if TYPE_CHECKING:
    from ..device.protocol import Cell, Scene
    from ..store import GameRecord
    from .adapters.base import GameUI
    from .session import Session
    from .types import View

REVIEW = "review"
BUTTONS = "OK=next BACK"
MARK_RGB = {"blunder": (255, 0, 0), "mistake": (255, 128, 0)}
LUCK_RGB = (0, 255, 0)


@dataclass(frozen=True)
class Moment:
    ply: int                    # the record's entry, from 1
    lines: tuple[str, ...]      # what the OLED says of it
    lit: tuple[tuple[int, Cell], ...]   # (cell index, how it is lit)
    before: Any                 # the position before it (the scene's pieces)


class _Cancelled(Exception):
    """BACK pressed while the review was being made: its thread stops at the next step."""


def reviewable(record: GameRecord, state: Any) -> bool:
    """Whether the board offers a review: a single game played to its end, move by move
    (`review_record` refuses the rest; the menu does not offer what would be refused)."""
    from ..store.entries import edited_position, round_number
    return state.is_terminal() and not record.agreed and not any(
        edited_position(e) is not None or round_number(e) is not None for e in record.actions)


class ReviewMode(Mode):
    name = REVIEW
    holds_undo = False
    back_arms_undo = False
    refusal = "review: OK BACK"

    def __init__(self, session: Session, back: Mode, record: GameRecord, ui: GameUI,
                 iterations: Optional[int] = None,
                 keep: Optional[Callable[[GameRecord, Review], None]] = None) -> None:
        """`keep`: given the record and its review once made, keeps it for `show` and the
        window (`keep_in`); None: a game the store does not hold."""
        super().__init__(session)
        self.back = back
        self.keep = keep
        self.unkept: Optional[str] = None     # why the review could not be kept, to be said
        self.record = copy.deepcopy(record)
        self.ui = ui
        self.progress = (0, len(self.record.actions))
        self.moments: Optional[list[Moment]] = None      # once the review is made
        self.failed: Optional[str] = None
        self.index = 0
        self._shown: tuple[tuple[int, int], bool] = (self.progress, False)
        self._stop = False
        self._thread = threading.Thread(target=self._review, args=(iterations,),
                                        name="review", daemon=True)
        self._thread.start()

    # --- the review, in its thread ----------------------------------------------------------
    def _review(self, iterations: Optional[int]) -> None:
        def progress(done: int, total: int) -> None:
            if self._stop:
                raise _Cancelled
            self.progress = (done, total)
        try:
            review = review_record(self.record, iterations=iterations, progress=progress)
            if self.keep is not None:
                try:
                    self.keep(self.record, review)
                except OSError as error:
                    self.unkept = str(error.strerror or error)
            self.moments = big_moments(review, self.record, self.ui)
        except _Cancelled:
            pass
        except ReviewError as error:
            self.failed = str(error)
        except Exception as error:   # noqa: BLE001 - a thread's failure must reach the OLED
            # (else it would say "Reviewing" for ever); the terminal gets the reason
            self.failed = f"{type(error).__name__}: {error}"

    @property
    def ready(self) -> bool:
        return self.moments is not None or self.failed is not None

    def tick(self, now: float) -> bool:
        """The progress or the finished review shown once it changes."""
        seen = (self.progress, self.ready)
        if seen == self._shown:
            return False
        self._shown = seen
        if self.failed is not None:
            self.s.term.log(f"  review: {self.failed}")
        elif self.ready and self.unkept is not None:
            self.s.term.log(f"  review: not kept for `knockboard show`: {self.unkept}")
        return True

    # --- presses ----------------------------------------------------------------------------
    def control(self, key: int) -> None:
        if key == BACK_KEY:
            self._stop = True
            self.s.sound("click")
            self.s.switch_to(self.back)
        elif key == OK_KEY and self.moments:
            self.index = (self.index + 1) % len(self.moments)
            self.s.sound("click")

    # --- what the board shows ---------------------------------------------------------------
    def moment(self) -> Optional[Moment]:
        return self.moments[self.index] if self.moments else None

    def lines(self, view: View) -> list[str]:
        if self.failed is not None:
            return ["Review", "not possible", "BACK=leave"]
        if self.moments is None:
            done, total = self.progress
            return ["Reviewing", f"{done}/{total} steps", "BACK=leave"]
        moment = self.moment()
        if moment is None:
            return ["Review", "no big moments", "BACK=leave"]
        return [f"{self.index + 1}/{len(self.moments)} " + moment.lines[0],
                *moment.lines[1:], BUTTONS]

    def dice(self, view: View) -> Optional[tuple[tuple[int, ...], int, str]]:
        return (), 0, ""

    def scene(self, view: View) -> Scene:
        moment = self.moment()
        if moment is None:
            return super().scene(view)
        return S.build(self.ui, self.ui.view(moment.before), dict(moment.lit))


def keep_in(db_path: Path, game_id: int,
            started: str) -> Callable[[GameRecord, Review], None]:
    """Keeps a review of the game `game_id` (started at `started`) of the database at
    `db_path` next to it, with its summary, as `knockboard review ID` does
    (`review/saved.py`)."""
    from ..gameview.chance_chart import seats_of
    from ..review.saved import save_review
    from ..review.text import summary_lines

    def keep(record: GameRecord, review: Review) -> None:
        stored = copy.copy(record)
        stored.id, stored.started = game_id, started
        save_review(db_path, stored, review, summary_lines(review, seats_of(stored)[0]))
    return keep


def big_moments(review: Review, record: GameRecord, ui: GameUI) -> list[Moment]:
    """The review's mistakes, blunders and lucky rolls, in the game's order."""
    state = record.initial_state()
    moments = []
    pending: Optional[tuple[Roll, Any]] = None       # a lucky roll, lit by the move after it
    for step, entry in zip(review.steps, record.actions):
        action = state.parse_action(entry)
        if isinstance(step, Decision):
            if pending is not None:
                roll, before = pending
                moments.append(_luck_moment(roll, before, ui, _path(ui, state, action)))
                pending = None
            if step.error >= MISTAKE:
                moments.append(_error_moment(step, state, action, ui))
        else:
            if pending is not None:          # no move used it (a pass, the game's end)
                moments.append(_luck_moment(*pending, ui, ()))
                pending = None
            if isinstance(step, Roll) and step.luck[step.favoured] >= LUCKY:
                pending = (step, state.clone())
        state.apply(action)
    if pending is not None:
        moments.append(_luck_moment(*pending, ui, ()))
    return moments


def _path(ui: GameUI, state: Any, action: Any) -> tuple[int, ...]:
    """The cells a person presses for `action` (a hint lights the same ones; a pass or a
    declaration has none)."""
    return tuple(ui.option(state, action).path)


def _error_moment(step: Decision, state: Any, action: Any, ui: GameUI) -> Moment:
    mark = error_mark(step.error) or "mistake"
    rgb = MARK_RGB[mark]
    lit: dict[int, Cell] = {}
    if step.best != step.move:
        for cell in _path(ui, state, state.parse_action(step.best)):
            lit[cell] = S.cell(S.WHITE, PULSE)
    path = _path(ui, state, action)
    for k, cell in enumerate(path):
        lit[cell] = S.cell(rgb, SOLID if k == len(path) - 1 else BLINK)
    who = ui.seat_name(step.player)
    return Moment(step.ply, (f"{who} {step.move}", f"{mark} -{step.error:.2f}",
                             f"best {step.best}"), tuple(lit.items()), state.clone())


def _luck_moment(step: Roll, before: Any, ui: GameUI, path: tuple[int, ...]) -> Moment:
    luck = step.luck[step.favoured]
    who = ui.seat_name(step.favoured)
    lit = tuple((cell, S.cell(LUCK_RGB, SOLID)) for cell in path)
    return Moment(step.ply, (f"{step.outcome}", f"{luck_mark(luck)} {who}",
                             f"+{luck:.2f}"), lit, before)
