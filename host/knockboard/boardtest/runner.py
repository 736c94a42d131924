"""The board test on a connected board (`knockboard boardtest`): the test's scene and lines
sent to the board, its events fed back, the progress and the findings printed."""

from __future__ import annotations

import sys
from typing import Callable, Optional, TextIO

from ..device.protocol import Display, KeyEvent, KeyState
from ..session.types import BACK_KEY, MENU_KEY, OK_KEY, clip
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
        findings = self.finish()
        if len(findings) > SUMMARY_FAULTS:
            self.page_through(until)
        return findings

    def finish(self) -> list[Finding]:
        """The findings, shown on the OLED (one a page when they are more than the summary
        holds) and printed."""
        self.findings = diagnose(self.test)
        self.board.set_scene(self.test.scene())
        self.board.show(Display(summary(self.findings) if len(self.findings) <= SUMMARY_FAULTS
                                else fault_page(self.findings, 0)))
        self.board.flush()
        report(self.findings, self.out)
        return self.findings

    def page_through(self, until: Optional[Callable[[], bool]] = None) -> None:
        """Every finding on the OLED, one a page: MENU the next, OK (or BACK) ends."""
        assert self.findings is not None, "finish() first"
        shown = 0
        while not (until and until()):
            for message in self.board.poll(0.05):
                if not (isinstance(message, KeyEvent) and message.control and message.pressed):
                    continue
                if message.index in (OK_KEY, BACK_KEY):
                    return
                if message.index == MENU_KEY:
                    shown = (shown + 1) % len(self.findings)
                    self.board.show(Display(fault_page(self.findings, shown)))


SUMMARY_FAULTS = 2        # the faults the OLED's three lines hold at once


def fault_page(findings: list[Finding], k: int) -> tuple:
    """The OLED's page for finding `k`, when they are more than the summary holds."""
    return (f"fault {k + 1}/{len(findings)}", clip(findings[k].short), "MENU=nxt OK=end")


def summary(findings: list[Finding]) -> tuple:
    """The OLED's three lines after the test."""
    if not findings:
        return ("Board test done", "no faults found")
    return (f"{len(findings)} fault(s):",) + tuple(clip(f.short)
                                                   for f in findings[:SUMMARY_FAULTS])


def report(findings: list[Finding], out: TextIO) -> None:
    if not findings:
        print("Board test: every LED lit and every key answered at its own cell.", file=out)
        return
    print(f"Board test: {len(findings)} fault(s) to fix:", file=out)
    for f in findings:
        print(f"- {f.text}", file=out)
