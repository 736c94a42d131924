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


def rgb(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def wrong_pixels(image, picture, state):
    """(space, seen, wanted) wherever a screenshot of `picture` showing `state` disagrees
    with the engine's view: a piece in its look on every occupied space, the overlay's
    print on every empty one (where nothing else, a ball or a throw, is drawn)."""
    from knockboard.gameview.picture import token_for
    from knockboard.sim import look

    view = state.view()
    ui = picture.ui
    untouched = not getattr(view, "throw", None)
    loose = getattr(view, "loose", {})
    bases = dict(zip(getattr(view, "home_bases", ()), getattr(view, "home", ())))
    wrong = []
    for cell in picture.layout.cells:
        x, y = picture.sample_point(cell.space)
        seen = image.getpixel((round(x), round(y)))[:3]
        piece = view.piece_at(cell.space)
        if piece is not None:
            wanted = rgb(token_for(ui, view, piece).fill)
        elif bases.get(cell.space):
            continue                 # a Knock-Off home base's count of waiting pawns
        elif untouched and cell.space not in loose:
            wanted = rgb(look.unlit_fill(cell))
        else:
            continue
        if seen != wanted:
            wrong.append((cell.space, seen, wanted))
    return wrong


def save_docs_screenshots(out_dir):
    games = dict(GAMES)
    screens.save_shots(out_dir, games, lambda display, name: ShownView(
        display, played(name, games[name], plies=60, seed=3)))


if __name__ == "__main__":
    save_docs_screenshots(screens.docs_folder("gameview"))
