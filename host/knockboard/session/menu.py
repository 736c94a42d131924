"""The on-board menu, a mode of the session: MENU shows the next entry, OK chooses or changes
it, BACK leaves.

Entries: back to the game, once a single game is over its review (`review_mode.py`), a hint
(the strong bot's move for a person to play), in a remote
game resigning and offering to end it (`remote_end.py`), undo, redo, new game, once the game
is over quitting (the program ends), the game (among those the connected board can play),
the number of players, each seat (person or computer), the players' names (`naming.py`,
at once), the dice (electronic or physical), edit mode, the board test (`testing.py`), and
for K.O. the rounds of a match.  Game,
players, rounds and seats take effect at "New game"; a seat changed during a game also
changes who plays it now.

Each entry is a Command: its label and the action OK runs.  An action that changes a
setting leaves the menu open; the others close it or leave it for another mode."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Callable, NamedTuple

from .. import registry
from ..games import get_game
from ..layouts import get_layout
from ..store.database import StoreError
from . import oled, remote_end
from .adapters import get_ui
from .modes import Mode, Over
from .naming import NamingMode
from .review_mode import ReviewMode, keep_in, reviewable
from .seats import HUMAN, LEVELS, level_of
from .rounds import show_totals, total_label
from .testing import BoardTestMode
from .types import BACK_KEY, MENU, MENU_KEY, PLAYING

if TYPE_CHECKING:
    from .session import Session
    from .setup import Setup
    from .types import View

ROUND_CHOICES = (1, 2, 3, 4, 5)     # a K.O. match's rounds, as the menu offers them
# a seat's entry offers a person and the levels, weakest first (a seat set to a bot by its
# name, `--bots 2=random` or a saved game, goes on to the level after the one it plays as)
CYCLE = (HUMAN,) + LEVELS


class Command(NamedTuple):
    action: Callable     # action(session), run when OK is pressed on the entry
    label: str


class MenuMode(Mode):
    name = MENU
    holds_undo = False
    refusal = "menu: BACK=leave"

    def __init__(self, session: Session, back: Mode) -> None:
        super().__init__(session)
        self.back = back          # the mode the menu was opened from
        self.index = 0
        self.ending = False       # "End game" chosen once: OK again ends it
        self.resigning = False    # "Resign" chosen once: OK again resigns

    def entries(self) -> list[Command]:
        s = self.s
        setup = s.next_setup
        out = [Command(_resume, "Back to game")] + _review_entry(s, self.back)
        if s.can_hint():
            out.append(Command(_hint, "Hint"))
        if s.remote is not None:
            # what the homes can agree on (remote_end.py); undo and edit are offered to say
            # why not; leaving keeps the game in both records, to be resumed
            if s.mode_beneath_plays():
                out += [Command(_resign, "Resign? OK=yes" if self.resigning else "Resign"),
                        Command(_end, "End: sure? OK" if self.ending else "End game (agree)")]
            return out + [Command(_undo, "Undo"), Command(_edit, "Edit board"),
                          Command(_leave, "Leave game")]
        out += [Command(_undo, "Undo"), Command(_redo, "Redo")]
        if s.mode_beneath_plays():
            out.append(Command(_end, "End: sure? OK" if self.ending else "End game (agree)"))
        elif s.between_rounds():
            # the players may stop a match after any round: scored by the rounds played
            out.append(Command(_end, "End: sure? OK" if self.ending else "End match"))
        if s.match is not None:
            out.append(Command(show_totals, total_label(s)))
        out.append(Command(_new_game, "New game"))
        if not s.mode_beneath_plays() and not s.between_rounds():
            out.append(Command(_leave, "Quit"))     # the game is over: the program may end
        out.append(Command(_next_game, "Game: " + get_game(setup.game).title))
        if len(players_choices(setup.game)) > 1:
            out.append(Command(_next_players, f"Players: {setup.players}"))
        if registry.part(setup.game, "match") is not None:
            out.append(Command(_next_rounds, f"Rounds: {setup.rounds}"))
        for seat, name in enumerate(seat_names(setup)):
            kind = setup.seats[seat]
            out.append(Command(partial(_next_seat, seat), f"{name}: " +
                               ("person" if kind == HUMAN else kind)))
        out.append(Command(_names, "Names"))
        out.append(Command(_toggle_dice,
                           "Dice: " + ("physical" if setup.physical_dice else "screen")))
        out.append(Command(_edit, "Edit board"))
        out.append(Command(_board_test, "Board test"))
        return out

    def current(self) -> Command:
        entries = self.entries()
        self.index %= len(entries)
        return entries[self.index]

    def next(self) -> None:
        self.ending = self.resigning = False
        self.index = (self.index + 1) % len(self.entries())

    def control(self, key: int) -> None:
        if key == MENU_KEY:
            self.next()
            self.s.sound("click")
        elif key == BACK_KEY:
            self.s.close_menu()
        else:
            command = self.current()
            self.s.sound("click")
            command.action(self.s)

    def lines(self, view: View) -> list[str]:
        entry = "> " + self.current().label
        if len(oled.wrap(entry)) > 1:     # a long entry takes the title's line too
            return [entry, "OK BACK MENU=nxt"]
        return ["Menu", entry, "OK BACK MENU=nxt"]


# --- the commands ---------------------------------------------------------------------------
def _resume(session: Session) -> None:
    session.close_menu()


def _hint(session: Session) -> None:
    session.close_menu()
    # closing the menu may have let a seat just made a computer player move, and the dice
    # after it: then nobody at the board is to choose
    if session.mode == PLAYING and session.interaction is not None \
            and session.animation is None:
        session.show_hint()
    else:
        session.refuse("no move to hint")


def _asked_again(session: Session, flag: str) -> bool:
    """True at the second OK of an entry that asks once more (its question shown while
    the menu's `flag` is set); the first OK only sets it."""
    menu = session.menu
    assert menu is not None
    if getattr(menu, flag):
        return True
    setattr(menu, flag, True)
    return False


def _end(session: Session) -> None:
    """Ending asks once more: a second OK on "End: sure? OK"."""
    if not _asked_again(session, "ending"):
        return
    if session.remote is None:
        session.end_by_agreement()
        return
    session.close_menu()
    remote_end.offer_end(session)        # the other homes are asked first


def _resign(session: Session) -> None:
    """Resigning asks once more too: a second OK on "Resign? OK=yes"."""
    if not _asked_again(session, "resigning"):
        return
    session.close_menu()
    remote_end.resign(session)


def _leave(session: Session) -> None:
    session.close_menu()
    session.leave()


def _review_entry(session: Session, back: Mode) -> list[Command]:
    """"Review", once a single game at this board is over and can be reviewed."""
    if session.remote is None and session.match is None and isinstance(back, Over) \
            and reviewable(session.record, session.state):
        return [Command(_review, "Review")]
    return []


def _review(session: Session) -> None:
    menu = session.menu
    assert menu is not None
    saver = session.saver
    keep = None
    if saver is not None and saver.game_id is not None:
        # the stored game's start time, which the kept review must name (`review/saved.py`)
        # and the session's record may not have: the store stamps a new game's row itself
        try:
            started = saver.store.get(saver.game_id).started
        except StoreError as error:
            session.term.log(f"  review: not kept for `knockboard show`: {error}")
        else:
            keep = keep_in(saver.store.path, saver.game_id, started)
    session.switch_to(ReviewMode(session, menu.back, session.record, session.ui, keep=keep))


def _undo(session: Session) -> None:
    session.close_menu()
    session.undo()


def _redo(session: Session) -> None:
    session.close_menu()
    session.redo()


def _new_game(session: Session) -> None:
    session.start(session.next_setup)


def _edit(session: Session) -> None:
    menu = session.menu                  # the command runs from the menu
    assert menu is not None
    if session.record.agreed:
        session.refuse("game ended")     # the record says how it ended
        return
    if session.remote is not None:
        session.refuse("remote: no edit")   # the other homes play on from the record
        return
    session.open_edit("press a cell", back=menu.back)


def _board_test(session: Session) -> None:
    menu = session.menu
    assert menu is not None
    session.switch_to(BoardTestMode(session, back=menu.back))


def _next_game(session: Session) -> None:
    setup = session.next_setup
    games = session.playable_games()
    setup.set_game(games[(games.index(setup.game) + 1) % len(games)])


def _next_players(session: Session) -> None:
    setup = session.next_setup
    choices = players_choices(setup.game)
    setup.set_players(choices[(choices.index(setup.players) + 1) % len(choices)])


def _next_rounds(session: Session) -> None:
    setup = session.next_setup
    later = [n for n in ROUND_CHOICES if n > setup.rounds]
    setup.rounds = later[0] if later else ROUND_CHOICES[0]


def _next_seat(seat: int, session: Session) -> None:
    setup = session.next_setup
    # a person, or `random`, which plays below every level: easy comes next
    now = level_of(setup.seats[seat]) or HUMAN
    setup.seats[seat] = CYCLE[(CYCLE.index(now) + 1) % len(CYCLE)]
    session.seat_changed(seat, setup.seats[seat])


def _names(session: Session) -> None:
    menu = session.menu
    assert menu is not None
    session.switch_to(NamingMode(session, menu))


def _toggle_dice(session: Session) -> None:
    setup = session.next_setup
    setup.physical_dice = not setup.physical_dice
    session.dice_changed(setup.physical_dice)


def seat_names(setup: Setup) -> list[str]:
    """The seats of the game set up, named as at the table ("Red", "White"); a two-colour
    K.O. seat by its initials ("R+Y"), so that the menu's line holds its kind too."""
    ui = get_ui(get_game(setup.game, **setup.options), get_layout(setup.game))
    names = [ui.seat_name(seat) for seat in range(setup.players)]
    return [n if len(n) <= 7 else "+".join(part[:1] for part in n.split("+")) for n in names]


def players_choices(game_name: str) -> list[int]:
    """The player counts a game can be played with (its `players` option, else fixed)."""
    game = get_game(game_name)
    option = type(game).OPTIONS.get("players")
    if option is None:
        return [game.num_players]
    allowed = option[1]
    if callable(allowed):
        return [n for n in (2, 3, 4) if _accepts(allowed, n)]
    return sorted(allowed)


def _accepts(check: Callable[[int], object], n: int) -> bool:
    try:
        check(n)
        return True
    except Exception:
        return False
