"""Keeps a session's game in the store: after every change the stored actions are brought
in line with the record (append what is new, cut what an undo took back), one committed
row per action, so a killed host loses at most the action being entered.

A save that fails (the database locked by another program, the disk full) is not lost: the
store is still behind the record, and the next sync (the session retries every second, and
at every action) writes what is missing. A write waits at most SAVE_WAIT for another
program's lock, so a locked database costs the board that much per action, not a stall.

The saver also holds the game's lock (store/game_lock.py) while it keeps the game: a second
program that opens the same game is refused, instead of playing on beside this one."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Optional

from ..store.game_lock import GameLock

if TYPE_CHECKING:
    from ..games.base import State
    from ..store import GameRecord, GameStore


SAVE_WAIT = 0.1     # seconds a save waits for another program's lock before giving up


class RecordSaver:
    def __init__(self, store: GameStore, game_id: Optional[int] = None) -> None:
        self.store = store
        store.set_timeout(SAVE_WAIT)
        self.error: Optional[str] = None    # why the last sync failed; None: all saved
        self._last: Optional[tuple[GameRecord, State]] = None   # for retry()
        self.game_id = game_id          # a resumed game's id; None: the next sync makes one
        # GameInUse here if another program has the resumed game open: refused before play
        self.lock: Optional[GameLock] = None if game_id is None else \
            GameLock(store.path, game_id).acquire()
        self._record: Optional[GameRecord] = None
        self._saved: list[str] = []     # the actions the store holds for `game_id`
        self._finished = False          # the store has the game as finished
        self._players: list = []        # the players the store holds for `game_id`

    def sync(self, record: GameRecord, state: State) -> None:
        """Bring the store in line with `record`; the store's error if it cannot (then
        `error` says why until a later sync or retry() succeeds)."""
        self._last = (record, state)
        try:
            self._sync(record, state)
        except Exception as err:
            self.error = str(err)
            raise
        self.error = None

    def retry(self) -> None:
        """Sync the record last given again (it may have grown since): after a failure."""
        if self._last is not None:
            self.sync(*self._last)

    def _sync(self, record: GameRecord, state: State) -> None:
        if record is not self._record:
            self._adopt(record)
        game_id = self.game_id
        assert game_id is not None      # adopting the record found or made its row
        saved, actions = self._saved, record.actions
        common = 0
        for a, b in zip(saved, actions):
            if a != b:
                break
            common += 1
        if common < len(saved):
            self.store.truncate(game_id, common)
            del saved[common:]
        for ply in range(common, len(actions)):
            self.store.append(game_id, ply, actions[ply])
            saved.append(actions[ply])
        if record.players != self._players:     # a name or a seat changed on the menu
            self.store.set_players(game_id, record.players)
            self._players = [dict(p) for p in record.players]
        # the record follows the state, or the players' agreement that ended the game
        finished = record.status == "finished"
        if finished and not self._finished:
            self.store.finish(game_id, record.result)
            self._finished = True
        elif not finished:
            self._finished = False

    def _adopt(self, record: GameRecord) -> None:
        """A record the store has not seen: the resumed game, or a new game."""
        if self._record is None and self.game_id is not None:
            stored = self.store.get(self.game_id)
            self._saved = list(stored.actions)
            self._finished = stored.status == "finished"
            self._players = stored.players
        else:
            # the game's row first; its actions follow one committed row each
            empty = replace(record, actions=[], actors=[], status="playing", result=None,
                            id=None)
            self.game_id = self.store.new_game(empty)
            self.close()                # the game before (the menu's "New game") is let go
            self.lock = GameLock(self.store.path, self.game_id).acquire()
            self._saved = []
            self._finished = False
            self._players = [dict(p) for p in record.players]
        self._record = record

    def close(self) -> None:
        """Let go of the game's lock: another program may open it now."""
        if self.lock is not None:
            self.lock.release()
            self.lock = None
