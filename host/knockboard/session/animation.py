"""Step-by-step showing of what the players must do with the physical pieces (a knock
chain, a knocked-off pawn, a computer's move, an undo): one Step at a time, done when OK
is pressed or when the cells the step names are pressed in order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Optional

if TYPE_CHECKING:
    from .types import Step

ADVANCED, PROGRESS, WRONG = "advanced", "progress", "wrong"


class Animation:
    def __init__(self, steps: Iterable[Step], title: str = "") -> None:
        self.steps = list(steps)
        self.title = title
        self.index = 0
        self.pressed = 0          # how many of the current step's presses are done

    @property
    def done(self) -> bool:
        return self.index >= len(self.steps)

    @property
    def step(self) -> Optional[Step]:
        return None if self.done else self.steps[self.index]

    def ok(self) -> str:
        self._next()
        return ADVANCED

    def press(self, space: Optional[str]) -> str:
        presses = self.steps[self.index].presses()
        if not presses:
            return WRONG          # a step to read (a computer's "dodge"): OK only
        if space == presses[self.pressed]:
            self.pressed += 1
            if self.pressed == len(presses):
                self._next()
                return ADVANCED
            return PROGRESS
        if self.pressed and space == presses[self.pressed - 1]:
            return PROGRESS       # the same cell again (a bounce, a second look): harmless
        return WRONG

    def _next(self) -> None:
        self.index += 1
        self.pressed = 0
