"""Naming the players from the board alone ("Names" in the menu), a mode of the session.

Seat by seat, MENU steps through what the seat may be called: its colour (no name), the
names played under in earlier saved games (names.py, from the store) and "spell a name";
OK takes the one shown and goes on to the next seat, BACK returns to the menu.  Spelling
steps through letters: MENU the next letter, a cell the one before, OK adds it, BACK takes
the last one back; OK on "end" keeps the name.  A name taken counts at once, for this game
and the ones the menu starts after it (`Session.name_seat`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from .modes import Mode
from .names import NAME_CHARS, names_used
from .oled import WIDTH
from .types import BACK_KEY, MENU_KEY

if TYPE_CHECKING:
    from .menu import MenuMode
    from .session import Session
    from .types import View

NAMING = "names"
SPELL = "spell a name"
END = "end"
# what spelling steps through: the letters, a space and a hyphen between names, the end
LETTERS = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + [" ", "-", END]


class NamingMode(Mode):
    name = NAMING
    holds_undo = False
    back_arms_undo = False
    refusal = "names: MENU=nxt"

    def __init__(self, session: Session, menu: MenuMode) -> None:
        super().__init__(session)
        self.menu = menu
        self.back = menu.back         # the game beneath, as the menu has it
        # the names given now first (taken back, they are offered again), then the store's,
        # read once: the store is not asked again at every MENU
        given = [n for n in session.ui.names if n]
        self.used = given + [n for n in names_used(
            session.saver.store if session.saver is not None else None) if n not in given]
        self.seat = 0
        self.index = 0
        self.spelt: Optional[str] = None    # the name being spelt; None: choosing
        self.letter = 0
        self._to_seat(0)

    # --- choosing ---------------------------------------------------------------------------
    def choices(self) -> list[str]:
        """What the seat may be called: "" (its colour), the names used before that no
        other seat has, and spelling one."""
        ui = self.s.ui
        taken = {ui.seat_name(s).casefold() for s in range(self.s.game.num_players)
                 if s != self.seat}
        taken |= {ui.colour_name(s).casefold() for s in range(self.s.game.num_players)}
        own = ui.names[self.seat] if self.seat < len(ui.names) else ""
        names = ([own] if own else []) + [n for n in self.used if n != own]
        return [""] + [n for n in names if n.casefold() not in taken] + [SPELL]

    def _to_seat(self, seat: int) -> None:
        self.seat, self.spelt = seat, None
        choices = self.choices()
        own = self.s.ui.seat_name(seat)
        self.index = choices.index(own) if own in choices else 0

    def control(self, key: int) -> None:
        self.s.sound("click")
        if self.spelt is not None:
            self._spell(key)
        elif key == MENU_KEY:
            self.index = (self.index + 1) % len(self.choices())
        elif key == BACK_KEY:
            self.s.switch_to(self.menu)
        else:
            choice = self.choices()[self.index % len(self.choices())]
            if choice == SPELL:
                self.spelt, self.letter = "", 0
            else:
                self._take(choice)

    def _take(self, name: str) -> None:
        """Name the seat; on to the next seat, after the last back to the menu."""
        if not self.s.name_seat(self.seat, name):
            return                        # refused: the OLED says why, the seat stays
        if self.seat + 1 < self.s.game.num_players:
            self._to_seat(self.seat + 1)
        else:
            self.s.switch_to(self.menu)

    # --- spelling ---------------------------------------------------------------------------
    def press(self, cell: int) -> None:
        if self.spelt is None:
            super().press(cell)
            return
        self.s.sound("click")
        self.letter = (self.letter - 1) % len(LETTERS)

    def _spell(self, key: int) -> None:
        spelt = self.spelt
        assert spelt is not None
        if key == MENU_KEY:
            self.letter = (self.letter + 1) % len(LETTERS)
        elif key == BACK_KEY:
            self.spelt = spelt[:-1] if spelt else None     # nothing left: back to choosing
        elif LETTERS[self.letter] == END:
            if spelt.strip():
                self._take(spelt.strip())
            else:
                self.s.say("no letter yet")
        elif len(spelt) >= NAME_CHARS:
            self.s.say(f"{NAME_CHARS} letters at most")
        else:
            letter = LETTERS[self.letter]
            # a name's first letter capital, the others small: "Ann", "Mary-Jo"
            capital = not spelt or spelt[-1] in " -"
            self.spelt = spelt + (letter if capital else letter.lower())

    # --- the screen -------------------------------------------------------------------------
    def lines(self, view: View) -> list[str]:
        colour = self.s.ui.colour_name(self.seat)
        if self.spelt is not None:
            letter = LETTERS[self.letter]
            shown = {" ": "space", END: "end: keep it"}.get(letter, letter)
            title = f"{colour}: {self.spelt}_"
            return [title if len(title) <= WIDTH else f"{self.spelt}_", f"> {shown}",
                    "OK=take BACK=del" if letter == END else "OK=add MENU=nxt"]
        choice = self.choices()[self.index % len(self.choices())]
        label = choice or "no name"
        return [f"Name of {colour}:", f"> {label}", "OK BACK MENU=nxt"]
