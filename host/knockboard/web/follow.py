"""What the page follows, published to a feed as snapshots: the game in the game store (as
the game view's window follows it), each new entry a snapshot of its own so that a page goes
through every move; or a saved game's replay, at the step the board (or the window) shows."""

from __future__ import annotations

import threading

from ..gameview.export import matches, positions
from ..gameview.follower import StoreFollower
from ..gameview.sheet import score_sheet
from .snapshot import SnapshotMaker

POLL_S = 0.05              # how often the store is looked at: well inside 100 ms
MOST_STEPS = 64            # a longer jump (a page joining late) is sent as its last step


class FeedShower:
    """What `StoreFollower` shows a record to: snapshots published to `feed`."""

    def __init__(self, feed, fit_px: float = 560):
        self.feed = feed
        self.maker = SnapshotMaker(fit_px)
        self.shown = None              # (game id, entries) published last

    def show(self, record, state, step=None, match=None):
        sheet = score_sheet(record)
        first = len(record.actions)
        if self.shown is not None and self.shown[0] == record.id:
            done = self.shown[1]
            if record.actions[:len(done)] == done and len(record.actions) - len(done) <= MOST_STEPS:
                first = len(done) + 1
        if first < len(record.actions):
            states = positions(record)
            found = matches(record, states)
            for k in range(first, len(record.actions)):
                self.feed.publish(self.maker.make(record, states[k], sheet[:k],
                                                  match=found[k], latest=False))
        self.feed.publish(self.maker.make(record, state, sheet, step, match))
        self.shown = (record.id, list(record.actions))


class ReplayFollower:
    """A saved record (it must replay) at the step `step()` says, published when it
    changes."""

    def __init__(self, feed, record, step, fit_px: float = 560):
        self.feed = feed
        self.record = record
        self.step = step
        self.maker = SnapshotMaker(fit_px)
        self.states = positions(record)
        self.matches = matches(record, self.states)
        self.sheet = score_sheet(record)
        self.shown = None

    def poll(self):
        k = max(0, min(len(self.record.actions), self.step()))
        if k == self.shown:
            return False
        self.feed.publish(self.maker.make(self.record, self.states[k], self.sheet[:k],
                                          (k, len(self.record.actions)), self.matches[k]))
        self.shown = k
        return True

    def close(self):
        pass


class Watcher:
    """A thread polling a follower (`StoreFollower` to a `FeedShower`, `ReplayFollower`)
    every `poll_s` seconds."""

    def __init__(self, follower, poll_s: float = POLL_S):
        self.follower = follower
        self.poll_s = poll_s
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="knockboard-web-follow",
                                       daemon=True)

    def start(self):
        self.thread.start()
        return self

    def _run(self):
        try:
            while not self.stop.is_set():
                self.follower.poll()
                self.stop.wait(self.poll_s)
            # once more: what was saved just before the command ended (the result of a game
            # watched) reaches the pages before their streams close
            self.follower.poll()
        finally:
            self.follower.close()

    def close(self):
        self.stop.set()
        if self.thread.is_alive() and self.thread is not threading.current_thread():
            self.thread.join(5)


def store_watcher(feed, path, game_id=None, on_error=print, after=None) -> Watcher:
    """The store at `path` followed (game `game_id`, else the newest, if after `after`);
    `on_error` gets each problem once."""
    return Watcher(StoreFollower(FeedShower(feed), path, game_id, on_error, after))


def replay_watcher(feed, record, step) -> Watcher:
    return Watcher(ReplayFollower(feed, record, step))
