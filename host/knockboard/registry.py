"""Every game's parts, registered once.

A `GameEntry` names where each part of a game lives ("module:attribute", imported on first
use, so a command touching one game never imports the others) and holds the few figures
that are not code: the bots' value scale, the firmware's key matrix, the overlay's colours.
Every per-game table of the program reads this one: the engines (`games.get_game`), the
board layouts (`layouts.get_layout`), the session's adapters (`session.adapters.get_ui`),
the bots' scores and searches (`bots.heuristics`, `bots.strong`), the command line's game
choices, the game view's pieces (`gameview.looks`), the printable overlays
(`hardware/printed/overlay.py`) and the firmware's board list
(`firmware/boards.json`, written from `firmware_boards()`; a test keeps it in step).

This module imports nothing of the program but `suggest.py`, so `games/` reads it without
pulling in the layers above it.  Adding a game: its own files, one `register(GameEntry(...))`
here, and `python3 -m hardware.build` to write its board into the firmware's list and its
overlay.
"""

import importlib
from dataclasses import dataclass, field
from typing import Dict, Optional, Tuple

from .suggest import did_you_mean


class RegistryError(Exception):
    """A game's registration is incomplete, or one of its parts cannot be loaded."""


@dataclass(frozen=True)
class GameEntry:
    """One game.  The board id of the firmware is the game's name."""

    name: str
    engine: str            # the Game class
    layout: str            # a function building its standard board Layout
    adapter: str           # the session's GameUI class
    scorer: str            # score(state, player) for the bots (bots/heuristics.py)
    # The score difference that counts as a clear advantage: the bots value a position as
    # tanh(score / scale), or, with `linear`, as score / scale clipped inside (-1, 1).
    scale: float
    matrix: Tuple[int, int]          # the firmware's key matrix: rows, columns
    fills: Dict[str, str]            # overlay colour of each cell kind of the layout
    linear: bool = False
    board_note: str = ""             # a remark kept in firmware/boards.json
    search: Optional[str] = None     # a whole-turn search replacing the strong bot's own
    mixed: Optional[str] = None      # which decisions the bots play as a mixed strategy
    look: Optional[str] = None       # how the game view draws its pieces (else plain discs)
    match: Optional[str] = None      # a match of several rounds adding points (else none)
    _loaded: dict = field(default_factory=dict, init=False, compare=False, repr=False)

    REQUIRED = ("engine", "layout", "adapter", "scorer", "scale", "matrix", "fills")

    def load(self, part: str):
        """The object a part names, imported on first use; None for an optional part the
        game does without.  RegistryError if the module or the attribute is missing."""
        if part in self._loaded:
            return self._loaded[part]
        target = getattr(self, part)
        obj = None if target is None else _import(self.name, part, target)
        self._loaded[part] = obj
        return obj

    @property
    def title(self) -> str:
        """The game's name for people, as its engine gives it."""
        return self.load("engine").title


def _import(game: str, part: str, target: str):
    module_name, _, attr = target.partition(":")
    try:
        return getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as err:
        raise RegistryError(f"game {game!r}: its {part} {target!r} cannot be loaded "
                            f"({err})") from None


_ENTRIES: Dict[str, GameEntry] = {}


def register(entry: GameEntry) -> GameEntry:
    """Add a game; RegistryError naming the parts it lacks or a name already taken."""
    missing = [p for p in GameEntry.REQUIRED if getattr(entry, p) in (None, "", {}, ())]
    if missing:
        raise RegistryError(f"game {entry.name!r} is registered without its "
                            f"{', '.join(missing)}")
    if not entry.name or entry.name in _ENTRIES:
        raise RegistryError(f"game name {entry.name!r} is empty or already registered")
    for part in ("engine", "layout", "adapter", "scorer", "search", "mixed", "look", "match"):
        target = getattr(entry, part)
        if target is not None and not _is_target(target):
            raise RegistryError(f"game {entry.name!r}: its {part} {target!r} is not "
                                "'module:attribute'")
    _ENTRIES[entry.name] = entry
    return entry


def _is_target(target) -> bool:
    module_name, colon, attr = str(target).partition(":")
    return bool(module_name and colon and attr)


def unregister(name: str) -> None:
    """Remove a game (a test's throwaway game); KeyError if it is not registered."""
    del _ENTRIES[name]


def names() -> list:
    return sorted(_ENTRIES)


def entry(name: str) -> GameEntry:
    """The registration of `name`; KeyError listing the known games otherwise."""
    try:
        return _ENTRIES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r} (known: {', '.join(names())})") from None


def _folded(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())


def find_name(text: str, noun: str = "game") -> str:
    """The game `text` names, as people write it: its name or its printed title in any case
    and punctuation ("KNOCKabout", "Knock-Off", "knock off", "K.O.", "ko"). KeyError with
    the nearest name and the known ones otherwise (`noun`: what the text was to name; a
    board's id is its game's name)."""
    folded = _folded(text)
    for name in names():
        if _folded(name) == folded:
            return name
    for name in names():             # the titles need the engines: only on a miss
        try:
            if _folded(entry(name).title) == folded:
                return name
        except RegistryError:
            continue
    raise KeyError(f"unknown {noun} {text!r}{did_you_mean(text, names(), _folded)} "
                   f"(known: {', '.join(names())})")


def part(name: str, part_name: str):
    """Shorthand for entry(name).load(part_name)."""
    return entry(name).load(part_name)


def firmware_boards() -> dict:
    """firmware/boards.json as the registry makes it: per board id its title, cell count
    (the layout's) and key matrix."""
    from .layouts import get_layout
    out = {}
    for name, e in _ENTRIES.items():
        rows, cols = e.matrix
        board = {"name": e.title, "cells": len(get_layout(name).cells), "rows": rows,
                 "cols": cols}
        if e.board_note:
            board["note"] = e.board_note
        out[name] = board
    return out


def firmware_boards_json(boards: Optional[dict] = None) -> str:
    """The text of firmware/boards.json: one board a line, in registration order."""
    import json
    boards = firmware_boards() if boards is None else boards
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in boards.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


_LEVELS = ("#e3f2fd", "#bbdefb", "#90caf9", "#64b5f6", "#42a5f5", "#1e88e5", "#1565c0",
           "#0d47a1")

for _entry in (
    GameEntry("knockabout", engine="knockboard.games.knockabout.game:KnockaboutGame",
              layout="knockboard.layouts.boards:knockabout",
              adapter="knockboard.session.adapters.knockabout:KnockaboutUI",
              look="knockboard.gameview.looks:KnockaboutLook",
              scorer="knockboard.bots.heuristics:knockabout", scale=3.0, matrix=(12, 11),
              fills={"main": "#ffffff", "gutter": "#d7ccc8"}),
    GameEntry("dodgeball", engine="knockboard.games.dodgeball.game:DodgeballGame",
              layout="knockboard.layouts.boards:dodgeball",
              adapter="knockboard.session.adapters.dodgeball:DodgeballUI",
              look="knockboard.gameview.looks:DodgeballLook",
              # Dodgeball is won only by throwing, and a throw is a gamble on pawns: a
              # concave value (tanh) makes the side ahead refuse every fair gamble and stall
              # the game for ever; linear is risk-neutral in pawns.
              scorer="knockboard.bots.heuristics:dodgeball", scale=7.5, linear=True,
              matrix=(8, 8), fills={"light": "#f5f0e6", "dark": "#a1887f"},
              search="knockboard.bots.dodgeball_search:choose",
              mixed="knockboard.bots.heuristics:dodgeball_declaration"),
    GameEntry("ko", engine="knockboard.games.ko.game:KOGame",
              layout="knockboard.layouts.boards:ko",
              adapter="knockboard.session.adapters.ko:KOUI",
              look="knockboard.gameview.looks:KOLook",
              match="knockboard.games.ko.match:KOMatch",
              scorer="knockboard.bots.heuristics:ko", scale=5.0, matrix=(9, 9),
              fills={"space": "#ffffff", "start-red": "#ef9a9a", "start-blue": "#90caf9",
                     "start-green": "#a5d6a7", "start-yellow": "#fff59d"}),
    GameEntry("knockoff", engine="knockboard.games.knockoff.game:KnockoffGame",
              layout="knockboard.layouts.boards:knockoff",
              adapter="knockboard.session.adapters.knockoff:KnockoffUI",
              look="knockboard.gameview.looks:KnockoffLook",
              scorer="knockboard.bots.heuristics:knockoff", scale=30.0, matrix=(7, 8),
              search="knockboard.bots.knockoff_search:choose",
              board_note="48 platforms + 4 home bases",
              fills={"home": "#ffe0b2",
                     **{f"level-{n}": c for n, c in enumerate(_LEVELS, 1)}}),
):
    register(_entry)

__all__ = ["GameEntry", "RegistryError", "entry", "find_name", "firmware_boards",
           "firmware_boards_json", "names", "part", "register", "unregister"]
