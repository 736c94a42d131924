"""The windowed entry points, as a person runs them: `knockboard play GAME --sim`,
`knockboard resume --sim` and `knockboard demo` as processes on a virtual X screen, played
with real X clicks and key presses (xdotool) on the simulator window, then SIGKILLed. Every
action must be in the database, and `knockboard resume` must go on from it.

Until the store kept one SQLite connection per thread, a game played in the window (the
session runs in a thread beside Tk's main loop) printed NOT SAVED for every action."""

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
import screens

from knockboard.games import get_game
from knockboard.session.adapters import get_ui
from knockboard.sim import look
from knockboard.sim.window import CANVAS_ORIGIN, fit_for_screen
from knockboard.store import GameStore

SCREEN_HEIGHT = int(screens.SCREEN.split("x")[1])
WAIT_S = 30.0           # the longest wait for one thing, on a loaded 2-core machine
TITLE = "Knockboard simulator"
STEPS_PER_MOVE = 12     # clicks or OKs one move of ours may take, the computer's turns included


@pytest.fixture(scope="module")
def xdotool(display):
    if shutil.which("xdotool") is None:
        why = "xdotool is not installed (apt-get install xdotool; .ci/run does)"
        if os.environ.get("CI"):
            pytest.fail(f"the window tests must run in CI: {why}")
        pytest.skip(why)
    return display


class Desk:
    """A knockboard process with its window on the virtual screen, and the database it
    writes, looked at from outside as a person (and a second program) would."""

    def __init__(self, display, db, argv):
        self.display, self.db = display, str(db)
        # what the program prints (the terminal behind the window) goes to a file, so the
        # test can wait for a prompt without blocking on a pipe
        self.log = f"{self.db}.{argv[0]}.log"
        env = dict(os.environ, DISPLAY=display, PYTHONPATH=os.pathsep.join(
            [os.path.join(screens.ROOT, "host"), os.environ.get("PYTHONPATH", "")]))
        env.pop("KNOCKBOARD_DB", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "knockboard.cli", *argv,
                                      "--db", self.db], env=env,
                                     stdout=open(self.log, "wb"), stderr=subprocess.STDOUT,
                                     start_new_session=True)
        self.window = self._find_window()

    def xdo(self, *args):
        return subprocess.run(["xdotool", *args], env=dict(os.environ, DISPLAY=self.display),
                              capture_output=True, text=True, timeout=WAIT_S).stdout

    def _find_window(self):
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.output()
            found = self.xdo("search", "--onlyvisible", "--name", TITLE).split()
            if found:
                return found[0]
            time.sleep(0.2)
        raise AssertionError("the simulator window did not open")

    def origin(self):
        geometry = dict(line.split("=") for line in
                        self.xdo("getwindowgeometry", "--shell", self.window).split())
        return int(geometry["X"]) + CANVAS_ORIGIN[0], int(geometry["Y"]) + CANVAS_ORIGIN[1]

    def click_cell(self, layout, space):
        """Press the cell with the mouse, held over several of the firmware's scans."""
        x0, y0 = self.origin()
        x, y = look.Viewport(layout, fit_for_screen(SCREEN_HEIGHT)).sample_point(
            layout.cell(space))
        self.xdo("mousemove", str(x0 + round(x)), str(y0 + round(y)))
        self.xdo("mousedown", "1")
        time.sleep(0.15)
        self.xdo("mouseup", "1")
        time.sleep(0.1)

    def ok(self):
        """Enter on the keyboard: the board's OK button."""
        self.xdo("windowfocus", "--sync", self.window)
        self.xdo("keydown", "Return")
        time.sleep(0.15)
        self.xdo("keyup", "Return")
        time.sleep(0.1)

    def output(self):
        with open(self.log, encoding="utf-8", errors="replace") as f:
            return f.read()

    def wait_output(self, text):
        """Wait until the program has printed `text` (its OLED lines are printed too)."""
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.output()
            if text in self.output():
                return
            time.sleep(0.1)
        raise AssertionError(f"never shown: {text!r}\n{self.output()[-2000:]}")

    def stored(self, game_id=1):
        """The stored record of game `game_id`, or None before it is there."""
        if not os.path.exists(self.db):
            return None
        try:
            with GameStore(self.db) as store:
                return store.get(game_id)
        except Exception:                  # not created yet, or mid-way through creation
            return None

    def wait_for(self, predicate, what):
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.output()
            record = self.stored()
            if record is not None and predicate(record):
                return record
            time.sleep(0.1)
        raise AssertionError(f"never saved: {what}")

    def kill(self):
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(WAIT_S)
        output = self.output()
        assert "NOT SAVED" not in output, output
        return output


def play_human_moves(desk, moves, human=0):
    """Play `moves` of seat `human`'s moves by clicking the window's cells, confirming the
    computer's moves with OK; returns the stored actions after the last one."""
    record = desk.wait_for(lambda r: True, "the new game")
    game = get_game(record.game, **record.options)
    ui = get_ui(game)
    played = 0
    for _ in range(STEPS_PER_MOVE * moves):       # bounded: a lost click fails, not hangs
        if played == moves:
            return record
        state = record.replay()
        before = len(record.actions)
        if state.current_player() == human:
            option = next(o for o in ui.options(state) if len(o.path) == 2)
            for cell in option.path:
                desk.click_cell(ui.layout, ui.layout.space_of(cell))
            grew = _grows(desk, before)
            if grew is None:           # a computer move still waited for OK: confirm it
                desk.ok()
                continue
            assert grew.actions[before] == state.action_to_string(option.action)
            played += 1
            record = grew
        else:                          # the computer's turn (or a roll): confirm its steps
            desk.ok()
            record = _grows(desk, before) or record
    if played == moves:
        return record
    raise AssertionError(f"{played} of {moves} moves went through the window\n"
                         f"{desk.output()[-2000:]}")


def _grows(desk, before, seconds=4.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        record = desk.stored()
        if record is not None and len(record.actions) > before:
            return record
        time.sleep(0.1)
    return None


def test_a_game_played_in_the_window_is_saved_and_resumes(xdotool, tmp_path):
    db = tmp_path / "games.db"
    desk = Desk(xdotool, db, ["play", "knockabout", "--sim", "--bots", "2", "--seed", "4"])
    try:
        record = play_human_moves(desk, 2)
    finally:
        desk.kill()
    saved = GameStore(db).get(1)
    assert saved.actions[:len(record.actions)] == record.actions
    assert saved.status == "playing" and len(saved.actions) >= 4

    # the saved game goes on in the window, and what is played there is saved too
    desk = Desk(xdotool, db, ["resume", "--sim"])
    try:
        # a resumed game first shows where the pieces must stand; OK once they do
        desk.wait_output("resumed: set up")
        desk.ok()
        after = play_human_moves(desk, 1)
    finally:
        desk.kill()
    assert after.actions[:len(saved.actions)] == saved.actions
    assert len(after.actions) > len(saved.actions)
    assert GameStore(db).get(1).actions == after.actions


def test_the_window_demo_saves_its_game(xdotool, tmp_path):
    db = tmp_path / "games.db"
    desk = Desk(xdotool, db, ["demo", "--seed", "3", "--delay", "0"])
    try:
        record = desk.wait_for(lambda r: len(r.actions) >= 6, "six demo actions")
    finally:
        desk.kill()
    assert [p.get("bot") for p in record.players] == ["fair", "fair"]
    stored = GameStore(db).get(1)
    assert stored.actions[:len(record.actions)] == record.actions
    assert stored.replay() is not None
    with sqlite3.connect(db) as con:           # nothing else was written beside it
        assert con.execute("SELECT count(*) FROM games").fetchone()[0] == 1


def test_the_game_view_follows_a_game_played_in_the_window(xdotool, tmp_path):
    from PIL import ImageGrab

    from game_view_screens import wrong_pixels
    from knockboard.gameview.picture import Picture
    from knockboard.gameview.window import TITLE as VIEW_TITLE

    db = tmp_path / "games.db"
    desk = Desk(xdotool, db, ["play", "ko", "--sim", "--view", "--bots", "all", "--seed", "2"])
    try:
        found = []
        deadline = time.monotonic() + WAIT_S
        while not found and time.monotonic() < deadline:
            found = desk.xdo("search", "--onlyvisible", "--name", VIEW_TITLE).split()
            time.sleep(0.2)
        assert found, "the game view window did not open"
        for _ in range(40):                    # the computers' moves, confirmed with OK
            desk.ok()
        record = desk.wait_for(lambda r: len(r.actions) >= 20, "twenty actions")
        state = record.replay()

        def geometry(window):
            shell = dict(line.split("=") for line in
                         desk.xdo("getwindowgeometry", "--shell", window).split())
            return int(shell["X"]), int(shell["Y"]), int(shell["WIDTH"])
        # the two windows side by side on the 1600-pixel screen, the view made to fit
        sim = desk.xdo("search", "--onlyvisible", "--name", "Knockboard simulator").split()
        sim_x, _, sim_width = geometry(sim[0])
        x, y, width = geometry(found[0])
        assert x >= sim_x + sim_width and x + width <= 1600, (sim_x, sim_width, x, width)
        picture = next(p for p in (Picture(get_ui(state.game), fit) for fit in range(200, 561))
                       if p.width == width)       # the size the view chose
        wrong = None
        for _ in range(int(WAIT_S / 0.3)):     # the view looks at the store 4 times a second
            x, y, _ = geometry(found[0])
            now = desk.stored()
            if now.actions != record.actions:  # a step still in flight: look again
                record, state = now, now.replay()
            image = ImageGrab.grab(bbox=(x, y, x + picture.width, y + picture.height),
                                   xdisplay=desk.display)
            wrong = wrong_pixels(image, picture, state)
            if not wrong:
                break
            time.sleep(0.3)
        assert state.view().pieces and not wrong, wrong
    finally:
        desk.kill()
