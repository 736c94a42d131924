"""The game view: a window that draws the engine's position as players see their pieces,
beside the board or the simulator.

It follows a game through the game store, not through the session: every action is saved
as it is played, so the view reads what the session wrote (its own SQLite connection, in
Tk's thread) and works the same for a real board, the simulator, or a game played in
another terminal (`knockboard view`). A replay steps through a saved record instead."""

from __future__ import annotations

import tkinter as tk
from typing import Optional

from ..session.adapters import get_ui
from .export import matches, positions
from .follower import StoreFollower
from .picture import Picture
from .sheet import last_move, score_sheet
from .summary import summary_lines
from .table import table_view

POLL_MS = 250            # how often a followed game is looked up in the store
TITLE = "Knockboard game view"


class GameView:
    """A canvas showing one position at a time; `show` redraws it."""

    def __init__(self, master, fit_px: float = 560):
        self.master = master
        self.fit_px = fit_px
        self.canvas: Optional[tk.Canvas] = None
        self.picture: Optional[Picture] = None
        self._key = None                     # (game name, options) the picture is for
        self.shown = None                    # (state, entries) on screen now

    def show(self, record, state, step=None, match=None):
        """Draw `state`, reached by `record.actions` (or its first `step[0]`); `match`: a
        K.O. match as it stands there (`GameRecord.replay_match`), None for a single game."""
        key = (record.game, tuple(sorted(record.options.items())))
        game = state.game
        if key != self._key:
            self.picture = Picture(get_ui(game), self.fit_px)
            if self.canvas is not None:
                self.canvas.destroy()
            self.canvas = tk.Canvas(self.master, width=self.picture.width,
                                    height=self.picture.height, highlightthickness=0)
            self.canvas.pack()
            self._key = key
            self._keep_on_screen()
        entries = record.actions if step is None else record.actions[:step[0]]
        view, sheet = table_view(self.picture.ui, state, score_sheet(record)[:len(entries)])
        lines = summary_lines(state, sheet, step, record.id, match, record.names)
        self.canvas.delete("all")
        draw(self.canvas, self.picture.shapes(view, lines, last_move(sheet)))
        self.shown = (state, list(entries))


    def _keep_on_screen(self):
        """A window placed beside another (the simulator's) moves left when its board
        would run past the screen's right edge."""
        top = self.master
        top.update_idletasks()
        over = top.winfo_x() + top.winfo_reqwidth() - top.winfo_screenwidth()
        if over > 0:
            top.geometry(f"+{max(0, top.winfo_x() - over)}+{top.winfo_y()}")


def draw(canvas, shapes, **options):
    """Put `shapes` (picture.Shape) on a Tk canvas; `options` go to every item (the
    simulator's pieces: tags, and state "disabled" so that clicks reach the cell below)."""
    for s in shapes:
        if s.kind == "polygon":
            canvas.create_polygon(*s.points, fill=s.fill, outline=s.outline, width=s.width,
                                  **options)
        elif s.kind == "oval":
            canvas.create_oval(*s.points, fill=s.fill, outline=s.outline, width=s.width,
                               **options)
        elif s.kind == "line":
            canvas.create_line(*s.points, fill=s.fill, width=s.width, capstyle="round",
                               **options)
        else:
            font = ("DejaVu Sans", -s.size, "bold" if s.bold else "normal")
            canvas.create_text(*s.points, text=s.text, fill=s.fill, font=font,
                               anchor="center" if s.anchor == "center" else "w", **options)


class ReplayStepper:
    """Steps through a saved record: Right/Space/Enter forward, Left/BackSpace back,
    Home and End to either end."""

    def __init__(self, view: GameView, record):
        self.view = view
        self.record = record
        self.states = positions(record)
        self.matches = matches(record, self.states)
        self.step = 0
        self.go(0)

    def go(self, step):
        self.step = max(0, min(len(self.record.actions), step))
        self.view.show(self.record, self.states[self.step],
                       step=(self.step, len(self.record.actions)), match=self.matches[self.step])

    def bind(self, root):
        for key, move in (("<Right>", 1), ("<space>", 1), ("<Return>", 1),
                          ("<Left>", -1), ("<BackSpace>", -1)):
            root.bind(key, lambda _e, m=move: self.go(self.step + m))
        root.bind("<Home>", lambda _e: self.go(0))
        root.bind("<End>", lambda _e: self.go(len(self.record.actions)))


def open_view(top, title=TITLE, fit_px: float = 560):
    """A GameView filling `top`, a window of its own (a Tk root or a Toplevel)."""
    top.title(title)
    return GameView(top, fit_px)


def follow_watched(top, path, watched, on_error=print) -> StoreFollower:
    """A game view filling `top` following the game a spectator keeps in the store at `path`
    as it reads it (`knockboard watch --view`): `watched.game_id` is its id once the room's
    game is known (the view waits until then, whatever else the store holds), and
    `watched.error` what ended the watch before there was a game to show (the window then
    closes itself)."""
    view = open_view(top, title=f"{TITLE}: watching")
    follower = StoreFollower(view, path, None, on_error)

    def tick():
        if watched.error is not None:
            top.destroy()
            return
        if watched.game_id is not None:
            follower.fixed = watched.game_id
            follower.poll()
        top.after(POLL_MS, tick)
    tick()
    return follower


def follow(top, path, game_id=None, on_error=print, fit_px: float = 560) -> StoreFollower:
    """A game view filling `top` (a window of its own) following a store, polled from Tk's
    own loop; `fit_px`: the board's size (smaller beside the simulator's window)."""
    view = open_view(top, fit_px=fit_px)
    follower = StoreFollower(view, path, game_id, on_error)

    def tick():
        follower.poll()
        top.after(POLL_MS, tick)
    tick()
    return follower
