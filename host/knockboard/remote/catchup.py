"""Reading the seats' pages back: a spectator's catch-up, and a home's after a restart.

A seat's history is retained in at most PAGES pages (pages.py), so a subscriber to the room
gets at most PAGES retained pages a seat, a few dozen messages, whatever the game's length:
the broker's queue (1,000 messages a client) never drops a catch-up.  Before, every message
was retained on a topic of its own, and a spectator of a finished 1,603-entry Dodgeball
game read 0-5 entries (the second review).

A page holds a run of its seat's messages; the game takes a message only within WINDOW
entries of its record (game.py), so the messages of the pages wait here and are handed to
the game an entry window at a time (SPECTATOR_PLIES past its record) as its record grows.
A page republished as it grows costs only its new lines, and a page replaced drops the
lines of its old version still waiting: what waits is bounded by the pages themselves."""

import heapq
from collections import OrderedDict
from typing import Optional, Union

from .messages import ACT, COMMIT, GAME_KINDS, REVEAL, Message, MessageError, decode, topic
from .pages import PAGE_BYTES

SPECTATOR_PLIES = 32          # a page's messages go to the game this far past its record
# the latest messages of a seat handed to the game (live or from a page), per seat: the same
# message in its tail, then in a page, is not handed over again
RECENT = 1024
_ORDER = {ACT: 0, COMMIT: 1, REVEAL: 2}      # within an entry (then the endings)


class Catchup:
    def __init__(self, room: str) -> None:
        self.room = room
        # (seat, page) -> its lines as last read -> the message still to hand over, or None
        self.lines: dict[tuple[int, int], dict[bytes, Optional[Message]]] = {}
        self.waiting: dict[int, set[tuple[tuple[int, int], bytes]]] = {}   # ply -> lines
        self._plies: list[int] = []          # a heap of the plies in `waiting` (and stale)
        self.recent: dict[int, OrderedDict[bytes, None]] = {}     # seat -> lines (RECENT)

    def handed(self, seat: int, line: Union[bytes, bytearray]) -> bool:
        """Note that seat `seat`'s message `line` goes to the game; whether it went lately."""
        recent = self.recent.setdefault(seat, OrderedDict())
        line = bytes(line)
        if line in recent:
            recent.move_to_end(line)
            return True
        recent[line] = None
        if len(recent) > RECENT:
            recent.popitem(last=False)
        return False

    def page(self, seat: int, page: int, payload: Union[bytes, bytearray]
             ) -> list[Union[str, Exception]]:
        """Seat `seat`'s (1-based) page `page` read; why each unreadable line is refused."""
        if len(payload) > PAGE_BYTES:
            return [f"a page of {len(payload)} bytes (at most {PAGE_BYTES})"]
        key = (seat, page)
        old = self.lines.get(key, {})
        new: dict[bytes, Optional[Message]] = {}
        refused: list[Union[str, Exception]] = []
        for line in bytes(payload).split(b"\n"):
            if not line or line in new:
                continue
            if line in old:
                new[line] = old[line]
                continue
            new[line] = None
            if line in self.recent.get(seat, ()):
                continue                     # (it came live, or in the tail)
            m: Optional[Message]
            try:
                m = decode(topic(self.room, seat, ACT), line, self.room)
            except MessageError as err:
                refused.append(err)
                continue
            if m.kind not in GAME_KINDS:
                refused.append(f"a {m.kind} message in a page")
                continue
            new[line] = m
            if m.ply not in self.waiting:
                heapq.heappush(self._plies, m.ply)
            self.waiting.setdefault(m.ply, set()).add((key, line))
        for line, m in old.items():          # the old version's lines still waiting go
            if m is not None and line not in new and m.ply in self.waiting:
                self.waiting[m.ply].discard((key, line))
                if not self.waiting[m.ply]:
                    del self.waiting[m.ply]
        self.lines[key] = new
        if len(self._plies) > 2 * len(self.waiting) + 64:    # (a page replaced again and
            self._plies = list(self.waiting)                 # again leaves stale plies)
            heapq.heapify(self._plies)
        return refused

    def ready(self, length: int) -> list[Message]:
        """The messages to hand to a game whose record has `length` entries, in order."""
        out: list[Message] = []
        while self._plies and self._plies[0] < length + SPECTATOR_PLIES:
            ply = heapq.heappop(self._plies)
            for key, line in self.waiting.pop(ply, set()):
                m = self.lines[key].get(line)
                if m is not None:
                    self.lines[key][line] = None
                    if not self.handed(key[0], line):
                        out.append(m)
        out.sort(key=lambda m: (m.ply, _ORDER.get(m.kind, 3), m.seat, m.kind))
        return out
