"""The board test on a connected board (`knockboard boardtest`): the test's scene and lines
sent to the board, its events fed back, the progress and the findings printed."""

from __future__ import annotations

import sys
from typing import Callable, Optional, TextIO

from ..device.protocol import Display, KeyEvent, KeyState
from ..session.types import clip
from .findings import Finding, diagnose
from .guide import BoardTest


def feed(test: BoardTest, message: object) -> None:
    """One message of `Board.poll` into the test."""
    if isinstance(message, KeyEvent):
        if message.control:
            if message.pressed:
                test.control(message.index)
        elif message.pressed:
            test.press(message.index)
        else:
            test.release(message.index)


class Runner:
    """`run()` drives `test` on `board` (a device.Board) until the test is done."""

    def __init__(self, board, test: BoardTest, out: Optional[TextIO] = None,
                 settle: float = 0.3) -> None:
        self.board = board
        self.test = test
        self.out = out or sys.stdout
        self.settle = settle          # seconds to collect the full key state at the start
        self.findings: Optional[list[Finding]] = None
        self._shown: Optional[tuple] = None

    def start(self) -> None:
        """The keys down before the test asks for anything (after the firmware's first
        scans and debounce) are stuck ones."""
        self.board.resync()
        down: set[int] = set()
        for message in self.board.events(self.settle):
            if isinstance(message, KeyState):
                down = set(message.cells)
            elif isinstance(message, KeyEvent) and not message.control:
                (down.add if message.pressed else down.discard)(message.index)
        self.test.held(down)

    def step(self, timeout: float = 0.05) -> None:
        """Feed the test what the board sent, then show what it asks for now."""
        for message in self.board.poll(timeout):
            feed(self.test, message)
        if self.test.done:
            return
        now = (self.test.scene(), tuple(self.test.lines()))
        if now != self._shown:
            self._shown = now
            self.board.set_scene(now[0])
            self.board.show(Display(now[1]))
            print(self.test.progress(), file=self.out, flush=True)

    def run(self, until: Optional[Callable[[], bool]] = None) -> list[Finding]:
        self.start()
        while not self.test.done and not (until and until()):
            self.step()
        return self.finish()

    def finish(self) -> list[Finding]:
        """The findings, shown on the OLED and printed."""
        self.findings = diagnose(self.test)
        self.board.set_scene(self.test.scene())
        self.board.show(Display(summary(self.findings)))
        self.board.flush()
        report(self.findings, self.out)
        return self.findings


def summary(findings: list[Finding]) -> tuple:
    """The OLED's three lines after the test."""
    if not findings:
        return ("Board test done", "no faults found")
    return (f"{len(findings)} fault(s):",) + tuple(clip(f.short) for f in findings[:2])


def report(findings: list[Finding], out: TextIO) -> None:
    if not findings:
        print("Board test: every LED lit and every key answered at its own cell.", file=out)
        return
    print(f"Board test: {len(findings)} fault(s) to fix:", file=out)
    for f in findings:
        print(f"- {f.text}", file=out)
