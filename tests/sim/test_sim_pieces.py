"""Pieces wherever the board is drawn (issue 47, finding 4), and windows that end with their
command (finding 10): `knockboard sim` with `knockboard play --port` in another program,
and `replay --sim`, draw the pieces as `play --sim` does, from the PIECES frame the host
sends (docs/protocol.md); K.O.'s secret set-up is drawn without numbers; MENU in a replay
and OK in the board test end the command and close its window; a real board's firmware
answers PIECES with "unknown frame type" and changes nothing.

The window tests run the programs as a person does, on a virtual X screen, and read the
screen back."""

import os
import re
import signal
import subprocess
import sys
import time

import pytest
import screens

from knockboard.device import protocol as P
from knockboard.games import get_game
from knockboard.gameview.picture import PIECE_SCALE, Picture, token_for
from knockboard.gameview.wire import decode_view
from knockboard.session import Session, Setup
from knockboard.session.adapters import get_ui
from knockboard.sim import VirtualBoard
from knockboard.sim.window import CANVAS_ORIGIN, fit_for_screen
from knockboard.store import GameRecord, GameStore

SCREEN_HEIGHT = int(screens.SCREEN.split("x")[1])
WAIT_S = 30.0
TITLE = "Knockboard simulator"


def rgb(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


# ---- the frame, without a window ------------------------------------------------------------

def test_a_real_boards_firmware_answers_pieces_with_an_error_and_changes_nothing():
    vb = VirtualBoard("knockabout")                 # the firmware as a Pico runs it
    board = vb.connect()
    assert not board.draws_pieces and "pieces" not in board.info.capabilities
    board.set_scene(P.Scene.blank(vb.cells, 200))
    assert board.flush(2.0)
    before = vb.leds(), vb.oled().lines
    board.show_pieces(b"anything")                  # not sent: the board does not draw
    board.link.send(P.H_PIECES, b"anything")        # sent all the same, by hand
    got = []
    for _ in range(40):
        got += board.poll(0.05)
        if board.link.rejected:
            break
    assert [e.code for e in board.link.errors] == [1]    # unknown frame type
    assert (vb.leds(), vb.oled().lines) == before and vb.pieces is None


def test_the_simulators_board_keeps_the_pieces_the_session_shows_as_the_table_sees_them():
    vb = VirtualBoard("ko", pieces=True)
    board = vb.connect()
    assert board.draws_pieces
    session = Session(board, Setup("ko", {"players": 2}, ["greedy", "greedy"], seed=5))
    for _ in range(400):                            # the computers place their pieces
        session.step(0.01)
        if len(session.state.view().pieces) >= 6:
            break
    assert session.state.view().phase == "setup"
    assert board.flush(2.0)
    game, view = decode_view(vb.shown_pieces())
    real = session.state.view()
    assert game.name == "ko" and set(view.pieces) == set(real.pieces)
    # the secret set-up: which number stands where is not told, the colours are
    assert {p.number for p in view.pieces.values()} == {0}
    assert [p.color for p in view.pieces.values()] == [p.color for p in real.pieces.values()]


# ---- programs on a virtual screen -----------------------------------------------------------

@pytest.fixture(scope="module")
def xdotool(display):
    import shutil
    if shutil.which("xdotool") is None:
        if os.environ.get("CI"):
            pytest.fail("the window tests must run in CI: xdotool is not installed")
        pytest.skip("xdotool is not installed (apt-get install xdotool; .ci/run does)")
    return display


class Program:
    """A knockboard process on the virtual screen; what it prints goes to a file."""

    def __init__(self, display, tmp_path, argv):
        self.display = display
        self.log = tmp_path / f"{argv[0]}-{time.monotonic_ns()}.log"
        env = dict(os.environ, DISPLAY=display, PYTHONPATH=os.pathsep.join(
            [os.path.join(screens.ROOT, "host"), os.environ.get("PYTHONPATH", "")]))
        env.pop("KNOCKBOARD_DB", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "knockboard.cli", *argv], env=env,
                                     stdout=open(self.log, "wb"), stderr=subprocess.STDOUT,
                                     start_new_session=True)

    def xdo(self, *args):
        return subprocess.run(["xdotool", *args], env=dict(os.environ, DISPLAY=self.display),
                              capture_output=True, text=True, timeout=WAIT_S).stdout

    def output(self):
        return self.log.read_text(errors="replace")

    def wait_output(self, pattern):
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            m = re.search(pattern, self.output())
            if m:
                return m
            assert self.proc.poll() is None, self.output()
            time.sleep(0.1)
        raise AssertionError(f"never printed {pattern!r}\n{self.output()[-2000:]}")

    def window(self):
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            found = self.xdo("search", "--onlyvisible", "--pid", str(self.proc.pid),
                             "--name", TITLE).split()
            if found:
                return found[0]
            assert self.proc.poll() is None, self.output()
            time.sleep(0.2)
        raise AssertionError("the simulator window did not open")

    def canvas_origin(self, window):
        shell = dict(line.split("=") for line in
                     self.xdo("getwindowgeometry", "--shell", window).split())
        return int(shell["X"]) + CANVAS_ORIGIN[0], int(shell["Y"]) + CANVAS_ORIGIN[1]

    def key(self, window, name):
        self.xdo("windowfocus", "--sync", window)
        self.xdo("keydown", name)
        time.sleep(0.15)
        self.xdo("keyup", name)

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(WAIT_S)


def pieces_drawn(program, window, game, view):
    """Wait until every piece of `view` is seen on the window at its space in its fill (and
    a numbered K.O. piece with its number's ink); the spaces still wrong otherwise."""
    from PIL import ImageGrab
    ui = get_ui(game)
    picture = Picture(ui, fit_for_screen(SCREEN_HEIGHT))
    wrong = list(view.pieces)
    deadline = time.monotonic() + WAIT_S
    while wrong and time.monotonic() < deadline:
        x0, y0 = program.canvas_origin(window)
        image = ImageGrab.grab(bbox=(x0, y0, x0 + picture.width, y0 + picture.height),
                               xdisplay=program.display)
        wrong = []
        for space, piece in view.pieces.items():
            token = token_for(ui, view, piece)
            x, y = picture.sample_point(space)
            if image.getpixel((round(x), round(y)))[:3] != rgb(token.fill):
                wrong.append(space)
                continue
            if token.label:                 # its number (or face) is written on it
                cx, cy = picture.piece_centre(space)
                r = PIECE_SCALE * picture.view_px.radius(picture.layout.cell(space))
                box = [image.getpixel((round(cx + dx), round(cy + dy)))[:3]
                       for dx in range(-round(r / 2), round(r / 2))
                       for dy in range(-round(r / 3), round(r / 2))]
                if sum(px == rgb(token.ink) for px in box) < 4:
                    wrong.append(space)
        time.sleep(0.3)
    return wrong


def test_knockboard_sim_with_play_port_shows_the_pieces(xdotool, tmp_path):
    sim = Program(xdotool, tmp_path, ["sim", "--board", "knockabout", "--seed", "1"])
    play = None
    try:
        port = sim.wait_output(r"board on (\S+) \(host")[1]
        window = sim.window()
        db = tmp_path / "games.db"
        play = Program(xdotool, tmp_path, ["play", "knockabout", "--port", port, "--db",
                                           str(db), "--seed", "3"])
        play.wait_output(r"saved as game 1")
        game = get_game("knockabout")
        # the set-up (the roll-off moves nothing): the pieces stand where the rules say
        assert pieces_drawn(sim, window, game, game.analysis_start().view()) == []
    finally:
        for program in (play, sim):
            if program is not None:
                program.stop()


def saved_ko(db, plies=0):
    record = GameRecord(game="ko", options={"players": 2, "quick_start": 1}, seed=1,
                        players=[{"name": "Red+Yellow", "bot": None},
                                 {"name": "Green+Blue", "bot": None}])
    state = record.initial_state()
    while len(record.actions) < plies:
        action = state.legal_actions()[0]
        record.actions.append(state.action_to_string(action))
        state.apply(action)
    with GameStore(db) as store:
        store.new_game(record)
    return record


def test_replay_sim_shows_the_pieces_and_menu_ends_it(xdotool, tmp_path):
    db = tmp_path / "games.db"
    record = saved_ko(db, plies=3)
    replay = Program(xdotool, tmp_path, ["replay", "1", "--sim", "--db", str(db)])
    try:
        window = replay.window()
        state = record.initial_state()
        assert state.view().pieces
        assert pieces_drawn(replay, window, state.game, state.view()) == []
        replay.key(window, "Return")                  # OK: one step forward
        replay.wait_output(r"1/3: ")
        state.apply(state.parse_action(record.actions[0]))
        assert pieces_drawn(replay, window, state.game, state.view()) == []
        replay.key(window, "m")                       # MENU ends the replay ...
        assert replay.proc.wait(WAIT_S) == 0, replay.output()   # ... and the command
        assert not replay.xdo("search", "--onlyvisible", "--pid", str(replay.proc.pid),
                              "--name", TITLE).split()
    finally:
        replay.stop()


def test_boardtest_sim_ends_with_ok_and_its_window_closes(xdotool, tmp_path):
    test = Program(xdotool, tmp_path, ["boardtest", "--board", "knockoff", "--sim"])
    try:
        window = test.window()
        test.wait_output(r"1/\d+ cell \S+ \(0\) lit")
        test.key(window, "Return")                    # OK ends the test early
        status = test.proc.wait(WAIT_S)
        assert status == 1, test.output()             # the cells left untested are faults
        assert "Board test:" in test.output()
    finally:
        test.stop()
