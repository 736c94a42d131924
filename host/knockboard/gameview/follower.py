"""Following a game as it is saved: the game store polled, the newest record shown when it
changed. The game view's window and the web page (`knockboard.web`) both follow a game this
way, so they show what the session wrote, for a real board, the simulator, or a game played
in another terminal."""

from __future__ import annotations

from typing import Callable, Optional

from ..store import GameStore, StoreError
from ..store.records import RecordError


class StoreFollower:
    """Shows the game `game_id` of the store at `path` live; with no id, the newest game,
    and each newer one as it is started (MENU -> New game on the board); `after`: only the
    games after that id (a game about to be started, not the one before it)."""

    def __init__(self, view, path, game_id: Optional[int] = None,
                 on_error: Callable[[str], None] = print, after: Optional[int] = None):
        self.view = view
        self.after = after
        self.path = path
        self.fixed = game_id
        self.on_error = on_error
        self.store: Optional[GameStore] = None
        self.seen = None                     # (id, actions, status) last drawn
        self.problem = None

    def poll(self):
        """Look once; redraw if the game changed. Returns True when something was drawn."""
        try:
            if self.store is None:
                self.store = GameStore(self.path)
            game_id = self.fixed if self.fixed is not None else self.store.newest()
            if game_id is None or (self.after is not None and game_id <= self.after):
                return False
            record = self.store.get(game_id)
        except StoreError as err:            # not created yet, locked for a moment
            self._report(str(err))
            return False
        seen = (record.id, tuple(record.actions), record.status)
        if seen == self.seen:
            return False
        try:
            state, match = record.replay_match()
        except RecordError as err:
            self._report(f"game {record.id} does not replay: {err}")
            return False
        self.view.show(record, state, match=match)
        self.seen, self.problem = seen, None
        return True

    def _report(self, text):
        if text != self.problem:             # once per problem, not every poll
            self.problem = text
            self.on_error(f"knockboard view: {text}")

    def close(self):
        if self.store is not None:
            self.store.close()
            self.store = None
