"""When to answer the hellos of the other homes, and from which entry: in proportion to what
each asks for and has taken.

A hello says how long its home's record is; this home resends its own messages from there
(game.py's `_resend_from`).  A hello costs its sender one small message, and a resend from
an early entry may be the whole game, so:

- a peer is answered at most once in HELLO_RESEND_S;
- a peer that asks again for an entry its last answer sent it (it did not take it: a flood
  lost it, its host was restarted from an older record, or it lies to make us resend)
  waits twice as long as the last time, up to HELLO_BACKOFF_MAX_S; asking only for what
  came after its last answer starts again at HELLO_RESEND_S.  So an ask for the roll at
  our record's end (a few messages) never backs off: a home that lost a die's message gets
  it again within HELLO_RESEND_S;
- once the game is over and a peer's hello has said that its record reaches ours (it has
  every entry: acknowledged), its hellos are not answered any more.

Before, a hello a second made a home send its whole game each second, after the game was
over too (720 bytes of hellos made 973 KB)."""

from typing import Optional

HELLO_RESEND_S = 1.0           # a peer is answered at most this often
HELLO_BACKOFF_MAX_S = 64.0     # the longest a peer asking again for the same entries waits


class HelloAnswers:
    def __init__(self) -> None:
        # seat -> the earliest entry its hellos ask for, unanswered
        self._asks: dict[int, int] = {}
        self._due: dict[int, float] = {}           # seat -> when it may be answered next
        # seat -> how long it waited after its last answer
        self._wait: dict[int, float] = {}
        self._sent_to: dict[int, int] = {}       # seat -> our record's length at its last answer
        # seats that have every entry of the game, which is over
        self.acknowledged: set[int] = set()
        self.unanswered = 0        # hellos of acknowledged peers, not answered

    def ask(self, seat: int, ply: int, length: int, over: bool) -> None:
        """Seat `seat`'s hello says its record has `ply` entries; ours has `length`, and the
        game is `over` or not.  Only a hello that is not ahead of us is asked here."""
        if seat in self.acknowledged:
            self.unanswered += 1
            return
        if over and ply >= length:
            self.acknowledged.add(seat)
            self._asks.pop(seat, None)
            return
        self._asks[seat] = min(self._asks.get(seat, ply), ply)

    @property
    def owed(self) -> bool:
        """Whether a peer's hello is still to be answered (it is not due yet)."""
        return bool(self._asks)

    def due(self, length: int, now: float) -> Optional[int]:
        """The entry to resend from for the peers due at `now` (one resend serves them all),
        or None; `length`: our record's."""
        seats = [s for s in self._asks if now >= self._due.get(s, now)]
        if not seats:
            return None
        asked = {s: self._asks.pop(s) for s in seats}
        for s, ply in asked.items():
            # asking for an entry it was sent in its last answer: it did not take it
            again = ply < self._sent_to.get(s, 0)
            wait = min(2 * self._wait[s], HELLO_BACKOFF_MAX_S) if again else HELLO_RESEND_S
            self._wait[s], self._due[s], self._sent_to[s] = wait, now + wait, length
        return min(length, *asked.values())
