"""The OLED's text: three lines of 16 characters (128x64 pixels, 8-pixel glyphs; the
firmware's `display.py` draws them under the dice).  Every text the session shows goes
through `pages()`, so no word is ever cut at the 16th character:

1. A line that fits is shown as it is.
2. A line that does not fit is first abbreviated by one rule: a seat of several colours
   ("Green+Yellow") is named by its initials ("G+Y"), as the match tallies do.
3. A line that still does not fit wraps at spaces; a single word longer than a line (a
   code, never a word of prose) breaks after a "+", "-", ">", "/", "," or ":" inside it.
4. When the wrapped lines are more than three, the screen is paged: the last line (what
   the buttons do) stays, the lines above it are shown PAGE_S seconds at a time, in turn.

`pages()` is pure; the session picks the page by its clock (`page_at`)."""

from __future__ import annotations

import re
from typing import Sequence

WIDTH = 16          # characters a line (firmware display.py MAX_CHARS)
LINES = 3           # lines a screen (MAX_LINES)
PAGE_S = 2.5        # a page of a long screen is shown this long
BREAKS = "+->/,:"   # where a word longer than a line may be broken (after the character)

# a seat of several colours, as K.O. with two players names it: "Green+Yellow"
_MULTI_SEAT = re.compile(r"\b[A-Z][a-z]+(?:\+[A-Z][a-z]+)+\b")


def printable(text: object) -> str:
    """The text with anything the OLED's font lacks (not printable ASCII) shown as "?"."""
    return "".join(ch if 0x20 <= ord(ch) <= 0x7E else "?" for ch in str(text))


def abbreviate(line: str) -> str:
    """Rule 2: each multi-colour seat name as its initials ("Green+Yellow" -> "G+Y")."""
    return _MULTI_SEAT.sub(lambda m: "+".join(p[0] for p in m.group(0).split("+")), line)


def _break_at(word: str, room: int) -> int:
    """Where a word too long for a line may be broken within `room` characters: after its
    last BREAKS character there, 0 if none."""
    return max((i + 1 for i, ch in enumerate(word[:room]) if ch in BREAKS), default=0)


def wrap(line: str) -> list[str]:
    """One logical line as the OLED lines that show it whole (rules 1-3)."""
    line = printable(line).strip()
    if len(line) <= WIDTH:
        return [line]
    line = abbreviate(line)
    if len(line) <= WIDTH:
        return [line]
    out: list[str] = []
    current = ""
    for word in line.split():
        while word:
            room = WIDTH - len(current) - 1 if current else WIDTH
            if len(word) <= room:
                current = f"{current} {word}" if current else word
                break
            cut = _break_at(word, room) if len(word) > WIDTH else 0
            if cut:                         # a code's first part fills this line
                current = f"{current} {word[:cut]}" if current else word[:cut]
                word = word[cut:]
            elif not current:               # a code with no separator: cut hard
                current, word = word[:WIDTH], word[WIDTH:]
            out.append(current)
            current = ""
    return out + [current] if current else out


def pages(lines: Sequence[str]) -> list[tuple[str, ...]]:
    """The screens that show `lines` (logical lines, any length) whole: one screen when
    they fit, else pages that keep the last line (rule 4).  Trailing empty lines go."""
    logical = [printable(x).strip() for x in lines]
    while logical and not logical[-1]:
        logical.pop()
    wrapped = [wrap(x) for x in logical]
    flat = [piece for w in wrapped for piece in w]
    if len(flat) <= LINES:
        return [tuple(flat)]
    footer = wrapped.pop() if len(wrapped) > 1 and len(wrapped[-1]) == 1 else []
    room = LINES - len(footer)
    out: list[list[str]] = []
    current: list[str] = []
    for w in wrapped:
        w = [piece for piece in w if piece]            # spacing lines: no room for them
        if current and len(current) + len(w) > room:   # a line's pieces stay together
            out.append(current)
            current = []
        for piece in w:
            if len(current) == room:
                out.append(current)
                current = []
            current.append(piece)
    if current:
        out.append(current)
    return [tuple(p + footer) for p in out]


def page_at(count: int, since: float, now: float) -> int:
    """The page of `count` shown at `now` when the screen was first shown at `since`."""
    return int(max(0.0, now - since) // PAGE_S) % max(1, count)


def words(text: str) -> list[str]:
    """The words of a text as the OLED must show them whole (after rule 2)."""
    return abbreviate(printable(text)).split()
