"""The game view window on a virtual X screen, for its tests and for the screenshots in
docs/gameview/, made the same way:

    python3 tests/sim/game_view_screens.py docs/gameview
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for path in (os.path.join(ROOT, "host"), os.path.join(ROOT, "tests", "gameview")):
    if path not in sys.path:
        sys.path.insert(0, path)

from games_played import GAMES, played  # noqa: E402

import screens  # noqa: E402


class ShownView:
    """A game view window on `display` showing the end of `record`."""

    def __init__(self, display, record):
        import tkinter as tk

        from knockboard.gameview.window import GameView

        self.display = display
        self.root = tk.Tk(screenName=display)
        self.view = GameView(self.root)
        self.record = record
        self.state = record.replay()
        self.view.show(record, self.state)
        self.settle()

    def settle(self):
        self.root.update_idletasks()
        self.root.update()

    def grab(self):
        from PIL import ImageGrab

        c = self.view.canvas
        x, y = c.winfo_rootx(), c.winfo_rooty()
        return ImageGrab.grab(bbox=(x, y, x + c.winfo_width(), y + c.winfo_height()),
                              xdisplay=self.display)

    def close(self):
        self.root.destroy()


def save_docs_screenshots(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    with screens.xvfb() as display:
        for name, options in GAMES:
            shown = ShownView(display, played(name, options, plies=60, seed=3))
            try:
                path = os.path.join(out_dir, f"{name}.png")
                shown.grab().save(path, optimize=True)
                print(path)
            finally:
                shown.close()


if __name__ == "__main__":
    save_docs_screenshots(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs",
                                                                              "gameview"))
