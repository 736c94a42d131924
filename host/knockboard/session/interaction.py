"""The interaction controller: turns presses into one of the player's legal actions.

Press a piece: it is selected and its targets light up.  Press a target: that action is
played (when several actions share the presses, e.g. a Dodgeball move payable with a 3 or
a 5, the OLED offers them in turn: MENU or the same cell again shows the next, OK plays
it).  Pressing the selected piece again, BACK, or a cell that is no target cancels the
selection; a cell that is another movable piece selects that one instead.  With nothing
selected, a press on a cell that starts no legal action is illegal: the session flashes it
red and buzzes, and nothing changes.  Actions without cells (pass, catch, dodge, end) are
offered on the OLED by OK, or at once when they are the only ones."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final, Optional

from .types import PASS

if TYPE_CHECKING:
    from ..games.base import Action
    from .types import Option

PLAY, ILLEGAL, CHANGED, IGNORED, OPEN_MENU = "play", "illegal", "changed", "ignored", "menu"
HOLD = "hold"              # OK on a pass offered among moves: played only if OK is held
CANCELLED = "cancelled"    # a press that is no target of the selected piece: selection gone


@dataclass(frozen=True)
class Result:
    kind: str
    action: Optional[Action] = None
    option: Optional[Option] = None


MENU_ENTRY: Final = None   # the last entry of every OLED choice: open the menu


class Interaction:
    def __init__(self, options: list[Option]) -> None:
        self.options = list(options)
        self.prefix: tuple[int, ...] = ()           # cells pressed so far
        self.choice: Optional[list[Option]] = None   # the Options offered on the OLED
        self.index = 0
        self.forced = False        # a choice the player cannot cancel (catch or dodge)
        if self.options and all(not o.path for o in self.options):
            self._offer([o for o in self.options], forced=True)

    # --- queries for the scene and the OLED --------------------------------------------------
    @property
    def selected(self) -> Optional[int]:
        return self.prefix[0] if self.prefix else None

    def current(self) -> Optional[Option]:
        """The Option shown on the OLED (MENU_ENTRY for the menu entry), or None."""
        if self.choice is None:
            return None
        return self.choice[self.index] if self.index < len(self.choice) else MENU_ENTRY

    def movable(self) -> dict[int, str]:
        """Cells that start a legal action: {cell: "piece" | "single"}."""
        out: dict[int, str] = {}
        for o in self.options:
            if o.path:
                role = "piece" if len(o.path) > 1 else "single"
                if out.get(o.path[0]) != "piece":
                    out[o.path[0]] = role
        return out

    def targets(self) -> dict[int, str]:
        """With a piece selected: {target cell: "move" | "knock"}."""
        out: dict[int, str] = {}
        if self.prefix:
            for o in self.options:
                if len(o.path) > len(self.prefix) and o.path[:len(self.prefix)] == self.prefix:
                    out.setdefault(o.path[len(self.prefix)], o.kind)
        return out

    def has_oled_actions(self) -> bool:
        return any(not o.path for o in self.options)

    # --- input -------------------------------------------------------------------------------
    def press(self, cell: int) -> Result:
        if self.choice is not None:
            shown = self.current()
            path = shown.path if shown is not MENU_ENTRY else self.choice[0].path
            if path and cell == path[-1]:
                return self.next()
            if self.forced:
                return Result(ILLEGAL)
            self._cancel()
        if self.prefix:
            if cell == self.prefix[-1]:
                done = [o for o in self.options if o.path == self.prefix]
                if done:
                    return self._complete(done)
                self._cancel()
                return Result(CHANGED)
            path = self.prefix + (cell,)
            nxt = [o for o in self.options if o.path[:len(path)] == path]
            if nxt:
                return self._advance(path, nxt)
            landed = self._landing(cell)
            if landed is not None:
                return landed
            self._cancel()
            if any(o.path[:1] == (cell,) for o in self.options):
                return self.press(cell)     # another piece of the player's: select it
            return Result(CANCELLED)
        path = (cell,)
        nxt = [o for o in self.options if o.path[:1] == path]
        if not nxt:
            return Result(ILLEGAL)
        return self._advance(path, nxt)

    def ok(self) -> Result:
        if self.choice is not None:
            shown = self.current()
            if shown is MENU_ENTRY:
                return Result(OPEN_MENU)
            if shown.kind == PASS and not self.forced:
                # the OK that confirmed a step, pressed on, must not give the turn away
                return Result(HOLD, shown.action, shown)
            return Result(PLAY, shown.action, shown)
        if not self.prefix and self.has_oled_actions():
            self._offer([o for o in self.options if not o.path])
            return Result(CHANGED)
        return Result(IGNORED)

    def back(self) -> Result:
        if (self.choice is not None and not self.forced) or self.prefix:
            self._cancel()
            return Result(CHANGED)
        return Result(IGNORED)

    def menu(self) -> Result:
        if self.choice is not None:
            return self.next()
        return Result(OPEN_MENU)

    def next(self) -> Result:
        self.index = (self.index + 1) % (len(self.choice or ()) + 1)
        return Result(CHANGED)

    # --- inner -------------------------------------------------------------------------------
    def _landing(self, cell: int) -> Optional[Result]:
        """The selected piece's one option that lands on `cell`, played as if its last
        cell had been pressed (the pressed cells are the option's path then); None when
        no option, or more than one, ends there."""
        depth = len(self.prefix) + 1
        ends = [o for o in self.options if o.landing == cell and len(o.path) == depth
                and o.path[:depth - 1] == self.prefix]
        if len(ends) != 1:
            return None
        o = replace(ends[0], path=self.prefix + (cell,))
        return Result(PLAY, o.action, o)

    def _advance(self, path: tuple[int, ...], candidates: list[Option]) -> Result:
        complete = [o for o in candidates if o.path == path]
        if complete and len(complete) == len(candidates):
            return self._complete(complete)
        self.prefix = path
        return Result(CHANGED)

    def _complete(self, options: list[Option]) -> Result:
        if len(options) == 1:
            o = options[0]
            return Result(PLAY, o.action, o)
        self.prefix = options[0].path
        self._offer(options)
        return Result(CHANGED)

    def _offer(self, options: list[Option], forced: bool = False) -> None:
        self.choice = sorted(options, key=lambda o: (o.order, o.label))
        self.index = 0
        self.forced = forced

    def _cancel(self) -> None:
        self.prefix = ()
        self.choice = None
        self.index = 0
        self.forced = False
