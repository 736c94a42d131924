"""Entering the values of real dice on the board ("physical dice"): MENU counts the shown
value up (1, 2, ..., the die's top face, then "menu", then 1 again), OK takes it, BACK
takes back the last value entered."""

from __future__ import annotations

from typing import Sequence

DONE, CHANGED, IGNORED, OPEN_MENU = "done", "changed", "ignored", "menu"


class DiceEntry:
    def __init__(self, labels: Sequence[str], kind: int) -> None:
        self.labels = list(labels)     # one per die, whose and which: "White d6", "Orange d6"
        self.kind = kind
        self.values: list[int] = []
        self.current = 1               # kind + 1 stands for the "menu" entry

    @property
    def label(self) -> str:
        return self.labels[len(self.values)]

    @property
    def on_menu(self) -> bool:
        return self.current > self.kind

    def menu(self) -> str:
        self.current = self.current % (self.kind + 1) + 1
        return CHANGED

    def ok(self) -> str:
        if self.on_menu:
            self.current = 1
            return OPEN_MENU
        self.values.append(self.current)
        self.current = 1
        return DONE if len(self.values) == len(self.labels) else CHANGED

    def back(self) -> str:
        if not self.values:
            return IGNORED
        self.current = self.values.pop()
        return CHANGED
