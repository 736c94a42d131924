"""The session: one game on one board.  It reads the board's presses, asks the game's
adapter what they mean, plays legal actions on the engine, rolls or asks for dice, runs
the computer players, shows every step the players must make, and keeps the record.

It talks to the board only through a `Board`-like object (set_scene, show, sound, poll,
info), so a real board, the pty simulator and the in-process test rigs are the same to it.
The host is the authority: the board shows, the session decides."""

import random
import time

from ..bots import suggest
from ..device.protocol import BLINK, CHASE, PULSE, Display, KeyEvent, KeyState
from ..games import CHANCE, get_game, sample_chance
from ..layouts import get_layout, layout_names
from . import scene as S
from .adapters import get_ui
from .animation import ADVANCED, WRONG, Animation
from .dice_entry import DiceEntry
from .editing import Editing
from .interaction import ILLEGAL, OPEN_MENU, PLAY, Interaction, MENU_ENTRY
from .menu import Menu
from .record import EDITED, Edit, GameRecord
from .seats import HUMAN, STRONG_ITERATIONS, STRONG_TIME_CAP_S, make_bot
from .terminal import Terminal
from .types import BACK_KEY, DICE, EDIT, MENU, MENU_KEY, OK_KEY, OVER, PLAYING, Step, clip

HOLD_S = 1.0        # BACK held this long: undo
FLASH_S = 0.6       # an illegal press blinks red this long
MESSAGE_S = 2.0     # a short message on the OLED's last line


class SessionError(Exception):
    """The session cannot run on this board (one clear line)."""


class Session(Editing):
    def __init__(self, board, setup, *, clock=time.monotonic, out=None, actions=(),
                 saver=None, resumed=False):
        self.board = board
        self.saver = saver         # keeps the game's record in the store (None: not saved)
        self.clock = clock
        self.term = Terminal(out)
        self.flash = None          # (cell index, until)
        self.message = None        # (text, until)
        self.back_down = None      # when BACK went down, while it is held
        self.back_fired = False
        self._sent_scene = None
        self._sent_display = None
        self.dirty = True
        self.running = True
        self.start(setup, actions, resumed=resumed)

    # --- games ------------------------------------------------------------------------------
    def playable_games(self):
        """The games whose layout is the connected board's (its board id)."""
        info = getattr(self.board, "info", None)
        board_id = getattr(info, "board", None)
        games = [g for g in layout_names() if get_layout(g).board_id == board_id]
        return games or [self.setup.game]

    def start(self, setup, actions=(), resumed=False):
        """Begin a new game with `setup` (the menu's "New game" calls this too); `actions`
        (notation) are replayed first, to go on with a recorded game.  GameError if one of
        them is not legal.  A `resumed` game first shows where the pieces must stand (edit
        mode) and goes on when OK is pressed."""
        setup = setup.copy()
        if setup.seed is None:
            setup.seed = random.randrange(1 << 31)
        layout = get_layout(setup.game)
        info = getattr(self.board, "info", None)
        if info is not None and getattr(info, "cells", len(layout)) != len(layout):
            raise SessionError(f"the connected board is a {info.board!r} board with "
                               f"{info.cells} cells; {setup.game} needs its own board "
                               f"({len(layout)} cells)")
        self.setup = setup
        self.next_setup = setup.copy()
        self.game = get_game(setup.game, **setup.options)
        self.ui = get_ui(self.game, layout)
        self.layout = layout
        self.state = self.game.new_initial_state()
        self.record = GameRecord(setup.game, dict(setup.options), list(setup.seats),
                                 setup.seed, setup.physical_dice)
        self.bots = {}             # seat -> the kind of computer player
        for seat, kind in enumerate(setup.seats):
            self.seat_changed(seat, kind)
        self.remembered = {}       # position at a chance node -> the outcome undone there
        self.redo_units = []
        self.mode = PLAYING
        self.interaction = None
        self.animation = None
        self.entry = None
        self.menu = None
        self.edit = None           # the EditMode while the board is in edit mode
        self.before_edits = []     # the state each recorded edit replaced, for undo
        self.hint = ()             # the cells of a suggested move, lit until a move is played
        self.rolled = []           # the dice of the last run of chance steps
        self.last_was_chance = False
        self.rolled_kind = 6
        self.roll_fresh = False
        for text in actions:
            if not self._replay_edit(text):
                action = self.state.parse_action(text)
                self.record.push(self.state, action)
                self.state.apply(action)
        self.last_was_chance = False
        if resumed:
            self._open_edit("resumed: set up")
        self._save()
        self.term.log(f"New game: {self.game.title}, seats "
                      + ", ".join(f"{self.game.player_name(i)}={k}"
                                  for i, k in enumerate(setup.seats))
                      + f", seed {setup.seed}" + (", physical dice" if setup.physical_dice
                                                  else ""))
        self.advance()
        self.render()

    def seat_changed(self, seat, kind):
        if seat >= self.game.num_players:
            return
        self.setup.seats[seat] = kind
        self.record.seats[seat] = kind
        if kind == HUMAN:
            self.bots.pop(seat, None)
        else:
            make_bot(kind, 0)                   # refuses an unknown kind now, not mid-game
            self.bots[seat] = kind

    def dice_changed(self, physical):
        self.setup.physical_dice = physical
        self.record.physical_dice = physical

    def _rng(self, *purpose):
        # Each random choice depends only on the seed, the ply (the record's length: an edit
        # is a ply too) and its purpose, never on what was drawn before, so a game resumed
        # from its record goes on exactly as it would have without the interruption.
        return random.Random(f"{self.setup.seed}:{len(self.record.actions)}:{purpose}")

    def _save(self):
        if self.saver is None:
            return
        try:
            self.saver.sync(self.record, self.state)
        except Exception as err:                # the game goes on; the players are told
            self.term.log(f"NOT SAVED: {err}")
            self.message = ("NOT SAVED", self.clock() + MESSAGE_S)

    @property
    def humans(self):
        return {s for s in range(self.game.num_players) if s not in self.bots}

    # --- the game moving on -----------------------------------------------------------------
    def advance(self):
        """Play what needs nobody at the board (electronic dice, computer players) until a
        person must act or watch a step."""
        while self.mode == PLAYING and self.animation is None and self.interaction is None:
            state = self.state
            if state.is_terminal():
                self.mode = OVER
                self.term.log(f"Game over: {state.result()}")
                self._sound("win")
                return
            if state.current_player() == CHANCE:
                key = state.to_position()
                if key in self.remembered:
                    self._apply(self.remembered.pop(key))
                    continue
                if self.setup.physical_dice:
                    self.mode = DICE
                    self.entry = DiceEntry(self.ui.dice_labels(state), self.ui.die_kind(state))
                    return
                self._apply(sample_chance(state, self._rng("dice")))
                continue
            seat = state.current_player()
            if seat in self.bots:
                bot = make_bot(self.bots[seat], self._rng("bot", seat).getrandbits(62))
                self._apply(bot.choose(state.clone()), by_bot=True)
                continue
            self.interaction = Interaction(self.ui.options(state))

    def _apply(self, action, option=None, by_bot=False):
        """Play `action` on the engine, note it, and queue the steps the players must make
        on the physical board.  Redo is forgotten: whoever played (a person, a computer
        player, the dice), the undone actions no longer follow from the new position."""
        self.redo_units.clear()
        state = self.state
        before = state.clone()
        actor = state.current_player()
        text = state.action_to_string(action)
        hidden = self.ui.hides(state, action)
        self.record.push(state, action)
        state.apply(action)
        steps = self.ui.steps(before, action, state)
        if option is not None:
            pressed = tuple(self.layout.space_of(c) for c in option.path)
            for i, step in enumerate(steps):
                if step.presses() == pressed:     # the player did this one with the presses
                    del steps[i]
                    break
        if actor == CHANCE:
            values = self.ui.dice_values(before, action)
            if not self.last_was_chance or len(values) > 1:
                self.rolled = []             # a new roll: forget the last one
            self.rolled = (self.rolled + list(values))[-4:]   # one-die rolls add up
            self.rolled_kind = self.ui.die_kind(before)
            self.roll_fresh = not self.setup.physical_dice
            self._sound("roll")
            self.term.log(f"  dice: {text}")
        else:
            who = self.game.player_name(actor)
            self.term.log(f"{who}: {'(secret)' if hidden else text}"
                          + (" [computer]" if by_bot else ""))
            if by_bot:
                if not steps:
                    steps = [Step("info", text=clip(f"{who[:6]}: {text}"), owner=actor)]
                self._sound("alert")
        self.last_was_chance = actor == CHANCE
        self.interaction = None
        self.hint = ()
        self._save()
        if steps:
            self.animation = Animation(steps, self.game.player_name(actor)
                                       if actor != CHANCE else "dice")

    def undo(self):
        """Take back the last action of a person at the board (and the computer moves and
        dice after it); the dice rolled in between are kept for when play comes back to
        them.  The board then shows where the pieces go back."""
        target = self.record.last_decision(self.humans or None)
        if target is None:
            self._refuse("nothing to undo")
            return False
        unit, steps = [], []
        while len(self.record.actions) > target:
            if self.record.actors[-1] == EDITED:
                unit.append(self._undo_edit(steps))
                continue
            after = self.state.clone()
            action = self.state.undo()
            self.record.pop()
            if self.state.current_player() == CHANCE:
                self.remembered[self.state.to_position()] = action
            unit.append(action)
            steps.extend(s.reversed() for s in reversed(self.ui.steps(self.state, action, after)))
        self.redo_units.append(list(reversed(unit)))
        self._save()
        self.term.log(f"Undo: back to {self.game.player_name(self.state.current_player())}"
                      " to move")
        self._reset_play(steps, "undo")
        self._sound("ok")
        return True

    def redo(self):
        if not self.redo_units:
            self._refuse("nothing to redo")
            return False
        steps = []
        for action in self.redo_units.pop():
            if isinstance(action, Edit):
                self._redo_edit(action, steps)
                continue
            if self.state.current_player() == CHANCE:
                self.remembered.pop(self.state.to_position(), None)
            before = self.state.clone()
            self.record.push(self.state, action)
            self.state.apply(action)
            steps.extend(self.ui.steps(before, action, self.state))
        self._save()
        self.term.log("Redo")
        self._reset_play(steps, "redo")
        return True

    def _reset_play(self, steps, title):
        self.mode = PLAYING
        self.interaction = None
        self.entry = None
        self.rolled = []
        self.animation = Animation(steps, title) if steps else None
        self.advance()

    # --- input ------------------------------------------------------------------------------
    def step(self, timeout=0.05):
        """Handle what the board sent within `timeout` seconds, then update it."""
        for message in self.board.poll(timeout):
            self.dirty = True
            if isinstance(message, KeyEvent):
                if message.control:
                    self._control(message.index, message.pressed)
                elif message.pressed:
                    self._press(message.index)
            elif isinstance(message, KeyState):
                if BACK_KEY not in message.controls:
                    self.back_down = None
        now = self.clock()
        if self.back_down is not None and not self.back_fired \
                and now - self.back_down >= HOLD_S:
            self.back_fired = True
            self.dirty = True
            if self.mode != MENU:
                self.undo()
        expired = any(x and now >= x[1] for x in (self.flash, self.message))
        if self.dirty or expired:
            self.render()
        return self.running

    def run(self, until=None):
        """Play until stopped (Ctrl-C) or until `until()` is true."""
        while self.running and not (until and until()):
            self.step(0.05)

    def _control(self, key, pressed):
        if key == BACK_KEY:
            if not pressed:
                self.back_down = None
                return
            # a BACK that leaves edit mode (forgetting the edit) must not undo when held
            self.back_down, self.back_fired = self.clock(), self.mode == EDIT
        if not pressed:
            return
        handler = {PLAYING: self._play_control, DICE: self._dice_control,
                   MENU: self._menu_control, EDIT: self._edit_control,
                   OVER: self._over_control}[self.mode]
        handler(key)

    def _press(self, cell):
        if self.mode == EDIT:
            self._edit_result(self.edit.press(self.layout.space_of(cell)), cell)
            return
        if self.mode != PLAYING:
            self._illegal(cell)
            return
        if self.animation is not None:
            got = self.animation.press(self.layout.space_of(cell))
            if got == WRONG:
                self._illegal(cell)
            else:
                self._sound("click")
                if got == ADVANCED:
                    self._animation_advanced()
            return
        if self.interaction is None:
            self._illegal(cell)
            return
        self._interaction_result(self.interaction.press(cell), cell)

    def _interaction_result(self, result, cell=None):
        if result.kind == PLAY:
            self._sound("ok")
            self._apply(result.action, option=result.option)
            self.advance()
        elif result.kind == ILLEGAL:
            self._illegal(cell)
        elif result.kind == OPEN_MENU:
            self._open_menu()
        elif result.kind != "ignored":
            self._sound("click")

    def _animation_advanced(self):
        if self.animation.done:
            self.animation = None
            self.advance()

    def _play_control(self, key):
        if self.animation is not None:
            if key == OK_KEY:
                self.animation.ok()
                self._sound("click")
                self._animation_advanced()
            elif key == MENU_KEY:
                self._open_menu()
            return
        if self.interaction is None:
            if key == MENU_KEY:
                self._open_menu()
            return
        if key == OK_KEY:
            self._interaction_result(self.interaction.ok())
        elif key == BACK_KEY:
            self._interaction_result(self.interaction.back())
        else:
            self._interaction_result(self.interaction.menu())

    def _dice_control(self, key):
        entry = self.entry
        if key == MENU_KEY:
            entry.menu()
        elif key == BACK_KEY:
            entry.back()
        else:
            got = entry.ok()
            if got == OPEN_MENU:
                self._open_menu()
            elif got == "done":
                outcome = self.ui.outcome_for(self.state, entry.values)
                if outcome is None:
                    self._refuse("no such roll")
                    entry.values.clear()
                    return
                self.entry = None
                self.mode = PLAYING
                self._apply(outcome)
                self.advance()
                return
        self._sound("click")

    def _open_menu(self):
        self.menu_return = self.mode
        self.mode = MENU
        self.menu = Menu(self)
        self._sound("click")

    def _menu_control(self, key):
        if key == MENU_KEY:
            self.menu.next()
            self._sound("click")
            return
        if key == BACK_KEY:
            self._close_menu()
            return
        what = self.menu.choose()
        self._sound("click")
        if what is None:
            return                       # a setting changed; it acts when the menu closes
        if what == "resume":
            self._close_menu()
        elif what == "hint":
            self._close_menu()
            # closing the menu may have let a seat just made a computer player move, and
            # the dice after it: then nobody at the board is to choose
            if self.mode == PLAYING and self.interaction is not None \
                    and self.animation is None:
                self.show_hint()
            else:
                self._refuse("no move to hint")
        elif what == "undo":
            self._close_menu()
            self.undo()
        elif what == "redo":
            self._close_menu()
            self.redo()
        elif what == "new":
            self.menu = None
            self.start(self.next_setup)
        elif what == "edit":
            self.menu = None
            self._open_edit("press a cell")

    def can_hint(self):
        """A person at the board is to choose among the interaction's options."""
        return self.menu_return == PLAYING and self.interaction is not None \
            and self.animation is None

    def show_hint(self):
        """Light the strong bot's move for the person to act (from and to cells) and name
        it on the OLED; it goes out when a move is played."""
        action = suggest(self.state.clone(), budget=STRONG_TIME_CAP_S,
                         iterations=STRONG_ITERATIONS,
                         seed=self._rng("hint").getrandbits(62))
        option = next(o for o in self.interaction.options if o.action == action)
        self.hint = option.path
        self.message = (f"hint: {option.label}", self.clock() + 3 * MESSAGE_S)
        self.term.log(f"Hint: {self.state.action_to_string(action)}")
        return action

    def _close_menu(self):
        self.menu = None
        self.mode = self.menu_return
        if self.mode == DICE and not self.setup.physical_dice:
            self.mode, self.entry = PLAYING, None
        if self.mode == PLAYING and self.interaction is not None \
                and self.state.current_player() in self.bots:
            self.interaction = None          # that seat became a computer player
        if self.mode == PLAYING:
            self.advance()

    def _over_control(self, key):
        if key in (OK_KEY, MENU_KEY):
            self._open_menu()

    # --- feedback ---------------------------------------------------------------------------
    def _illegal(self, cell, text="not legal"):
        self.flash = (cell, self.clock() + FLASH_S)
        self.message = (text, self.clock() + FLASH_S)
        self._sound("error")

    def _refuse(self, text):
        self.message = (text, self.clock() + MESSAGE_S)
        self._sound("error")

    def _sound(self, name):
        self.board.sound(name)

    # --- output -----------------------------------------------------------------------------
    def render(self):
        """Send the scene and the display, if they differ from what the board has."""
        self.dirty = False
        now = self.clock()
        if self.flash and now >= self.flash[1]:
            self.flash = None
        if self.message and now >= self.message[1]:
            self.message = None
        view = self.ui.view(self.state)
        scene = self._scene(view)
        if scene != self._sent_scene:
            self._sent_scene = scene
            self.board.set_scene(scene)
        lines, dice, kind = self._display(view)
        roll = self.roll_fresh and bool(dice)
        display = (tuple(clip(x) for x in lines), tuple(dice), kind if dice else 0)
        if display != self._sent_display or roll:
            self._sent_display = display
            self.roll_fresh = False
            self.board.show(Display(display[0], display[1], display[2], roll))
            self.term.picture(self.ui.text_board(self.state),
                              [line for line in display[0]]
                              + ([f"dice: {' '.join(map(str, dice))}"] if dice else []))

    def _scene(self, view):
        ui, hl = self.ui, {}
        target = S.target_rgb(ui)
        if self.mode == EDIT:
            hl = self.edit.highlights(self.layout)
            if self.flash:
                hl[self.flash[0]] = S.cell(S.RED, BLINK)
            return S.build(ui, self.edit.view(), hl, level=1.0)
        if self.mode == PLAYING and self.animation is not None:
            step = self.animation.step
            owner_rgb = ui.color(step.owner) if step.owner >= 0 else S.WHITE
            if step.src:
                effect_rgb = S.RED if step.kind == "remove" else owner_rgb
                hl[self.layout.cell(step.src).index] = S.cell(effect_rgb, BLINK)
            if step.dst:
                hl[self.layout.cell(step.dst).index] = S.cell(target, PULSE)
        elif self.mode == PLAYING and self.interaction is not None:
            it = self.interaction
            pieces = view.pieces
            if it.choice is not None:
                shown = it.current()
                path = shown.path if shown is not MENU_ENTRY else it.choice[0].path
                for c in path[:-1]:
                    hl[c] = S.cell(self._rgb_at(pieces, c), BLINK)
                if path:
                    hl[path[-1]] = S.cell(target, BLINK)
            elif it.selected is not None:
                hl[it.selected] = S.cell(self._rgb_at(pieces, it.selected), BLINK)
                for c, kind in it.targets().items():
                    hl[c] = S.cell(target, BLINK if kind == "knock" else PULSE)
            else:
                for c, role in it.movable().items():
                    rgb = self._rgb_at(pieces, c) if role == "piece" else target
                    hl[c] = S.cell(rgb, PULSE)
            for c in self.hint:
                hl[c] = S.cell(S.WHITE, CHASE)
        if self.flash:
            hl[self.flash[0]] = S.cell(S.RED, BLINK)
        return S.build(ui, view, hl)

    def _rgb_at(self, pieces, cell):
        piece = pieces.get(self.layout.space_of(cell))
        if piece is None:
            return S.target_rgb(self.ui)
        return S.piece_rgb(self.ui, piece)

    def _display(self, view):
        """(lines, dice, die kind) for the OLED."""
        dice, kind = tuple(view.dice), view.dice_kind
        if self.rolled:
            dice, kind = (dice or tuple(self.rolled)), (kind if dice else self.rolled_kind)
        lines = self._lines(view)
        if self.message:
            lines = (list(lines) + ["", "", ""])[:2] + [self.message[0]]
        return lines, dice[:4], kind

    def _lines(self, view):
        state = self.state
        if self.mode == MENU:
            _, label = self.menu.current()
            return ["Menu", "> " + label, "OK BACK MENU=nxt"]
        if self.mode == EDIT:
            return self.edit.lines()
        if self.mode == OVER:
            return ["Game over", state.result() or "", "MENU=new game"]
        if self.mode == DICE:
            e = self.entry
            shown = "menu" if e.on_menu else str(e.current)
            done = " ".join(map(str, e.values))
            return [e.label + (f" ({done})" if done else ""), f"value: {shown}",
                    "MENU=+1 OK=set"]
        if self.animation is not None:
            a = self.animation
            return [a.step.text, f"{a.title[:8]} {a.index + 1}/{len(a.steps)}",
                    "OK when done"]
        it = self.interaction
        if it is None:
            return [view.status]
        prompt = self.ui.prompt(state)
        if it.choice is not None:
            shown = it.current()
            if shown is MENU_ENTRY:
                return [prompt, "> menu", "OK=open MENU=nxt"]
            return [prompt, "> " + shown.label,
                    f"OK=play MENU {it.index + 1}/{len(it.choice)}"]
        if it.selected is not None:
            return [prompt, f"{self.layout.space_of(it.selected)}: to where?", "BACK=cancel"]
        extra = [o.label for o in it.options if not o.path]
        return [prompt, view.status, clip("OK: " + "/".join(extra)) if extra else ""]
