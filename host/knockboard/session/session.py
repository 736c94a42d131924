"""The session: one game on one board.  It reads the board's presses, asks the game's
adapter what they mean, plays legal actions on the engine, rolls or asks for dice, runs
the computer players, shows every step the players must make, and keeps the record.
What a press or a control means depends on the mode the board is in (`current`: a mode
object of `modes.py`, `menu.py` or `editing.py`); the session hands each one to it.

It talks to the board only through a `Board`-like object (set_scene, show, sound, poll,
info), so a real board, the pty simulator and the in-process test rigs are the same to it.
The host is the authority: the board shows, the session decides."""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence, TextIO

from ..bots import suggest
from ..bots.levels import playing_iterations
from ..device.protocol import BLINK, Display, KeyEvent, KeyState
from ..games import CHANCE, get_game, get_match, sample_chance
from ..layouts import get_layout, layout_names
from ..store import GameRecord
from . import oled, scene as S
from .adapters import get_ui
from .animation import Animation
from .dice_entry import DiceEntry
from .editing import Editing, steps_back, steps_forward
from .game_line import GameLine
from .interaction import Interaction
from .menu import MenuMode
from .names import name_error, names_error
from .pieces import show_pieces
from .modes import Agreed, AwaitingRemote, Choosing, EnteringDice, Over, Showing, Waiting
from .remote_end import finish as finish_remote, follow as follow_remote_end
from .rounds import BETWEEN_ROUNDS, agreed_standing, ended, undo_refusal
from .seats import HUMAN, REMOTE, STRONG_TIME_CAP_S, make_bot
from .terminal import Terminal
from .types import BACK_KEY, HOLD_S, MESSAGE_S, OK_KEY, ROLL_TITLE, Step, clip

if TYPE_CHECKING:
    from ..device.protocol import Cell, Scene
    from ..games.base import Action, State
    from ..layouts.base import Layout
    from ..remote.link import RemoteLink
    from .edit_presses import EditMode
    from .modes import Mode
    from .saving import RecordSaver
    from .setup import Setup
    from .types import BoardLike, Option, View

FLASH_S = 0.6       # an illegal press blinks red this long
SAVE_RETRY_S = 1.0  # a save that failed is tried again this often until it lands


def _values(dice: Sequence[int]) -> str:
    return " ".join(map(str, dice))


class SessionError(Exception):
    """The session cannot run on this board (one clear line)."""


def next_game_seed(seed: int) -> int:
    """The seed of the game the menu's "New game" starts after a game seeded `seed`."""
    return random.Random(f"{seed}:next game").randrange(1 << 31)


def ply_rng(seed: Optional[int], ply: int, *purpose: object) -> random.Random:
    """The generator of one random choice: the dice ("dice",) or a computer player's seed
    ("bot", seat) at `ply` (the record's length: an edit is a ply too).

    Each choice depends only on these, never on what was drawn before, so a game resumed
    from its record goes on exactly as it would have without the interruption, and the
    terminal demo plays the game the session plays from the same seed."""
    return random.Random(f"{seed}:{ply}:{purpose}")


class Session:
    def __init__(self, board: BoardLike, setup: Setup, *,
                 clock: Callable[[], float] = time.monotonic, out: Optional[TextIO] = None,
                 actions: Sequence[str] = (), saver: Optional[RecordSaver] = None,
                 resumed: bool = False, pace: Optional[float] = None,
                 remote: Optional[RemoteLink] = None) -> None:
        self.board = board
        # a remote game (`remote.link.RemoteLink`): the seats marked "remote" are played at
        # other homes; every entry comes from the agreed record of its RemoteGame
        self.remote = remote
        self.saver = saver         # keeps the game's record in the store (None: not saved)
        # seconds a hand step stays shown before the session goes on as if OK were pressed
        # (the demo: nobody moves pieces on the simulator); None: it waits for OK or presses
        self.pace = pace
        self.clock = clock
        self.term = Terminal(out)
        self.flash: Optional[tuple[int, float]] = None          # (cell index, until)
        self.message: Optional[tuple[str, float]] = None        # (text, until)
        self.back_down: Optional[float] = None      # when BACK went down, while it is held
        self.back_fired = False
        self.ok_down: Optional[float] = None        # when OK went down, while it is held
        self._sent_scene: Optional[Scene] = None
        self._sent_display: Optional[tuple] = None
        # the screen being shown (its pages, oled.pages) and when it was first shown
        self._screen: tuple = ((), 0.0)
        self.next_page: Optional[float] = None      # when a paged screen turns its page
        self.dirty = True
        self.running = True
        # the pieces as last sent to a board that draws them (pieces.py)
        self._sent_pieces: Optional[bytes] = None
        self.save_retry = 0.0       # when step() tries again a save that failed
        # the board's link as last seen: (connected, reconnects), see _watch_cable
        self._board_seen = (getattr(board, "connected", True), getattr(board, "reconnects", 0))
        self.start(setup, actions, resumed=resumed)

    # --- games ------------------------------------------------------------------------------
    def playable_games(self) -> list[str]:
        """The games whose layout is the connected board's (its board id)."""
        info = getattr(self.board, "info", None)
        board_id = getattr(info, "board", None)
        games = [g for g in layout_names() if get_layout(g).board_id == board_id]
        return games or [self.setup.game]

    def start(self, setup: Setup, actions: Sequence[str] = (), resumed: bool = False) -> None:
        """Begin a new game with `setup` (the menu's "New game" calls this too); `actions`
        (notation) are replayed first, to go on with a recorded game.  GameError if one of
        them is not legal.  A `resumed` game first shows where the pieces must stand (edit
        mode) and goes on when OK is pressed."""
        setup = setup.copy()
        if setup.seed is None:
            setup.seed = random.randrange(1 << 31)
        layout = get_layout(setup.game)
        self._check_board(setup.game, layout)
        self.setup = setup
        self.next_setup = setup.copy()
        # the menu's "New game" deals new dice: its seed follows from this game's, so a seeded
        # session stays replayable as a whole, but no game repeats the last one's roll-off
        self.next_setup.seed = next_game_seed(setup.seed)
        self.game = get_game(setup.game, **setup.options)
        # the OLED and the log say the players' names where a seat is meant (a turn, whose
        # dice, who won) and the colours where a piece is
        self.ui = get_ui(self.game, layout, self._usable_names(setup, layout))
        self.layout = layout
        record = GameRecord.seated(setup.game, setup.options, setup.seats, setup.seed,
                                   setup.physical_dice, setup.rounds)
        for seat, player in enumerate(record.players):
            # the name given (--names, the menu), else the seat's colour
            player["name"] = setup.name(seat) or self.ui.colour_name(seat)
        # the engine state, the record and what undo and redo keep (game_line.py); a K.O.
        # match (rounds.py) with the rounds over so far, None for a single game
        self.line = GameLine(self.game, record, get_match(self.game, setup.rounds))
        self.bots: dict[int, str] = {}     # seat -> the kind of computer player
        for seat, kind in enumerate(setup.seats):
            self.seat_changed(seat, kind)
        self.current: Mode = Waiting(self)        # the mode: what presses and controls do now
        self.hint: tuple[int, ...] = ()   # the cells of a suggested move, lit until one is played
        self.rolled: list[int] = []       # the dice of the last run of chance steps
        self.rolled_by: list[str] = []    # whose each of them is (adapter.dice_owners)
        # the dice a computer's (or another home's) turn began with, while its steps are
        # shown: (seat, dice, kind); None until it acts, forgotten at the next roll
        self.hand: Optional[tuple[int, tuple[int, ...], int]] = None
        self.last_was_chance = False
        self.rolled_kind = 6
        self.roll_fresh = False
        for text in actions:
            self.line.replay(text)
        if resumed:
            self.open_edit("resumed: set up", back=self.current)
        self.save()
        game_id = self.saver.game_id if self.saver is not None else None
        self.term.log((f"Resumed game {game_id}: " if resumed and game_id else
                       "Resumed game: " if resumed else "New game: ")
                      + f"{self.game.title}, seats "
                      + ", ".join(f"{self.who(i)}={k}"
                                  for i, k in enumerate(setup.seats))
                      + f", seed {setup.seed}" + (", physical dice" if setup.physical_dice
                                                  else "")
                      + (f", a match of {setup.rounds} rounds" if self.match else "")
                      + (f"; saved as game {game_id}" if game_id and not resumed else ""))
        self.advance()
        self.render()

    def _usable_names(self, setup: Setup, layout: Layout) -> list[str]:
        """The setup's names, if the board can say them: none (the seats' colours) when
        one is not a name for the OLED (a record from before the rule) or the game set up
        on the menu gave a named seat's name to another seat as its colour (Players: 3 made
        "Yellow" a seat); said once in the terminal.  The record keeps them as given."""
        names = list(setup.names)[:self.game.num_players]
        colours = get_ui(self.game, layout)
        error = names_error(names, [colours.colour_name(s)
                                    for s in range(self.game.num_players)])
        if error is None:
            return names
        self.term.log(f"Names not shown on the board: {error}")
        return []

    def _check_board(self, game: str, layout: Layout) -> None:
        info = getattr(self.board, "info", None)
        if info is not None and getattr(info, "cells", len(layout)) != len(layout):
            raise SessionError(f"the connected board is a {info.board!r} board with "
                               f"{info.cells} cells; {game} needs its own board "
                               f"({len(layout)} cells)")

    def seat_changed(self, seat: int, kind: str) -> None:
        if seat >= self.game.num_players:
            return
        self.setup.seats[seat] = kind
        self.line.set_seat(seat, kind)
        if kind in (HUMAN, REMOTE):
            self.bots.pop(seat, None)
        else:
            make_bot(kind, 0, self.game.name)   # refuses an unknown kind now, not mid-game
            self.bots[seat] = kind

    def name_seat(self, seat: int, name: str) -> bool:
        """Give `seat`'s player `name` ("": none, the seat's colour again) in this game and
        the games the menu starts after it: the OLED, the log and the saved record say it
        from now on.  Refused (one line, nothing changed) when the name is not one
        (names.py) or another seat is called so; False then."""
        players = self.game.num_players
        names = [self.ui.names[s] if s < len(self.ui.names) else "" for s in range(players)]
        names[seat] = name
        error = names_error(names, [self.ui.colour_name(s) for s in range(players)])
        if error is not None:
            self.message = (clip(f"{name}: taken" if name_error(name) is None
                                 else f"{name}: not a name"), self.clock() + MESSAGE_S)
            self.term.log(f"  refused: {error}")
            self.sound("error")
            return False
        was = self.ui.seat_name(seat)
        self.setup.names = list(names)
        self.next_setup.names = list(names)
        self.ui = get_ui(self.game, self.layout, names)
        # the last roll's dice are drawn by whose they are: by the new name from now on
        self.rolled_by = [self.ui.seat_name(seat) if owner == was else owner
                          for owner in self.rolled_by]
        self.line.set_name(seat, self.ui.seat_name(seat))
        self.save()
        self.term.log(f"Name: {self.who(seat)}" if name else
                      f"Name: {self.ui.colour_name(seat)} has no name")
        self.dirty = True
        return True

    def who(self, seat: int) -> str:
        """A seat as the terminal names it: the player's name with the seat ("Ann
        (White)"), or the seat alone when no name was given."""
        colour, name = self.ui.colour_name(seat), self.ui.seat_name(seat)
        return f"{name} ({colour})" if name != colour else colour

    def dice_changed(self, physical: bool) -> None:
        self.setup.physical_dice = physical
        self.line.set_physical_dice(physical)

    def _rng(self, *purpose: object) -> random.Random:
        return ply_rng(self.setup.seed, len(self.record.actions), *purpose)

    @property
    def state(self) -> State:
        """The game's engine state (changed only through `line`)."""
        return self.line.state

    @property
    def record(self) -> GameRecord:
        return self.line.record

    @property
    def match(self) -> Any:
        """A K.O. match's rounds over so far (rounds.py); None for a single game."""
        return self.line.match

    def save(self) -> None:
        self.line.follow(self.ui.result(self.state))
        if self.saver is None:
            return
        behind = self.saver.error
        try:
            self.saver.sync(self.record, self.state)
        except Exception as err:                # the game goes on; the players are told
            if str(err) != behind:              # once per problem, not at every retry
                self.term.log(f"NOT SAVED: {err}")
            # shown until a retry (step(), every SAVE_RETRY_S) or the next action lands
            self.message = ("NOT SAVED", self.clock() + SAVE_RETRY_S + MESSAGE_S)
            self.save_retry = self.clock() + SAVE_RETRY_S
            return
        if behind is not None:
            self.term.log("saved: the store holds the game again")
            if self.message and self.message[0] == "NOT SAVED":
                self.message = ("saved", self.clock() + MESSAGE_S)

    @property
    def humans(self) -> set[int]:
        return {s for s in range(self.game.num_players) if s not in self.bots}

    # --- what the current mode holds ----------------------------------------------------------
    @property
    def mode(self) -> str:
        """The mode's name: "playing", "dice", "menu", "edit" or "over"."""
        return self.current.name

    def _beneath(self) -> Mode:
        """The playing mode under the menu or edit mode (the current mode otherwise)."""
        return getattr(self.current, "back", self.current)

    @property
    def interaction(self) -> Optional[Interaction]:
        """The person's choice being made (also under the menu), or None."""
        return getattr(self._beneath(), "interaction", None)

    @property
    def animation(self) -> Optional[Animation]:
        """The hand steps being shown (also under the menu), or None."""
        return getattr(self._beneath(), "animation", None)

    @property
    def entry(self) -> Optional[DiceEntry]:
        """The physical dice being entered (also under the menu), or None."""
        return getattr(self._beneath(), "entry", None)

    @property
    def menu(self) -> Optional[MenuMode]:
        return self.current if isinstance(self.current, MenuMode) else None

    @property
    def edit(self) -> Optional[EditMode]:
        """The edit mode's controller (`edit_presses.EditMode`) while the board is in edit mode."""
        return getattr(self.current, "edit", None)

    # --- the game moving on -----------------------------------------------------------------
    def advance(self) -> None:
        """Play what needs nobody at the board (electronic dice, computer players) until a
        person must act or watch a step."""
        while self.current.idle:
            state = self.state
            if state.is_terminal():
                self.current = ended(self)     # Over; in a match, maybe the next round
                self.sound("win")
            elif self.remote is not None and self._follow_remote():
                continue
            elif state.current_player() == CHANCE:
                self._roll()
            elif state.current_player() in self.bots:
                seat = state.current_player()
                bot = make_bot(self.bots[seat], self._rng("bot", seat).getrandbits(62),
                               self.game.name)
                self.apply(bot.choose(state.clone()), by_bot=True)
            else:
                self.current = Choosing(self, Interaction(self.ui.options(state)))

    def _follow_remote(self) -> bool:
        """A remote game: show the next agreed entry that came from another home (like a
        computer's move), or wait for one; False when this home is to act."""
        assert self.remote is not None
        game = self.remote.game
        ply = len(self.record.actions)
        if ply < len(game.record):
            self.apply(self.state.parse_action(game.record[ply]), by_remote=True)
            return True
        if finish_remote(self):          # a home resigned, or the homes agreed to stop
            return True
        if game.local_turn():
            return False
        self.current = AwaitingRemote(self)
        return True

    def _roll(self) -> None:
        """A chance step: the outcome undone here before, the players' physical dice, or the
        session's own roll."""
        state = self.state
        remembered = self.line.remembered_outcome()
        if remembered is not None:
            self.apply(remembered)
        elif self.setup.physical_dice:
            self.current = EnteringDice(self, DiceEntry(self.ui.dice_labels(state),
                                                        self.ui.die_kind(state)))
        else:
            self.apply(sample_chance(state, self._rng("dice")))

    def apply(self, action: Action, option: Optional[Option] = None, by_bot: bool = False,
              by_remote: bool = False) -> None:
        """Play `action` on the engine, note it, and show the steps the players must make
        on the physical board.  Redo is forgotten: whoever played (a person, a computer
        player, the dice), the undone actions no longer follow from the new position."""
        state = self.state
        before = state.clone()
        actor = state.current_player()
        text = state.action_to_string(action)
        hidden = self.ui.hides(state, action)
        self.line.play(action)
        steps = self.ui.steps(before, action, state)
        if option is not None:
            pressed = tuple(self.layout.space_of(c) for c in option.path)
            for i, step in enumerate(steps):
                if step.presses() == pressed:     # the player did this one with the presses
                    del steps[i]
                    break
        if actor == CHANCE:
            self._rolled(before, action, text)
        else:
            self.rolled = []             # a roll nobody spends is stale once anyone acts
            steps = self._played(actor, text, hidden, by_bot or by_remote, steps,
                                 "remote" if by_remote else "computer")
        self.last_was_chance = actor == CHANCE
        self.hint = ()
        self.save()
        if self.remote is not None and not by_remote:
            # sent once saved: a host killed in between sends it again when resumed
            self.remote.game.play(text)
        self.current = Waiting(self)
        self._show_steps(before, actor, steps, by_bot or by_remote)

    def _show_steps(self, before: State, actor: int, steps: list[Step], away: bool) -> None:
        """Show the steps of an action, with the dice they follow from: a roll's, or the
        dice a computer's (another home's: `away`) turn began with, kept drawn while its
        moves are confirmed though the engine has spent some."""
        if actor == CHANCE or not away:
            self.hand = None
        elif self.hand is None or self.hand[0] != actor:
            view = self.ui.view(before)
            # the dice of the turn are the actor's own only on its turn (a Dodgeball
            # target's catch is made with the thrower's dice on the OLED)
            own = before.view().turn == actor
            self.hand = (actor, tuple(view.dice) if own else (), view.dice_kind)
        if not steps:
            return
        if actor == CHANCE:
            dice = (tuple(self.rolled), self.rolled_kind, self.roll_caption())
            self.current = Showing(self, Animation(steps, ROLL_TITLE), dice)
            return
        name = self.ui.seat_name(actor)
        hand = self.hand
        shown = None                # a person's own move: the session's rule
        if hand is not None:        # away: its roll, or no die (none of the turn is its)
            shown = (hand[1], hand[2], f"{name} rolled {_values(hand[1])}") if hand[1] \
                else ((), 0, "")
        self.current = Showing(self, Animation(steps, name), shown)

    def _rolled(self, before: State, action: Action, text: str) -> None:
        values = self.ui.dice_values(before, action)
        owners = self.ui.dice_owners(before)
        if not self.last_was_chance or len(values) > 1:
            self.rolled, self.rolled_by = [], []     # a new roll: forget the last one
        self.rolled += list(values)                  # one-die rolls add up
        self.rolled_by += (owners + owners[-1:] * len(values))[:len(values)]
        while len(self.rolled) > 4:          # the OLED draws four: the oldest owner's go
            first = self.rolled_by[0]
            while self.rolled_by and self.rolled_by[0] == first and len(self.rolled) > 0:
                self.rolled.pop(0)
                self.rolled_by.pop(0)
        self.rolled_kind = self.ui.die_kind(before)
        self.roll_fresh = not self.setup.physical_dice
        self.sound("roll")
        if before.view().phase != "rolloff":
            self.term.log(f"  dice: {text}")
            return
        self.term.log(f"  roll-off: {self.ui.rolloff_roller(before)}: {text}")
        if self.state.view().phase != "rolloff" and not self.state.is_terminal():
            self.term.log(f"  roll-off over: {self.ui.rolloff_outcome(self.state)}")

    def _played(self, actor: int, text: str, hidden: bool, by_bot: bool,
                steps: list[Step], by: str = "computer") -> list[Step]:
        """Log a player's action; a computer's (or another home's) action with nothing to
        move by hand still gets a step to read.  Returns the steps to show."""
        self.term.log(f"{self.who(actor)}: {'(secret)' if hidden else text}"
                      + (f" [{by}]" if by_bot else ""))
        if by_bot:
            if not steps:       # the second line names whose it is
                steps = [Step("info", text=clip(text), owner=actor)]
            self.sound("alert")
        return steps

    def leave(self) -> None:
        """Stop playing here; the game stays where it is (saved, and in a remote game kept
        by the room) to be resumed later."""
        kept = self.saver is not None or self.remote is not None   # (a room keeps it too)
        if self.record.status == "playing" and kept:
            which = f" {self.saver.game_id}" if self.saver and self.saver.game_id else ""
            self.term.log(f"Left the game: `knockboard resume{which}` goes on with it")
        elif self.record.status == "playing":
            self.term.log("Quit: this game was not saved")
        else:
            self.term.log("Quit")
        self.running = False

    def end_by_agreement(self) -> None:
        """The players stop here: the game is over, scored by what stands on the board
        (the rules' points), and saved as ended by agreement."""
        verdict, tally = self.ui.standing(self.state) if self.match is None \
            else agreed_standing(self)
        self.line.agree(f"{verdict} ({tally})")
        self.save()
        self.term.log(f"Game over: {self.record.result}")
        self.current = Agreed(self, verdict)
        self.sound("win")

    def undo(self) -> bool:
        """Take back the last action of a person at the board (and the computer moves and
        dice after it); the dice rolled in between are kept for when play comes back to
        them.  The board then shows where the pieces go back."""
        target = self.record.last_decision(self.humans or None)
        if self.record.agreed:
            self.refuse("game ended")        # the record says how it ended
            return False
        if self.remote is not None:
            self.refuse("remote: no undo")   # the other homes have played on from it
            return False
        if target is None:
            self.refuse(undo_refusal(self))
            return False
        steps = [step for move in self.line.take_back(target)
                 for step in steps_back(self.ui, move)]
        self.save()
        self.term.log(f"Undo: back to {self.who(self.state.current_player())}"
                      " to move")
        self._reset_play(steps, "undo")
        self.sound("ok")
        return True

    def redo(self) -> bool:
        if not self.line.can_redo or self.record.agreed:
            self.refuse("nothing to redo")
            return False
        steps = [step for move in self.line.redo() for step in steps_forward(self.ui, move)]
        self.save()
        self.term.log("Redo")
        self._reset_play(steps, "redo")
        return True

    def spend_roll(self) -> None:
        """The roll's steps are made: its dice are no longer drawn as the last roll."""
        self.rolled = []

    def apply_edit(self, state: State) -> None:
        """An accepted edit (editing.py): `state` becomes the game's as a record entry,
        redo is forgotten and the hint goes out, as after a move."""
        self.line.edit(state)
        self.hint = ()
        self.save()

    def new_round(self, number: int) -> None:
        """Round `number` of the match starts afresh (rounds.py); nothing of the round
        before carries over: its redo and remembered dice (the line's), its hint and roll."""
        self.line.new_round(number)
        self.hint, self.rolled, self.last_was_chance = (), [], False
        self.save()

    def _reset_play(self, steps: list[Step], title: str) -> None:
        self.rolled = []
        self.current = Showing(self, Animation(steps, title)) if steps else Waiting(self)
        self.advance()

    # --- input ------------------------------------------------------------------------------
    def step(self, timeout: float = 0.05) -> bool:
        """Handle what the board sent within `timeout` seconds, then update it."""
        for message in self.board.poll(timeout):
            self.dirty = True
            self._receive(message)
        self._watch_cable()
        if self.remote is not None:
            self._pump_remote()
        now = self.clock()
        if self.back_down is not None and not self.back_fired \
                and now - self.back_down >= HOLD_S:
            self.back_fired = True
            self.dirty = True
            if self.current.holds_undo:
                self.undo()
        if self.current.tick(now):
            self.dirty = True
        if self.saver is not None and self.saver.error is not None and now >= self.save_retry:
            self.save()
            self.dirty = True
        expired = any(x and now >= x[1] for x in (self.flash, self.message)) \
            or (self.next_page is not None and now >= self.next_page)
        if self.dirty or expired:
            self.render()
        return self.running

    def _watch_cable(self) -> None:
        """Say in the terminal when the board goes (unplugged, or silent for 3 s) and when
        it is back: the OLED cannot say it while the board is gone."""
        seen = (getattr(self.board, "connected", True), getattr(self.board, "reconnects", 0))
        if seen == self._board_seen:
            return
        if not seen[0] and self._board_seen[0]:
            self.term.log("The board is unplugged or not answering: the game waits for it "
                          "(nothing is lost)")
        if seen[1] != self._board_seen[1]:
            self.term.log("The board is back: it shows the game again")
        self._board_seen = seen

    def run(self, until: Optional[Callable[[], bool]] = None) -> None:
        """Play until stopped (Ctrl-C) or until `until()` is true."""
        while self.running and not (until and until()):
            self.step(0.05)

    def _pump_remote(self) -> None:
        """What the other homes sent: when this board was waiting for it, play on."""
        assert self.remote is not None
        seen = (len(self.remote.game.record), self.remote.status(self.ui))
        self.remote.pump()
        if isinstance(self.current, AwaitingRemote):
            self.current = Waiting(self)
            self.advance()
        if (len(self.remote.game.record), self.remote.status(self.ui)) != seen:
            self.dirty = True
        follow_remote_end(self)

    def _receive(self, message: object) -> None:
        if isinstance(message, KeyEvent):
            if message.control:
                self._control(message.index, message.pressed)
            elif message.pressed:
                self._press(message.index)
            else:
                self.current.release(message.index)
        elif isinstance(message, KeyState):
            if BACK_KEY not in message.controls:
                self.back_down = None           # the full key state says BACK is up
            if OK_KEY not in message.controls:
                self.ok_down = None

    def _control(self, key: int, pressed: bool) -> None:
        if key == OK_KEY:
            self.ok_down = self.clock() if pressed else None
        if key == BACK_KEY:
            if not pressed:
                self.back_down = None
                return
            self.back_down, self.back_fired = self.clock(), not self.current.back_arms_undo
        if pressed:
            self.current.control(key)

    def _press(self, cell: int) -> None:
        self.current.press(cell)

    # --- changing modes ---------------------------------------------------------------------
    def switch_to(self, mode: Mode) -> None:
        """Presses and controls go to `mode` from now on (a mode never sets `current`)."""
        self.current = mode
        self.dirty = True

    def open_menu(self) -> None:
        # a remote game's menu offers what needs no other home (menu.py); new games,
        # seats, dice and edits are the room's, not one home's
        self.current = MenuMode(self, back=self.current)
        self.sound("click")

    def close_menu(self) -> None:
        menu = self.menu
        assert menu is not None, "the menu is not open"
        self.current = menu.back.resumed()
        self.advance()

    def open_edit(self, info: str, back: Mode) -> None:
        self.current = Editing(self, info, back)

    def mode_beneath_plays(self) -> bool:
        """The game under the menu is still being played (not over, not ended)."""
        return not isinstance(self._beneath(), Over) and not self.state.is_terminal()

    def between_rounds(self) -> bool:
        """A round of a match is over, rounds are left (also under the menu)."""
        return self._beneath().name == BETWEEN_ROUNDS

    def can_hint(self) -> bool:
        """A person at the board is to choose among the interaction's options."""
        return isinstance(self._beneath(), Choosing)

    def show_hint(self) -> Action:
        """Light the strong bot's move for the person to act (from and to cells) and name
        it on the OLED; it goes out when a move is played."""
        action = suggest(self.state.clone(), budget=STRONG_TIME_CAP_S,
                         iterations=playing_iterations(self.game.name),
                         seed=self._rng("hint").getrandbits(62))
        interaction = self.interaction
        assert interaction is not None, "a hint is only asked while a person chooses"
        option = next(o for o in interaction.options if o.action == action)
        self.hint = option.path
        self.message = (f"hint: {option.label}", self.clock() + 3 * MESSAGE_S)
        self.term.log(f"Hint: {self.state.action_to_string(action)}")
        return action

    # --- feedback ---------------------------------------------------------------------------
    def illegal(self, cell: int, text: str = "not legal") -> None:
        """A refused press: the cell blinks red, the buzzer errs, the OLED and the terminal
        say why; the words stay as long as a message (the flash is shorter)."""
        self.flash = (cell, self.clock() + FLASH_S)
        self.message = (clip(text), self.clock() + MESSAGE_S)
        self.term.log(f"  refused {self.layout.space_of(cell)}: {text}")
        self.sound("error")

    def say(self, text: str, seconds: float = MESSAGE_S) -> None:
        """Show `text` on the OLED's last line for `seconds`."""
        self.message = (clip(text), self.clock() + seconds)
        self.dirty = True

    def unsay(self) -> None:
        """The message shown is no longer true: it goes at once."""
        self.message = None
        self.dirty = True

    def mark_changed(self) -> None:
        """Something the board shows changed outside a press: render at this step's end."""
        self.dirty = True

    def refuse(self, text: str) -> None:
        self.message = (clip(text), self.clock() + MESSAGE_S)
        self.term.log(f"  refused: {text}")
        self.sound("error")

    def sound(self, name: str) -> None:
        self.board.sound(name)

    def add_flash(self, highlights: dict[int, Cell]) -> None:
        """An illegal press blinks red on top of what the mode highlights."""
        if self.flash:
            highlights[self.flash[0]] = S.cell(S.RED, BLINK)

    # --- output -----------------------------------------------------------------------------
    def render(self) -> None:
        """Send the scene and the display, if they differ from what the board has."""
        self.dirty = False
        now = self.clock()
        if self.flash and now >= self.flash[1]:
            self.flash = None
        if self.message and now >= self.message[1]:
            self.message = None
        view = self.ui.view(self.state)
        self._sent_pieces = show_pieces(self.board, self.ui, self.state, self._sent_pieces)
        scene = self.current.scene(view)
        if scene != self._sent_scene:
            self._sent_scene = scene
            self.board.set_scene(scene)
        self._show(view)

    def oled_lines(self) -> list[str]:
        """What the OLED says now, as logical lines of any length (the layout, `oled.pages`,
        wraps and pages them for the 16-character lines)."""
        return list(self._display(self.ui.view(self.state))[0])

    def _show(self, view: View) -> None:
        """Send the OLED's lines and dice if they changed (or the dice were just rolled).
        A screen too long for three lines is paged: its pages follow each other."""
        lines, dice, kind = self._display(view)
        now = self.clock()
        screen = oled.pages(lines)
        if screen != self._screen[0]:
            self._screen = (screen, now)
        page = oled.page_at(len(screen), self._screen[1], now)
        self.next_page = None if len(screen) < 2 else \
            self._screen[1] + (int((now - self._screen[1]) // oled.PAGE_S) + 1) * oled.PAGE_S
        roll = self.roll_fresh and bool(dice)
        display = (screen[page], tuple(dice), kind if dice else 0)
        if display != self._sent_display or roll:
            self._sent_display = display
            self.roll_fresh = False
            self.board.show(Display(display[0], display[1], display[2], roll))
            # the terminal has room for the whole text: it is printed once, not by page
            self.term.picture(self.ui.text_board(self.state),
                              [oled.printable(line) for line in lines]
                              + ([f"dice: {' '.join(map(str, dice))}"] if dice else []))

    def roll_caption(self) -> str:
        """The last roll's dice by whose they are, as the OLED draws them left to right:
        "White 3, Black 5", "Orange 2, Blue 6", "Red 4"."""
        groups: list[tuple[str, list[int]]] = []
        for owner, value in zip(self.rolled_by, self.rolled):
            if groups and groups[-1][0] == owner:
                groups[-1][1].append(value)
            else:
                groups.append((owner, [value]))
        return ", ".join(f"{owner} {_values(values)}" for owner, values in groups)

    def shown_dice(self, view: View) -> tuple[tuple[int, ...], int, str]:
        """(dice, kind, whose) the OLED draws: the mode's own (a computer's hand, a roll
        being made, dice being entered, none at the end), else the dice of the turn still
        to be used, else the last roll nobody spends; `whose` names them when the mode's
        lines do not ("" when they do)."""
        own = self.current.dice(view)
        if own is not None:
            return own
        if view.dice or not self.rolled:
            return tuple(view.dice), view.dice_kind, ""
        return tuple(self.rolled), self.rolled_kind, self.roll_caption()

    def _display(self, view: View) -> tuple[Sequence[str], tuple[int, ...], int]:
        """(lines, dice, die kind) for the OLED."""
        dice, kind, _ = self.shown_dice(view)
        lines = list(self.current.lines(view))
        if self.message:            # in place of the buttons' line (the last of three)
            text = self.message[0]
            keep = lines[:2] if len(lines) >= 3 else lines[:-1] if len(lines) == 2 else lines
            lines = keep + [text]
            if len(oled.pages(lines)) > 1:        # a long message: the first line and it
                lines = lines[:1] + [text]
            if len(oled.pages(lines)) > 1:
                # a long first line too (a name: "Christophers to move"): the message alone,
                # seen at once, not on a second page it may not live to
                lines = [text]
        return lines, dice[:4], kind
