"""Button mashing: random presses on the virtual board (cells, OK/BACK/MENU, long presses,
several keys at once) through the real link into the real session, while a referee checks
after every key event that

- the session never raises,
- the engine's state only ever changes by legal actions: a shadow state follows the
  session's record, accepting only an action legal where it was played (or an undo, a new
  game from the menu, or an edit whose position the engine accepts), and must equal the
  session's state, history included,
- every cell press is answered: a press the session refuses flashes that cell red and
  buzzes; one it accepts clicks (or plays); an independent look at the adapter's options
  says which presses are legal when a person picks a piece, and must agree,
- every buzz the session asks for is played by the board's buzzer.

Most cell presses go to cells that blink or pulse (a person mashing still goes for what
lights up), so games move on, end, and new ones start from the menu."""

from __future__ import annotations

import random
import time
from collections import Counter

from rig import GAMES, Rig

from knockboard.games import CHANCE
from knockboard.session import Session, Setup
from knockboard.session.types import DICE as DICE_MODE
from knockboard.session.types import EDIT as EDIT_MODE
from knockboard.session.types import MENU as MENU_MODE
from knockboard.store import edited_position

CONTROLS = ("OK", "BACK", "MENU")


class Referee:
    def __init__(self, rig):
        self.rig = rig
        self.counts = Counter()
        self.shadow = None
        self.record = None
        self.entries = []           # the record entries the shadow has followed
        self.before_edits = []      # the shadow each edit replaced
        self.errors_asked = 0
        self._watch(rig.session)

    def _watch(self, session):
        original = session._press
        rig, counts = self.rig, self.counts

        def press(cell):
            before = len(rig.sounds)
            expect = self._judge(session, cell)
            original(cell)
            said = rig.sounds[before:]
            counts["cell presses"] += 1
            assert said, f"cell {cell}: no answer at all (mode {session.mode})"
            refused = "error" in said
            counts["refused" if refused else "accepted"] += 1
            if refused:
                assert session.flash and session.flash[0] == cell, "refused without a flash"
            if expect is not None:
                counts["judged independently"] += 1
                assert refused == (not expect), \
                    f"cell {cell}: the session {'refused' if refused else 'took'} a press " \
                    f"the legal actions {'allow' if expect else 'forbid'}"
        session._press = press

    @staticmethod
    def _judge(session, cell):
        """True/False when a press on `cell` is legal by the engine's legal actions (a
        person picking a piece to move), None when that is not the situation."""
        it = session.interaction
        if session.mode != "playing" or session.animation is not None or it is None \
                or it.selected is not None or it.choice is not None:
            return None
        state = session.state
        options = session.ui.options(state)
        assert {o.action for o in options} == set(state.legal_actions())
        return any(o.path[:1] == (cell,) for o in options)

    def check(self):
        """After every key event: the session's state is its shadow's."""
        s = self.rig.session
        if s.record is not self.record:             # a new game (menu) or the first look
            self.record = s.record
            self.shadow = s.game.new_initial_state()
            self.entries, self.before_edits = [], []
            self.counts["games"] += 1
        entries = s.record.actions
        common = 0
        for a, b in zip(self.entries, entries):
            if a != b:
                break
            common += 1
        while len(self.entries) > common:
            if edited_position(self.entries.pop()) is not None:
                self.shadow = self.before_edits.pop()
            else:
                self.shadow.undo()
            self.counts["actions taken back"] += 1
        for entry in entries[common:]:
            position = edited_position(entry)
            if position is not None:                # an edit: the engine must accept it
                self.before_edits.append(self.shadow)
                self.shadow = s.game.from_position(position)
                self.counts["edits made"] += 1
            else:
                shadow = self.shadow
                action = shadow.parse_action(entry)
                if shadow.current_player() == CHANCE:
                    legal = {a for a, _ in shadow.chance_outcomes()}
                else:
                    legal = set(shadow.legal_actions())
                assert action in legal, f"illegal action {entry!r} reached the engine"
                shadow.apply(action)
                self.counts["actions played"] += 1
            self.entries.append(entry)
        assert self.shadow.to_position() == s.state.to_position()
        assert self.shadow.history == s.state.history


SELDOM = ("End", "Names", "Review")     # menu entries a person walks to now and then
UNPLUG_MEAN_S = 30.0        # board seconds between unplugs, when unplugging


def _control(rng, mode):
    """A control key as a person in `mode` would press it: in the menu and in dice entry
    mostly MENU (the next entry, the next value) and OK, in edit mode any of the three."""
    if mode in (MENU_MODE, DICE_MODE):
        return rng.choices(CONTROLS, (35, 15, 50))[0]
    if mode == EDIT_MODE:        # BACK leaves edit mode: a person editing seldom wants that
        return rng.choices(CONTROLS, (45, 10, 45))[0]
    return rng.choice(CONTROLS)


def mash(game, events, seed, log=None, person=False, unplugs=False):
    """`events` random key events on `game`'s board. Returns (rig, figures).

    `person`: a person who also means to use the menu: in the menu, half the time they
    walk to an entry (MENU until it shows) and choose it (OK), so seats change, dice turn
    physical and are entered on the board, edit mode is used, new games start; the menu,
    dice entry get the controls more than the cells, edit mode the cells. `unplugs`: the board's
    cable is pulled now and then (every UNPLUG_MEAN_S of board time on average) for
    0.05-3 s, with keys held or not; presses made while it is out are lost."""
    t0 = time.perf_counter()
    rng = random.Random(seed)
    rig = Rig(game)
    options, _ = GAMES[game]
    players = options.get("players", 2)
    rig.session = Session(rig.board, Setup(game, dict(options), ["human"] * players,
                                           seed=seed), clock=rig.clock)
    rig.run(1.0)
    ref = Referee(rig)
    sim = rig.sim
    held = []
    made = buzzed = 0
    next_unplug = rig.clock() + rng.expovariate(1 / UNPLUG_MEAN_S)
    while made < events:
        s = rig.session
        if unplugs and rig.clock() >= next_unplug:
            rig.unplug()
            ref.counts["unplugs"] += 1
            rig.run(rng.uniform(0.05, 3.0))
            rig.plug()
            next_unplug = rig.clock() + rng.expovariate(1 / UNPLUG_MEAN_S)
        if person and not held and s.mode == MENU_MODE and rng.random() < 0.5:
            entries = s.menu.entries()
            # the board test is a maker's tool (tests/boardtest); walking into it on
            # purpose would spend the events on 50-odd cells instead of play; ending the game
            # by agreement, naming the players and a finished game's review (tests/session)
            # are chosen on purpose only now and then, or most events would go to finished
            # games, spelt names and reviews instead of edit mode and dice entry
            target = rng.choice([i for i, e in enumerate(entries) if e.label != "Board test"
                                 and (not e.label.startswith(SELDOM) or rng.random() < 0.1)])
            steps = (target - s.menu.index) % len(entries)
            ref.counts["menu entries chosen"] += 1
            for key in ["MENU"] * steps + ["OK"]:
                sim.press(key)
                rig.run(0.03)
                sim.release(key)
                rig.run(0.05)
                made += 2
                ref.counts["presses"] += 1
            ref.check()
            continue
        r = rng.random()
        entering = s.mode == DICE_MODE
        before = len(s.record.actions)
        if held and (r < 0.45 or len(held) >= 4):
            key = held.pop(rng.randrange(len(held)))
            sim.release(key)
        else:
            controls = 0.8 if person and s.mode in (MENU_MODE, DICE_MODE) else \
                0.2 if person and s.mode == EDIT_MODE else 0.3
            if rng.random() < controls:
                key = _control(rng, s.mode) if person else rng.choice(CONTROLS)
            elif rng.random() < 0.6:
                cells = sim.device.scene.cells if sim.device else b""
                lively = [i for i in range(sim.cells) if cells and cells[4 * i + 3] & 0x0F]
                key = rng.choice(lively) if lively else rng.randrange(sim.cells)
            else:
                key = rng.randrange(sim.cells)
            if key in held:
                continue
            sim.press(key)
            held.append(key)
            ref.counts["presses"] += 1
        made += 1
        buzzed += [name for _, name in sim.take_sounds()].count("error")
        # mostly quick fingers, now and then a long hold (BACK held: undo), and several
        # keys down at once when the next event comes before the release
        gap = rng.choice((0.0, 0.005, 0.02, 0.04, 0.08, 0.15)) if rng.random() < 0.95 \
            else rng.uniform(1.0, 1.6)
        rig.run(gap)
        if len(held) > 1:
            ref.counts["moments with keys held together"] += 1
        ref.counts[f"events in {s.mode}"] += 1
        if entering and s.mode != DICE_MODE and len(s.record.actions) > before:
            ref.counts["dice entered on the board"] += 1
        ref.check()
    for key in held:
        sim.release(key)
    rig.run(0.5)
    ref.check()
    rig.wait_connected()
    # every buzz the session asked for was played on the board (unplugged: lost with it)
    assert rig.board.flush(5.0)
    rig.run(0.2)
    buzzed += [name for _, name in sim.take_sounds()].count("error")
    assert rig.session.record.replay().to_position() == rig.session.state.to_position()
    counts = ref.counts
    counts["events"] = made
    counts["events queued by the board"] = rig.counts["events queued"]
    counts["events received by the host"] = len(rig.received)
    counts["errors asked"] = rig.sounds.count("error")
    counts["errors buzzed"] = buzzed
    counts["board seconds"] = round(rig.clock())
    counts["wall seconds"] = round(time.perf_counter() - t0, 1)
    return rig, counts
