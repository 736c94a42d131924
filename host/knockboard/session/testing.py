"""The board test as a mode of the session ("Board test" in the menu): the guided test of
`knockboard.boardtest` run on the board being played on, its findings shown one by one on
the OLED (MENU: the next, OK or BACK: back to the game) and written out in full on the
terminal.  The game is left as it was."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional

from ..boardtest import BoardTest, Finding, Wiring, diagnose
from .modes import Mode
from .types import MENU_KEY

if TYPE_CHECKING:
    from ..device.protocol import Scene
    from .session import Session
    from .types import View

BOARD_TEST = "board-test"


class BoardTestMode(Mode):
    name = BOARD_TEST
    holds_undo = False
    back_arms_undo = False

    def __init__(self, session: Session, back: Mode) -> None:
        super().__init__(session)
        self.back = back
        self.test = BoardTest(Wiring.of(session.setup.game))
        self.test.held(getattr(session.board, "pressed", ()))   # stuck from the start
        self.findings: Optional[list[Finding]] = None
        self.shown = 0
        session.term.log("Board test: " + self.test.progress())

    def press(self, cell: int) -> None:
        self.s.sound("click")           # every press is answered, as everywhere else
        self._after(self.test.press, cell)

    def release(self, cell: int) -> None:
        self._after(self.test.release, cell)

    def control(self, key: int) -> None:
        if self.findings is None:
            self._after(self.test.control, key)
        elif key == MENU_KEY and self.findings:
            self.shown = (self.shown + 1) % len(self.findings)
        else:
            self.s.switch_to(self.back.resumed())
            self.s.advance()

    def _after(self, event: Callable[[int], None], arg: int) -> None:
        before = self.test.progress()
        event(arg)
        if self.findings is not None:
            return
        if self.test.done:
            self.findings = diagnose(self.test)
            self.s.sound("ok" if not self.findings else "error")
            term = self.s.term
            term.log(f"Board test: {len(self.findings)} fault(s) to fix"
                     if self.findings else "Board test: no faults found")
            for f in self.findings:
                term.log("- " + f.text)
        elif self.test.progress() != before:
            self.s.term.log("Board test: " + self.test.progress())

    def lines(self, view: View) -> list[str]:
        if self.findings is None:
            return self.test.lines()
        if not self.findings:
            return ["Board test done", "no faults found", "OK=back"]
        n = len(self.findings)
        return [f"fault {self.shown + 1}/{n}", self.findings[self.shown].short,
                "MENU=nxt OK=back"]

    def scene(self, view: View) -> Scene:
        return self.test.scene()
