"""The board test as a state machine: it lights one cell at a time and waits for the maker
to press that cell's key; the board's events (presses, releases, OK/BACK/MENU) are fed in,
the scene and the OLED's lines are read out, and what it saw goes to `findings.diagnose`.

The maker's part, for each cell: press the lit cell's key; BACK if the cell shows no light
(then press its key anyway: the OLED names it); MENU if the key does nothing (skip it); OK
ends the test early.  After a dark LED the test lights every later cell at once and asks
whether they light: a WS2812 chain broken at one LED leaves all later ones dark, so one
answer tells a dead chain from a single dead LED, and a broken chain is not asked about
again cell by cell.

A press is judged when every key is up again, so all the cells that answered one press
count together (two cells answering one press is a fault of its own).  Keys already down
when the test starts (`held`) are stuck, and are left out of that judgement."""

from __future__ import annotations

from typing import Iterable, Optional, Sequence

from ..device.protocol import OFF, PULSE, Cell, Scene
from .wiring import Wiring

LIT = Cell(255, 255, 255)              # the cell under test: white, every colour die on
LATER = Cell(0, 90, 0, PULSE)          # the question "do the later cells light?"
BRIGHTNESS = 96                        # one white LED at a third: bright, well in budget

OK_KEY, BACK_KEY, MENU_KEY = 0, 1, 2

LIGHT, DARK, ASK_CHAIN, DONE = "light", "dark", "ask-chain", "done"


class BoardTest:
    def __init__(self, wiring: Wiring, cells: Optional[Sequence[int]] = None) -> None:
        """`cells`: the cells to test, in order (default all, in LED chain order: a chain
        that stops is found at its first dark LED)."""
        self.wiring = wiring
        self.order = list(range(wiring.cells) if cells is None else cells)
        for c in self.order:
            if not 0 <= c < wiring.cells:
                raise ValueError(f"no cell {c} on {wiring.board} (cells 0..{wiring.cells - 1})")
        self.pos = 0
        self.phase = LIGHT if self.order else DONE
        self.chain_stop: Optional[int] = None   # the first LED of a chain that stops
        self.dark: list[int] = []                # LEDs that gave no light
        self.answers: dict[int, Optional[frozenset]] = {}   # cell -> cells answering; None: skipped
        self.stuck: frozenset = frozenset()      # keys down before the test began
        self.ended_early = False
        self._down: set[int] = set()
        self._gesture: set[int] = set()

    # ---- where the test is ----
    @property
    def done(self) -> bool:
        return self.phase == DONE

    @property
    def cell(self) -> int:
        return self.order[min(self.pos, len(self.order) - 1)]

    def _next(self) -> None:
        self.pos += 1
        if self.pos >= len(self.order):
            self.phase = DONE
        else:
            self.phase = DARK if self._beyond_stop(self.cell) else LIGHT

    def _beyond_stop(self, cell: int) -> bool:
        return self.chain_stop is not None and cell >= self.chain_stop

    # ---- what the board sent ----
    def held(self, cells: Iterable[int]) -> None:
        """The keys down when the test starts (the board's full key state)."""
        self.stuck = frozenset(cells)
        self._down -= self.stuck
        self._gesture -= self.stuck

    def press(self, cell: int) -> None:
        if cell in self.stuck or self.done:
            return
        if not self._down:
            self._gesture = set()
        self._down.add(cell)
        self._gesture.add(cell)

    def release(self, cell: int) -> None:
        if cell in self.stuck or cell not in self._down:
            return
        self._down.discard(cell)
        if not self._down and self._gesture and self.phase in (LIGHT, DARK):
            self.answers[self.cell] = frozenset(self._gesture)
            self._next()

    def control(self, key: int) -> None:
        if self.done:
            return
        if self.phase == ASK_CHAIN:
            if key == OK_KEY:          # the later cells light: only this LED is dark
                self.phase = DARK
            elif key == BACK_KEY:      # they do not: the chain stops here
                self.chain_stop = self.cell
                self.phase = DARK
            return
        if key == OK_KEY:
            self.ended_early = True
            self.phase = DONE
        elif key == MENU_KEY:
            self.answers[self.cell] = None
            self._next()
        elif key == BACK_KEY and self.phase == LIGHT:
            self.dark.append(self.cell)
            later = [c for c in self.order[self.pos + 1:]]
            self.phase = ASK_CHAIN if later else DARK

    # ---- what the board shows ----
    def scene(self) -> Scene:
        cells = [OFF] * self.wiring.cells
        if self.phase == LIGHT:
            cells[self.cell] = LIT
        elif self.phase == ASK_CHAIN:
            for c in self.order[self.pos + 1:]:
                cells[c] = LATER
        elif self.phase == DARK and not self._beyond_stop(self.cell):
            cells[self.cell] = LIT      # a dark LED stays asked for: a loose joint may come
        return Scene(tuple(cells), BRIGHTNESS)

    def lines(self) -> list[str]:
        space = self.wiring.spaces[self.cell]
        head = f"{self.pos + 1}/{len(self.order)} {space}"
        if self.phase == LIGHT:
            return [head, "press lit key", "BACK=dark OK=end"]
        if self.phase == DARK:
            return [head, f"press key {space}", "MENU=none OK=end"]
        if self.phase == ASK_CHAIN:
            return [f"{space} is dark", "later ones lit?", "OK=yes BACK=no"]
        return ["Board test done"]

    def progress(self) -> str:
        """One line for a terminal: which cell is asked for and how."""
        what = {LIGHT: "lit: press its key (BACK: no light, MENU: key does nothing)",
                DARK: "press its key (MENU: key does nothing)",
                ASK_CHAIN: "does not light: do the cells after it light? (OK yes, BACK no)",
                DONE: "done"}[self.phase]
        return f"{self.pos + 1}/{len(self.order)} {self.wiring.name(self.cell)} {what}"
