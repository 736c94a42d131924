"""What the board test saw, as faults a maker can fix: which part, which joint, which line.

How the cell board's faults show (hardware/schematic/cell_board.py; docs/build.md, "Board test"):

- a WS2812 passes the data on to the next LED only while it works, so a chain broken at LED
  k (a dead LED, a bad DIN/DOUT joint, no 5 V or GND at it) leaves k and every later LED
  dark; a single dark LED with the later ones lit is that LED's own light;
- a key that answers at another cell of its row reads on another column line (two column
  lines crossed: swapped traces, a connector pin), at another cell of its column on another
  row line;
- a key that never answers: an open joint at the key or its diode, a diode turned round
  (the 74HC595 rows are driven high and low, so a reversed or missing diode never conducts:
  the key is dead, it does not ghost), or its row or column line open (then the whole row
  or column is dead);
- two cells for one press: the two column (or row) lines touch, a solder bridge; with keys
  held at once a shorted diode (a bridge across its pads) makes cells of one column answer
  together;
- a key down from the start: the key is shorted or its column line touches ground."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .wiring import Wiring, col_line, row_line

if TYPE_CHECKING:
    from .guide import BoardTest


@dataclass(frozen=True)
class Finding:
    kind: str       # "chain", "led", "wrong-cell", "dead-key", "dead-row", "dead-col",
    #                 "two-at-once", "stuck", "not-tested"
    short: str      # at most 16 characters: the OLED's line
    text: str       # the maker's words: what is wrong and what to check


def diagnose(test: BoardTest) -> list[Finding]:
    w = test.wiring
    out = _leds(test, w) + _stuck(test, w)
    out += _dead_keys(test, w) + _wrong_cells(test, w) + _two_at_once(test, w)
    if test.ended_early:
        left = [c for c in test.order if c not in test.answers]
        out.append(Finding("not-tested", f"{len(left)} not tested",
                           f"The test was ended early: {len(left)} cells were not tested "
                           f"(from {w.name(left[0])})." if left else "The test was ended early."))
    return out


def _leds(test: BoardTest, w: Wiring) -> list[Finding]:
    out = []
    for led in test.dark:
        if led == test.chain_stop:
            before = (f"LED {led - 1}'s DOUT and LED {led}'s DIN" if led > 0 else
                      "the LED cable (J1 DIN on the cell board, J2 on the controller) and "
                      "LED 0's DIN")
            out.append(Finding("chain", f"chain stop {led}",
                               f"LED {led} ({w.name(led)}) does not light, nor any LED after "
                               f"it: the chain stops at LED {led}. Check the solder joints of "
                               f"{before}, and the 5 V/GND at LED {led}; if they are good, "
                               f"replace LED {led}."))
        else:
            out.append(Finding("led", f"LED {led} dark",
                               f"LED {led} ({w.name(led)}) does not light, but the LEDs after "
                               f"it do, so the data passes through it: LED {led} itself gives "
                               f"no light. Replace LED {led} (mind its corner mark)."))
    return out


def _stuck(test: BoardTest, w: Wiring) -> list[Finding]:
    out, left = [], set(test.stuck)
    for col in range(w.cols):
        cells = set(w.in_col(col))
        if len(cells) > 1 and cells <= left:
            left -= cells
            out.append(Finding("stuck", f"COL{col} held low",
                               f"Every key of column {col} reads as pressed all the time: the "
                               f"{col_line(col)} is held low. Look for a short to GND on it "
                               f"(at a key, the connector or the ribbon cable)."))
    for cell in sorted(left):
        out.append(Finding("stuck", f"{w.spaces[cell]} stuck",
                           f"The key of {w.name(cell)} reads as pressed all the time: SW{cell} "
                           f"is stuck or shorted, or a solder bridge joins its pads. Check "
                           f"SW{cell} and D{cell}."))
    return out


def _dead_keys(test: BoardTest, w: Wiring) -> list[Finding]:
    dead = {c for c, a in test.answers.items() if a is None and c not in test.stuck}
    tested = set(test.answers)
    out = []
    for what, line, members in ([("row", r, w.in_row(r)) for r in range(w.rows)] +
                                [("col", c, w.in_col(c)) for c in range(w.cols)]):
        asked = [c for c in members if c in tested]
        if len(asked) > 1 and all(c in dead for c in asked):
            dead -= set(asked)
            where = row_line(line) if what == "row" else col_line(line)
            out.append(Finding(f"dead-{what}", f"{what} {line} dead",
                               f"No key on {what} {line} answers ({len(asked)} tried): the "
                               f"{where} is open. Check the ribbon cable and both connectors, "
                               f"then the line on the cell board with a meter."))
    for cell in sorted(dead):
        out.append(Finding("dead-key", f"key {w.spaces[cell]} dead",
                           f"The key of {w.name(cell)} never answers: check SW{cell}'s two "
                           f"solder joints and its diode D{cell} (1N4148W: fitted, and its ring "
                           f"towards the row line), on {row_line(w.row(cell))} and "
                           f"{col_line(w.col(cell))}."))
    return out


def _wrong_cells(test: BoardTest, w: Wiring) -> list[Finding]:
    """Keys answering at one other cell, grouped by the pair of lines that differ."""
    groups: dict[tuple, list] = defaultdict(list)
    for cell, answer in test.answers.items():
        if answer is None or len(answer) != 1 or cell in answer:
            continue
        (got,) = answer
        if w.row(got) == w.row(cell):
            groups[("col", w.col(cell), w.col(got))].append((cell, got))
        elif w.col(got) == w.col(cell):
            groups[("row", w.row(cell), w.row(got))].append((cell, got))
        else:
            groups[("both", cell, got)].append((cell, got))
    out = []
    for (what, a, b), pairs in sorted(groups.items()):
        both_ways = (what, b, a) in groups
        if both_ways:
            pairs = pairs[:2] + groups[(what, b, a)][:2]
        seen = ", ".join(f"{w.spaces[c]} answers as {w.spaces[g]}" for c, g in pairs[:4])
        if what == "both":
            out.append(Finding("wrong-cell", f"{w.spaces[a]}>{w.spaces[b]}",
                               f"The key of {w.name(a)} answers as {w.name(b)}: both its row "
                               f"and its column differ ({w.row(a)}/{w.col(a)} against "
                               f"{w.row(b)}/{w.col(b)}). Check that both ribbon cables sit the "
                               f"right way round, then SW{a}'s wiring."))
            continue
        line = row_line if what == "row" else col_line
        if both_ways and a > b:
            continue                       # said once, for the pair
        verb = "look swapped" if both_ways else "look crossed"
        out.append(Finding("wrong-cell", f"{what} {a}<>{b}"[:16],
                           f"Keys answer at another cell ({seen}): the {line(a)} and the "
                           f"{line(b)} {verb}. Check the traces or wires of those two lines "
                           f"and their pins on both connectors."))
    return out


def _two_at_once(test: BoardTest, w: Wiring) -> list[Finding]:
    out = []
    for cell, answer in sorted(test.answers.items()):
        if answer is None or len(answer) < 2:
            continue
        names = " and ".join(w.name(c) for c in sorted(answer))
        rows, cols = {w.row(c) for c in answer}, {w.col(c) for c in answer}
        if len(rows) == 1:
            joined = "the " + " and the ".join(col_line(c) for c in sorted(cols)) + " touch"
        elif len(cols) == 1:
            joined = "the " + " and the ".join(row_line(r) for r in sorted(rows)) + " touch"
        else:
            joined = "lines of both rows and columns are joined"
        out.append(Finding("two-at-once", f"{w.spaces[cell]}: {len(answer)} keys"[:16],
                           f"Pressing the key of {w.name(cell)} answered at {names} at once: "
                           f"{joined}: look for a solder bridge between them (at the keys, "
                           f"the diodes or the connector). If keys were held together, check "
                           f"the diodes " + ", ".join(f"D{c}" for c in sorted(answer)) +
                           " for a bridge across their pads."))
    return out
