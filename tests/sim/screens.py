"""Windows on a virtual X screen (Xvfb) for the simulator's window tests, and the
screenshots in docs/sim/, made the same way:

    python3 tests/sim/screens.py docs/sim
"""

import contextlib
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
if os.path.join(ROOT, "host") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "host"))

from knockboard.device import protocol as P  # noqa: E402
from knockboard.device.board import Board  # noqa: E402
from knockboard.sim import start_pty  # noqa: E402

SCREEN = "1600x1000x24"
FIT_PX = 640


def xvfb_missing():
    """Why no virtual X screen can be had here, or None."""
    if shutil.which("Xvfb") is None:
        return "Xvfb is not installed (apt-get install xvfb; .ci/run does)"
    try:
        import tkinter  # noqa: F401
        from PIL import ImageGrab  # noqa: F401
    except ImportError as err:
        return f"{err.name} is not installed"
    return None


@contextlib.contextmanager
def xvfb():
    """A fresh Xvfb; yields its display name (":N"). -displayfd picks a free number."""
    r, w = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", SCREEN,
                             "-nolisten", "tcp", "-noreset"], pass_fds=(w,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    try:
        with os.fdopen(r) as f:
            number = f.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start")
        yield ":" + number
    finally:
        proc.terminate()
        proc.wait(5)


class Shown:
    """A simulator window for `board` on `display`, with a host Board connected to it
    through the pseudo-terminal, as `knockboard play --port` would be."""

    def __init__(self, display, board, seed=1, pieces=False):
        import tkinter as tk

        from knockboard.sim.window import SimWindow

        self.port = start_pty(board, seed=seed, pieces=pieces)
        self.vb = self.port.board
        self.root = tk.Tk(screenName=display)
        self.display = display
        self.window = SimWindow(self.root, self.port, fit_px=FIT_PX)
        self.host = Board.open(self.port.path, handshake_timeout=3.0)

    def settle(self, seconds=0.15):
        """Let the firmware show what the host sent, then let Tk draw it."""
        assert self.host.flush(3.0)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.host.poll(0.02)
            self.root.update()
        self.window.update_now()
        self.root.update_idletasks()
        self.root.update()

    def grab(self, widget=None):
        """A screenshot (PIL image) of `widget` (default: the whole window)."""
        from PIL import ImageGrab

        w = widget or self.root
        x, y = w.winfo_rootx(), w.winfo_rooty()
        return ImageGrab.grab(bbox=(x, y, x + w.winfo_width(), y + w.winfo_height()),
                              xdisplay=self.display)

    def close(self):
        self.host.close()
        self.window.close()
        self.port.close()


def demo_scene(vb, view=None):
    """Something a game would show: a selected piece, its targets, a knocked piece; with the
    pieces of `view` (the start), a piece of the first seat selected, the three free cells
    nearest it as targets and the other seat's nearest piece knocked."""
    cells = [P.OFF] * vb.cells
    layout = vb.layout
    if view is None or len({p.owner for p in view.pieces.values()}) < 2:
        picks = {"knockabout": ("F5", ("F6", "G5", "E6"), "F9"),
                 "dodgeball": ("c2", ("c3", "d3", "b3"), "d6"),
                 "ko": ("e2", ("e3", "d3", "f3"), "e6"),
                 "knockoff": ("1a", ("2a", "1b"), "3c")}[vb.board_id]
    else:
        picks = _picks_among(layout, view)
    selected, targets, knocked = picks
    cells[layout.cell(selected).index] = P.Cell(255, 255, 255)
    for t in targets:
        cells[layout.cell(t).index] = P.Cell(0, 220, 60, P.PULSE)
    cells[layout.cell(knocked).index] = P.Cell(255, 40, 0, P.BLINK)
    return P.Scene(tuple(cells), 255), P.Display(lines=("Your move",), dice=(3, 5), kind=6)


def _picks_among(layout, view):
    def distance(a, b):
        a, b = layout.cell(a), layout.cell(b)
        return (a.x - b.x) ** 2 + (a.y - b.y) ** 2
    mine = sorted(view.spaces_of(0))
    theirs = [s for s in view.pieces if view.pieces[s].owner != 0]
    selected = min(mine, key=lambda s: min(distance(s, t) for t in theirs))
    free = [c.space for c in layout.cells if c.space not in view.pieces
            and not c.kind.startswith("home")]
    targets = tuple(sorted(free, key=lambda s: distance(selected, s))[:3])
    return selected, targets, min(theirs, key=lambda s: distance(selected, s))


def save_shots(out_dir, names, open_shown):
    """out_dir/<name>.png for each name: a screenshot of what `open_shown(display, name)`
    shows (anything with grab() and close()), on a fresh virtual screen."""
    os.makedirs(out_dir, exist_ok=True)
    with xvfb() as display:
        for name in names:
            shown = open_shown(display, name)
            try:
                path = os.path.join(out_dir, f"{name}.png")
                shown.grab().save(path, optimize=True)
                print(path)
            finally:
                shown.close()


def docs_folder(name):
    """The folder a screenshot script writes to: its first argument, else docs/<name>."""
    return sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", name)


def start_position(board):
    """(game, the view of its start of play) of `board`'s game."""
    from knockboard.games import get_game
    options = {"ko": {"quick_start": 1}, "dodgeball": {"setup": "quick"}}.get(board, {})
    game = get_game(board, **options)
    return game, game.analysis_start().view()


def _shown_with_demo_scene(display, board):
    from knockboard.gameview.wire import encode_view
    shown = Shown(display, board, pieces=True)
    game, view = start_position(board)
    scene, oled = demo_scene(shown.vb, view)
    shown.host.set_scene(scene)
    shown.host.show_pieces(encode_view(game, view))     # drawn as any host's would be
    shown.host.show(oled)
    shown.settle(0.3)
    return shown


def save_docs_screenshots(out_dir):
    save_shots(out_dir, ("knockabout", "dodgeball", "ko", "knockoff"), _shown_with_demo_scene)


if __name__ == "__main__":
    save_docs_screenshots(docs_folder("sim"))
