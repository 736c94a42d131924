"""A board to play on in the session tests: the simulator's headless virtual board
(knockboard.sim: the real firmware core on simulated hardware) behind the real `Board`
link, in simulated time, pressed and read as a person would."""

from knockboard.session import Session, Setup
from knockboard.sim import VirtualBoard as SimBoard

OK, BACK, MENU = "OK", "BACK", "MENU"


class VirtualBoard:
    def __init__(self, game, opener=None):
        """`opener`: makes the host's transport from this board's SimBoard (a faulty cable
        in the reliability tests); default the plain in-process one."""
        self.sim = SimBoard(game, seed=1)
        if opener is None:
            self.board = self.sim.connect()
        else:
            from knockboard.device import Board
            # a noisy line may need many HELLOs before one INFO comes back whole
            self.board = Board(lambda: opener(self.sim), clock=self.sim.clock,
                               sleep=self.sim.sleep, handshake_timeout=30.0)
        self.clock = self.sim.clock
        self.session = None
        self.sounds = []
        send = self.board.sound

        def sound(name):                  # what the session asked the buzzer for
            self.sounds.append(name)
            send(name)
        self.board.sound = sound

    @property
    def dev(self):
        return self.sim.device

    def start(self, game, seats=(), actions=(), out=None, **kw):
        options = kw.pop("options", {})
        self.session = Session(self.board, Setup(game, options, list(seats), **kw),
                               clock=self.clock, actions=actions, out=out)
        self.run(1.0)                   # the handshake and the first scene settle
        return self.session

    # --- time and input ----------------------------------------------------------------------
    def run(self, seconds):
        end = self.clock() + seconds
        while self.clock() < end:
            self.session.step(0.01)

    def _tap(self, target, hold):
        self.sim.press(target)
        self.run(hold)
        self.sim.release(target)
        self.run(0.03)

    def press(self, cell, hold=0.03):
        self._tap(cell, hold)

    def control(self, key, hold=0.03):
        self._tap(key, hold)

    def ok(self):
        self.control(OK)

    def back(self, hold=0.03):
        self.control(BACK, hold)

    def menu(self):
        self.control(MENU)

    def space(self, name):
        return self.session.layout.cell(name).index

    def press_space(self, name):
        self.press(self.space(name))

    def unplug(self):
        self.sim.power_off()

    def plug(self):
        self.sim.power_on()             # a new boot: the board knows nothing

    # --- output ------------------------------------------------------------------------------
    def cell(self, index):
        """(r, g, b, effect) the host's scene holds for a cell on the board."""
        light = self.sim.cell(index)
        return light.rgb + (light.effect,)

    def lit(self, effect=None):
        """Cells that are not off (with `effect`, only those showing it)."""
        return {i for i in range(self.sim.cells)
                if self.cell(i)[:3] != (0, 0, 0) and (effect is None or self.cell(i)[3] == effect)}

    def oled(self):
        """(lines, dice values, roll flag) of the last display the board accepted (the
        values sent, not the random faces drawn during the roll animation)."""
        dev = self.dev
        p = bytes(dev.last_display[:dev.last_display_len]) if dev else b""
        if not p:
            return [], (), False
        n = p[3]
        dice = tuple(p[4:4 + n])
        i = 4 + n
        lines = []
        for _ in range(p[i]):
            ln = p[i + 1]
            lines.append(p[i + 2:i + 2 + ln].decode())
            i += 1 + ln
        return lines, dice, bool(p[1] & 1)

    def text(self):
        return " | ".join(self.oled()[0])

    def pages(self, most=8):
        """Every page of the screen shown now, read as a person would: the OLED watched
        while a long screen turns its pages (oled.PAGE_S each), until the first comes back."""
        from knockboard.session.oled import PAGE_S
        seen = []
        for _ in range(most):
            lines = self.oled()[0]
            if lines in seen:
                break
            seen.append(lines)
            self.run(PAGE_S)
        return seen

    def screen_text(self):
        """All the words of the screen shown now, over its pages, one string (the last
        line of a paged screen, kept on every page, once)."""
        pages = self.pages()
        lines = [x for page in pages for x in (page[:-1] if len(pages) > 1 else page)]
        return " ".join(lines + ([pages[0][-1]] if len(pages) > 1 else []))

    def menu_entry(self):
        """The menu entry the OLED shows ("> End game (agree)" may take two lines: the
        words are joined again), or None when no entry is shown."""
        lines = self.oled()[0]
        text = " ".join(lines[1 if lines[:1] == ["Menu"] else 0:-1])
        return text[2:] if text.startswith("> ") else None
