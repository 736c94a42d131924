"""The session's modes while a game is played: nothing to do yet (the session moves the game
on), a person choosing a move, hand steps being shown, physical dice being entered, the game
over.  The menu and edit mode are modes too (`menu.py`, `editing.py`).

The session hands every press and control to its current mode and asks it for the OLED's
lines and the LEDs' highlights; a mode changes the session's mode by asking it
(`session.switch_to`), never by setting its fields.  A mode's `name` is what
`Session.mode` reports."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..device.protocol import BLINK, CHASE, PULSE
from . import scene as S
from .animation import ADVANCED, WRONG
from .dice_entry import DONE, OPEN_MENU as DICE_MENU
from .interaction import (CANCELLED, HOLD, IGNORED, ILLEGAL, MENU_ENTRY, OPEN_MENU, PLAY,
                          Result)
from .types import (BACK_KEY, DICE, HOLD_S, MENU_KEY, OK_KEY, OVER, PASS, PLAYING,
                    REMOTE, ROLL_TITLE, clip)

if TYPE_CHECKING:
    from ..device.protocol import Cell, Scene
    from .animation import Animation
    from .dice_entry import DiceEntry
    from .interaction import Interaction
    from .interaction import Result as InteractionResult
    from .session import Session
    from .types import Option, Step, View


class Mode:
    name = PLAYING
    idle = False              # nothing for anyone to do: the session moves the game on
    holds_undo = True         # BACK held down undoes
    back_arms_undo = True     # a BACK press here may become an undo when held
    kept_through_edit = False  # leaving edit mode without a change comes back to this mode
    refusal = "not now"       # why a cell press does nothing in this mode

    def __init__(self, session: Session) -> None:
        self.s = session

    def press(self, cell: int) -> None:
        self.s.illegal(cell, self.refusal)

    def release(self, cell: int) -> None:
        """A cell's key let go: only the board test looks at releases."""

    def control(self, key: int) -> None:
        if key == MENU_KEY:
            self.s.open_menu()

    def lines(self, view: View) -> list[str]:
        return [view.status]

    def dice(self, view: View) -> Optional[tuple[tuple[int, ...], int, str]]:
        """The dice this mode draws, (dice, kind, whose), or None: the session's rule
        (`Session.shown_dice`: the turn's dice still to be used, else the last roll)."""
        return None

    def highlights(self, view: View) -> dict[int, Cell]:
        return {}

    def scene(self, view: View) -> Scene:
        hl = self.highlights(view)
        self.s.add_flash(hl)
        return S.build(self.s.ui, view, hl)

    def resumed(self) -> Mode:
        """The mode to come back to when the menu closes."""
        return self

    def tick(self, now: float) -> bool:
        """Called on every step of the session: a mode that goes on by itself after a
        while does it here, and returns True."""
        return False


class Waiting(Mode):
    """Between two things to do: electronic dice, computer players, the next person."""
    idle = True
    kept_through_edit = True


class Choosing(Mode):
    """A person at the board chooses a legal action with presses (`interaction.py`)."""
    kept_through_edit = True

    def __init__(self, session: Session, interaction: Interaction) -> None:
        super().__init__(session)
        self.interaction = interaction
        self.holding: Optional[InteractionResult] = None   # a pass waiting for OK held

    def press(self, cell: int) -> None:
        self.holding = None
        self._result(self.interaction.press(cell), cell)

    def control(self, key: int) -> None:
        it = self.interaction
        handler = {OK_KEY: it.ok, BACK_KEY: it.back, MENU_KEY: it.menu}[key]
        self.holding = None
        self._result(handler())

    def tick(self, now: float) -> bool:
        """A pass is played once OK has been held HOLD_S; let go sooner, it is not."""
        held = self.holding
        if held is None:
            return False
        s = self.s
        if s.ok_down is None:
            self.holding = None
            s.say("hold OK to pass")
            s.sound("error")
        elif now - s.ok_down >= HOLD_S:
            self.holding = None
            self._result(Result(PLAY, held.action, held.option))
        return True

    def _result(self, result: InteractionResult, cell: Optional[int] = None) -> None:
        s = self.s
        if result.kind == PLAY:
            s.sound("ok")
            s.apply(result.action, option=result.option)
            s.advance()
        elif result.kind == ILLEGAL and cell is not None:    # only a press is illegal
            s.illegal(cell, self._refusal(cell))
        elif result.kind == HOLD:
            self.holding = result
            s.sound("click")
        elif result.kind == CANCELLED:
            s.say("no move there")
            s.sound("click")
        elif result.kind == OPEN_MENU:
            s.open_menu()
        elif result.kind != IGNORED:
            s.sound("click")

    def _refusal(self, cell: int) -> str:
        if self.interaction.forced:
            return "answer: OK/MENU"
        s = self.s
        return s.ui.refusal(s.state, self.interaction.options, s.layout.space_of(cell))

    def resumed(self) -> Mode:
        if self.s.state.current_player() in self.s.bots:
            return Waiting(self.s)           # that seat became a computer player
        return self

    def lines(self, view: View) -> list[str]:
        it, s = self.interaction, self.s
        prompt = s.ui.prompt(s.state)
        if it.choice is not None:
            shown = it.current()
            if shown is MENU_ENTRY:
                return [prompt, "> menu", "OK=open MENU=nxt"]
            if self.holding is not None:
                return [prompt, "> " + shown.label, "keep OK held..."]
            count = f"MENU {it.index + 1}/{len(it.choice)}"
            if shown.kind == PASS and not it.forced:
                return [prompt, "> " + shown.label, "hold OK " + count]
            return [prompt, "> " + shown.label, "OK=play " + count]
        if it.selected is not None:
            return [prompt, f"{s.layout.space_of(it.selected)}: to where?", "BACK=cancel"]
        extra = [o.label for o in it.options if not o.path]
        status = s.shown_dice(view)[2] or view.status    # a roll nobody spends: whose
        return [prompt, status, clip("OK: " + "/".join(extra)) if extra else ""]

    def highlights(self, view: View) -> dict[int, Cell]:
        it = self.interaction
        hl: dict[int, Cell] = {}
        target = S.target_rgb(self.s.ui)
        if it.choice is not None:
            self._choice_highlights(view, hl, target, it.choice)
        elif it.selected is not None:
            hl[it.selected] = S.cell(self._rgb_at(view, it.selected), BLINK)
            for c, kind in it.targets().items():
                hl[c] = S.cell(target, BLINK if kind == "knock" else PULSE)
        else:
            for c, role in it.movable().items():
                hl[c] = S.cell(self._rgb_at(view, c) if role == "piece" else target, PULSE)
        for c in self.s.hint:
            hl[c] = S.cell(self.s.ui.HINT, CHASE)
        return hl

    def _choice_highlights(self, view: View, hl: dict[int, Cell],
                           target: tuple[int, int, int], choice: list[Option]) -> None:
        """The presses of the action shown on the OLED: its cells blink."""
        shown = self.interaction.current()
        path = shown.path if shown is not MENU_ENTRY else choice[0].path
        for c in path[:-1]:
            hl[c] = S.cell(self._rgb_at(view, c), BLINK)
        if path:
            hl[path[-1]] = S.cell(target, BLINK)

    def _rgb_at(self, view: View, cell: int) -> tuple[int, int, int]:
        ui = self.s.ui
        piece = view.pieces.get(self.s.layout.space_of(cell))
        return S.target_rgb(ui) if piece is None else S.piece_rgb(ui, piece)


class Showing(Mode):
    """The steps the players make with the physical pieces, one at a time (`animation.py`):
    done with OK or by pressing the cells a step names."""
    kept_through_edit = True

    def __init__(self, session: Session, animation: Animation,
                 dice: Optional[tuple[tuple[int, ...], int, str]] = None) -> None:
        super().__init__(session)
        self.animation = animation
        self.since = session.clock()     # when the step shown now was shown
        # (dice, kind, whose) drawn while the steps are made: the roll they follow from,
        # or the dice a computer's turn began with; None: the session's rule
        self.shown = dice

    def dice(self, view: View) -> Optional[tuple[tuple[int, ...], int, str]]:
        return self.shown

    def press(self, cell: int) -> None:
        got = self.animation.press(self.s.layout.space_of(cell))
        if got == WRONG:
            presses = self._step().presses()
            wanted = presses[self.animation.pressed] if presses else None
            self.s.illegal(cell, f"press {wanted} or OK" if wanted else "read it: OK")
            return
        self.s.sound("click")
        if got == ADVANCED:
            self._advanced()

    def control(self, key: int) -> None:
        if key == OK_KEY:
            self.animation.ok()
            self.s.sound("click")
            self._advanced()
        elif key == MENU_KEY:
            self.s.open_menu()

    def tick(self, now: float) -> bool:
        # with the session's pace (the demo) a step is done once it has been shown that long
        if self.s.pace is None or now - self.since < self.s.pace:
            return False
        self.control(OK_KEY)
        return True

    def resumed(self) -> Mode:
        self.since = self.s.clock()      # the step gets its whole pace again after the menu
        return self

    def _advanced(self) -> None:
        self.since = self.s.clock()
        if self.animation.done:
            if self.animation.title == ROLL_TITLE:
                self.s.spend_roll()
            self.s.switch_to(Waiting(self.s))
            self.s.advance()

    def _step(self) -> Step:
        step = self.animation.step
        assert step is not None, "a finished animation is no longer shown"
        return step

    def lines(self, view: View) -> list[str]:
        a = self.animation
        count = f"{a.index + 1}/{len(a.steps)}"
        done = f"OK when done {count}" if len(count) <= 3 else f"OK=done {count}"
        # the second line says whose the steps (and the dice drawn) are
        whose = self.shown[2] if self.shown and self.shown[2] else a.title
        return [self._step().text, whose, done]

    def highlights(self, view: View) -> dict[int, Cell]:
        s = self.s
        hl: dict[int, Cell] = {}
        step = self._step()
        owner_rgb = s.ui.color(step.owner) if step.owner >= 0 else S.WHITE
        if step.src:
            effect_rgb = S.RED if step.kind == "remove" else owner_rgb
            hl[s.layout.cell(step.src).index] = S.cell(effect_rgb, BLINK)
        if step.dst:
            hl[s.layout.cell(step.dst).index] = S.cell(S.target_rgb(s.ui), PULSE)
        return hl


class EnteringDice(Mode):
    """The values of real dice entered on the board (`dice_entry.py`)."""
    name = DICE
    refusal = "dice: MENU, OK"

    def __init__(self, session: Session, entry: DiceEntry) -> None:
        super().__init__(session)
        self.entry = entry

    def control(self, key: int) -> None:
        entry = self.entry
        if key == MENU_KEY:
            entry.menu()
        elif key == BACK_KEY:
            entry.back()
        else:
            got = entry.ok()
            if got == DICE_MENU:
                self.s.open_menu()
            elif got == DONE:
                self._entered()
                return
        self.s.sound("click")

    def _entered(self) -> None:
        s = self.s
        outcome = s.ui.outcome_for(s.state, self.entry.values)
        if outcome is None:
            s.refuse("no such roll")
            self.entry.values.clear()
            return
        s.apply(outcome)
        s.advance()

    def resumed(self) -> Mode:
        # the dice were switched to the screen's meanwhile: the session rolls them
        return self if self.s.setup.physical_dice else Waiting(self.s)

    def dice(self, view: View) -> Optional[tuple[tuple[int, ...], int, str]]:
        # the dice entered so far, nothing older (a roll-off's dice are spent by now)
        return tuple(self.entry.values), self.entry.kind, ""

    def lines(self, view: View) -> list[str]:
        e = self.entry
        shown = "menu" if e.on_menu else str(e.current)
        count = f" {len(e.values) + 1}/{len(e.labels)}" if len(e.labels) > 1 else ""
        return [e.label + count, f"value: {shown}", "MENU=+1 OK=set"]


class AwaitingRemote(Mode):
    """A remote game waits for another home: a move, its share of the dice, or a board
    that is away (its network, the broker).  Presses here are not this board's to make."""
    name = REMOTE
    holds_undo = False
    back_arms_undo = False
    refusal = "other board's turn"

    def control(self, key: int) -> None:
        if key == MENU_KEY:
            self.s.open_menu()

    def lines(self, view: View) -> list[str]:
        assert self.s.remote is not None      # the session waits in this mode only then
        return ["waiting for the", "other board", self.s.remote.status(self.s.ui)]


class Over(Mode):
    """The game is over: OK or MENU opens the menu (for a new game)."""
    name = OVER
    refusal = "game over"

    def control(self, key: int) -> None:
        if key in (OK_KEY, MENU_KEY):
            self.s.open_menu()

    def dice(self, view: View) -> Optional[tuple[tuple[int, ...], int, str]]:
        return (), 0, ""             # the game is decided: no die is left to use

    def lines(self, view: View) -> list[str]:
        s = self.s
        return ["Game over", s.ui.result(s.state) or "", s.ui.end_reason(s.state),
                self.next_line()]

    def next_line(self) -> str:
        # a remote game's menu starts no new game (a new game is a new room)
        return "MENU=new or quit" if self.s.remote is None else "MENU=leave"


class Agreed(Over):
    """The players ended the game by agreement; nothing of it is taken back (an undo is
    refused, saying so)."""

    def __init__(self, session: Session, verdict: str) -> None:
        super().__init__(session)
        self.verdict = verdict

    def lines(self, view: View) -> list[str]:
        return ["By agreement:", self.verdict, self.next_line()]
