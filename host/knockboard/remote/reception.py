"""Whether this home hears the room well enough to hold a seat's silence against it.

A seat that keeps back its dice forfeits (game.py), but a home may simply not have heard
it: the broker queues at most 1,000 messages for a client that lags and drops the rest, and
this home's own inbox drops what does not fit (room.INBOX_MAX).  Both happen under a flood,
and a flood by one seat made honest homes name another honest seat as withholding (the
second review: 4 runs of 4).  So the dice deadlines of game.py run only while this home
hears well:

- not while it is off the broker, nor in a second (FLOOD_WINDOW_S) in which its inbox
  dropped messages or more than FLOOD_MESSAGES arrived (the broker may be dropping some);
- and a seat is named only once this home has said hello since it last heard badly (a
  direct ask, which an honest home answers by resending its part of the roll) and
  HELLO_ANSWER_WAIT_S have passed.

So a flood costs the game time, never a seat: while it lasts, nobody is timed out (the
flooding seat included: a home cannot tell whose dice the broker dropped)."""

from typing import Optional

FLOOD_WINDOW_S = 1.0
FLOOD_MESSAGES = 200        # a second's messages beyond this is a flood: honest play sends
                            # a few a second (a catch-up after a reconnection counts too,
                            # which only pauses the deadlines for a moment)
HELLO_ANSWER_WAIT_S = 3.0   # a direct hello unanswered this long: the seat is withholding


class Reception:
    def __init__(self, now: float) -> None:
        self.bad_at = now             # when this home last heard badly (at the start: it
                                      # has heard nothing yet)
        self.asked_at: Optional[float] = None        # our first hello since then
        self._window_at = now
        self._heard = 0               # messages that arrived this window

    def heard(self) -> None:
        """A message arrived."""
        self._heard += 1

    def said_hello(self, now: float) -> None:
        if self.asked_at is None:
            self.asked_at = now

    def update(self, now: float, connected: bool, lost: int) -> None:
        """Time passes: `connected` to the broker, `lost` messages dropped by the inbox."""
        if not connected or lost or self._heard > FLOOD_MESSAGES:
            self.bad_at, self.asked_at = now, None
        if now - self._window_at >= FLOOD_WINDOW_S:
            self._window_at, self._heard = now, 0

    def hears(self, now: float) -> bool:
        """Whether the dice deadlines run now: this home has heard well for a window."""
        return now - self.bad_at >= FLOOD_WINDOW_S

    def asked(self, now: float) -> bool:
        """A hello of ours went out since this home last heard badly, long enough ago for
        an honest seat to have answered it."""
        return self.asked_at is not None and now - self.asked_at >= HELLO_ANSWER_WAIT_S
