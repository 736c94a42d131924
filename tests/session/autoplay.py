"""A test player that plays through the board only: it picks one of the legal actions
(with a seeded random choice, or a bot's) and then presses the cells and buttons a person
would press to play it, confirms every step shown, and enters physical dice."""

import random

from knockboard.games import sample_chance
from knockboard.session.interaction import MENU_ENTRY
from knockboard.session.types import HOLD_S, PASS

from board_driver import MENU, OK


class AutoPlayer:
    def __init__(self, vb, seed=0, chooser=None, aggressive=False):
        self.vb = vb
        self.rng = random.Random(seed)
        self.chooser = chooser          # state -> action, e.g. a bot's choose
        self.aggressive = aggressive    # prefer knocks and throws: shorter games

    @property
    def s(self):
        return self.vb.session

    def act(self):
        """Do the next thing the board waits for; False when the game is over."""
        s, vb = self.s, self.vb
        if s.mode == "over":
            return False
        if s.mode == "dice":
            outcome = sample_chance(s.state, self.rng)
            for v in s.ui.dice_values(s.state, outcome):
                for _ in range(v - 1):
                    vb.menu()
                vb.ok()
            return True
        if s.animation is not None:
            step = s.animation.step
            if step.presses() and self.rng.random() < 0.5:
                for space in step.presses():
                    vb.press_space(space)
            else:
                vb.ok()
            return True
        it = s.interaction
        assert it is not None, f"session waits for nothing in mode {s.mode}"
        if self.chooser is not None:
            action = self.chooser(s.state.clone())
            option = next(o for o in it.options if o.action == action)
        else:
            knocks = [o for o in it.options if o.kind == "knock"] if self.aggressive else []
            option = self.rng.choice(knocks or it.options)
        if it.choice is None:
            if option.path:
                for cell in option.path:
                    vb.press(cell)
            else:
                vb.ok()
        if s.interaction is it and it.choice is not None:
            for _ in range(len(it.options) + 2):   # MENU steps round the choices once
                if it.current() is not MENU_ENTRY and it.current().action == option.action:
                    break
                vb.control(MENU)
            else:
                raise AssertionError(f"MENU never reached {option.label} among {it.choice}")
            if option.kind == PASS and not it.forced:
                # a pass among moves: OK held, as a person does, until it is taken; on a
                # lossy line the press can reach the host several resends (200 ms each)
                # after it was made, and the release in time
                vb.control(OK, hold=HOLD_S + 2.0)
            else:
                vb.ok()
        return True

    def play(self, max_acts=20000):
        for _ in range(max_acts):
            if not self.act():
                return True
        return False
