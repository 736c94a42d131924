"""A seat's history on the broker, in a fixed set of retained pages.

Stock Mosquitto has no storage quota per user, so what one seat's user can make the broker
keep is bounded only by the topics its ACL lets it write.  While every entry had a topic of
its own (`seat/N/PLY/act`), the ACL had to leave the ply level open (`+`), and a seat's user
could retain junk on as many topics as it liked (10,000 of 10,000 kept:
benchmarks/remote_store.py).  So a seat writes only exact names, the same few in every
game (broker_config.seat_topics):

- `seat/N/live`: each of its messages about the game as it is sent, not retained (a seat's
  user can retain one message there: the topic is fixed);
- `seat/N/tail` and `seat/N/page/K`, K < PAGES: its history, retained: every message it
  sent about the game, in order, one a line.  A message goes into the tail (at most
  TAIL_BYTES), republished with it; a full tail is moved into the pages (at most
  PAGE_BYTES each, the next one started when one is full), so a message costs its readers
  a tail (2 KB on average) and a page's share (a 64 KB page once every 4 KB of messages:
  about 2 KB more), not a page;
- `seat/N/hello` and `seat/N/online`, as before.

A home keeps its own seats' pages (`PageBook`); a home resumed from its record writes them
again from it (`RemoteGame.history`).  A home whose history would not fit any more stops the
game saying why (`HistoryFull`, game.py; it tells the others with a `full` message on its
live topic), rather than let the broker lose what it sent."""

import json
from typing import Optional

from .messages import PREFIX, Message

PAGES = 32                   # retained pages a seat writes
PAGE_BYTES = 64 * 1024       # a page's payload at most: a 2,206-entry Dodgeball game takes
                             # 750 KB a seat, 12 of its 32 pages
TAIL_BYTES = 4096            # the tail: a seat's latest messages, not yet in a page
PAGE, TAIL = "page", "tail"
TAIL_INDEX = -1              # the tail, where a page's number goes


def full_floor(longest: int, pages: int = PAGES, page_bytes: int = PAGE_BYTES,
               tail_bytes: int = TAIL_BYTES) -> int:
    """The least history a seat's pages hold once they are full (`PageBook`), as another
    home counts it: its lines' bytes plus one each, no line longer than `longest`.

    Each of the `pages` pages was closed by a line that did not fit after it, so holds more
    than page_bytes - longest - 1 bytes (its size counts the newlines between its lines);
    and at most a tail's worth of its latest messages (tail_bytes, plus one) may not have
    been taken by the other home yet, waiting for their entries."""
    return max(0, pages * (page_bytes - longest - 1) - tail_bytes - 1)


class HistoryFull(Exception):
    """A seat's message does not fit its pages any more: nothing was sent."""


def page_topic(room: str, seat: int, page: int) -> str:
    """The topic of 1-based `seat`'s page `page` (TAIL_INDEX: its tail)."""
    if page == TAIL_INDEX:
        return f"{PREFIX}/{room}/seat/{seat}/{TAIL}"
    return f"{PREFIX}/{room}/seat/{seat}/{PAGE}/{page}"


def page_of_topic(room: str, name: str) -> Optional[tuple[int, int]]:
    """(1-based seat, page) for a page topic `name` in `room` (TAIL_INDEX: its tail), else
    None."""
    parts = name.split("/")
    if len(parts) == 5 and parts[:3] == [PREFIX, room, "seat"] and parts[4] == TAIL:
        seat = parts[3]
        ok = seat.isascii() and seat.isdigit() and len(seat) == 1
        return (int(seat), TAIL_INDEX) if ok else None
    if len(parts) != 6 or parts[:3] != [PREFIX, room, "seat"] or parts[4] != PAGE:
        return None
    seat, page = parts[3], parts[5]
    if not (seat.isascii() and seat.isdigit() and len(seat) == 1 and page.isascii()
            and page.isdigit() and len(page) <= 3 and (page == "0" or page[0] != "0")):
        return None
    return int(seat), int(page)


class PageBook:
    """One seat's messages about the game, laid out in its pages and its tail: one line a
    (kind, ply), the last version sent.  A message goes into the tail, republished with
    it (at most TAIL_BYTES); a full tail is moved into the pages, so a page is republished
    once a tail's worth of messages, not once a message."""

    def __init__(self, room: str, seat: int, pages: int = PAGES,
                 page_bytes: int = PAGE_BYTES, tail_bytes: int = TAIL_BYTES) -> None:
        """`seat`: 1-based."""
        self.room, self.seat = room, seat
        self.capacity, self.page_bytes, self.tail_bytes = pages, page_bytes, tail_bytes
        self.pages: list[list[bytes]] = [[]]
        self.tail: list[bytes] = []
        # (kind, ply) -> (its page, or TAIL_INDEX, and its line there)
        self.where: dict[tuple[str, int], tuple[int, int]] = {}
        self.dirty: set[int] = set()

    def _lines(self, page: int) -> list[bytes]:
        return self.tail if page == TAIL_INDEX else self.pages[page]

    def _limit(self, page: int) -> int:
        return self.tail_bytes if page == TAIL_INDEX else self.page_bytes

    def _size(self, page: int) -> int:
        lines = [line for line in self._lines(page) if line]
        return sum(len(line) for line in lines) + max(0, len(lines) - 1)

    def add(self, message: Message) -> None:
        """`message` kept in the pages (again: its line replaced); HistoryFull, changing
        nothing, if it does not fit."""
        line = message.encode()
        key = (message.kind, message.ply)
        known = self.where.get(key)
        if known is not None:
            page, index = known
            old = self._lines(page)[index]
            if old == line:
                return
            if self._size(page) - len(old) + len(line) <= self._limit(page):
                self._lines(page)[index] = line
                self.dirty.add(page)
                return
        sealing = self._size(TAIL_INDEX) + 1 + len(line) > self.tail_bytes
        if sealing:
            self._check_room([t for t in self.tail if t])
        if known is not None:            # moved: its old line goes (an empty one keeps the
            self._lines(known[0])[known[1]] = b""      # other lines where they are)
            self.dirty.add(known[0])
        if sealing:
            self._seal()
        self.tail.append(line)
        self.where[key] = (TAIL_INDEX, len(self.tail) - 1)
        self.dirty.add(TAIL_INDEX)

    def _check_room(self, lines: list[bytes]) -> None:
        """HistoryFull if `lines` do not fit after the pages' last line."""
        count, size = len(self.pages), self._size(len(self.pages) - 1)
        for line in lines:
            if size and size + 1 + len(line) > self.page_bytes:
                count, size = count + 1, len(line)
            else:
                size += (1 if size else 0) + len(line)
        if count > self.capacity:
            raise HistoryFull(f"seat {self.seat}'s {self.capacity} pages of "
                              f"{self.page_bytes // 1024} KB are full")

    def _seal(self) -> None:
        """The tail's lines moved to the pages (`_check_room` said they fit)."""
        for line in self.tail:
            if not line:
                continue
            page = len(self.pages) - 1
            if self._size(page) and self._size(page) + 1 + len(line) > self.page_bytes:
                self.pages.append([])
                page += 1
            self.pages[page].append(line)
            self.where[self._key(line)] = (page, len(self.pages[page]) - 1)
            self.dirty.add(page)
        self.tail = []

    @staticmethod
    def _key(line: bytes) -> tuple[str, int]:
        data = json.loads(line)
        return data["kind"], data["ply"]

    def due(self) -> list[tuple[str, bytes]]:
        """(topic, payload) of the pages (and the tail) to republish: those that changed."""
        out = [(page_topic(self.room, self.seat, page),
                b"\n".join(line for line in self._lines(page) if line))
               for page in sorted(self.dirty)]
        self.dirty = set()
        return out
