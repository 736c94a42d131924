"""One transcript: every message a seat sends about the game carries `chain`, a hash of the
record it follows, chained entry by entry, so an honest seat's messages fix the past.

Every message is retained on its seat's own topics, so after a game a seat can overwrite
its own messages: the second review's loser rewrote its moves and a die, and a spectator
joining later read a finished game with the opposite result and no warning.  The other
seats' messages still pin the true history: a message at entry PLY carries the chain of
the record's first PLY entries, and a hello (which says how long its home's record is)
the chain of the whole record; a home says hello once more when the game is over, so the
last entry is pinned too.

A home refuses a message whose chain is not its own record's (it changes nothing).  A
spectator follows the entries every seat has pinned (`Pins.agreed`) and stops at the first
conflict.  Two seats' word against each other does not say which one lies, so every
message also carries `own`: a chain of its seat's own part of the game so far (its moves
and its dice commitments, `own_follow`), which only that seat's user can write.  A seat
that rewrote an entry of its own but not every message it sent after it contradicts
itself: its later messages' `own` is not the chain of what its topics now hold.  The
spectator names that seat and the entry (`blame`); a seat that rewrote every message
after the entry, consistently, cannot be told from a seat framing it (the messages are
not signed), and the spectator says only where the histories part."""

import hashlib
from typing import Collection, Iterable, Mapping, Optional

from .messages import ACT, COMMIT, Message

START = "knockboard-transcript/"
OWN_START = "knockboard-own/"


def start(room: str) -> str:
    """The chain of the empty record in `room`."""
    return hashlib.sha256(f"{START}{room}".encode()).hexdigest()


def follow(chain: str, entry: str) -> str:
    """The chain of a record that is the record of `chain` and then `entry`."""
    return hashlib.sha256(f"{chain}/{entry}".encode()).hexdigest()


def own_start(room: str, seat: int) -> str:
    """The `own` chain of 0-based `seat` before it played any part in `room`."""
    return hashlib.sha256(f"{OWN_START}{room}/{seat + 1}".encode()).hexdigest()


def own_follow(own: str, ply: int, part: tuple[str, str]) -> str:
    """The `own` chain after a seat's part in entry `ply`: ("act", its entry's text) or
    ("commit", its dice commitment)."""
    kind, content = part
    return hashlib.sha256(f"{own}/{ply}/{kind}/{content}".encode()).hexdigest()


def blame(start: str, start_ply: int, claims: Mapping[int, Collection[str]],
          parts: Mapping[int, tuple[str, str]]) -> Optional[tuple[int, int]]:
    """Where one seat's messages contradict each other, from the entry `start_ply` on, where
    its `own` chain was `start`: `claims` maps a ply to the `own` values its messages at
    that ply carried, `parts` a ply to its part in that entry, as its topics hold it.
    Returns (first, last), the 0-based entries of its own among which it rewrote one (first
    == last: that entry), or None if its messages agree with each other."""
    own, matched = start, start_ply
    for ply in range(start_ply, max(claims, default=start_ply) + 1):
        said = claims.get(ply, ())
        if ply > start_ply and any(c != own for c in said):
            mine = [p for p in sorted(parts) if matched <= p < ply]
            return (mine[0], mine[-1]) if mine else None
        if said:
            matched = ply
        if ply in parts:
            own = own_follow(own, ply, parts[ply])
    return None


def chains(room: str, record: Iterable[str]) -> list[str]:
    """The chain before each entry of `record`, and after the last."""
    out = [start(room)]
    for entry in record:
        out.append(follow(out[-1], entry))
    return out


class Pins:
    """How far each seat's messages have pinned this home's record."""

    def __init__(self) -> None:
        self.pinned: dict[int, int] = {}         # seat -> the longest record its messages pinned
        # seat -> (length, chain) of its hello, past our record
        self.ahead: dict[int, tuple[int, str]] = {}

    def pin(self, seat: int, length: int) -> None:
        self.pinned[seat] = max(self.pinned.get(seat, 0), length)

    def agreed(self, seats: Iterable[int]) -> int:
        """The length of the record every one of `seats` has pinned."""
        return min((self.pinned.get(s, 0) for s in seats), default=0)


class Evidence:
    """What each seat's messages said, kept by a spectator that may have to blame one: per
    seat, the `own` values its messages at each ply carried and its part in each entry, as
    its topics hold them, from the entries every seat agreed on (older ones are let go)."""

    KEEP = 4          # different `own` values kept a seat and ply (one is a contradiction)
    PRUNE_AT = 1024   # plies kept a seat before those every seat agreed on are let go

    def __init__(self) -> None:
        self.claims: dict[int, dict[int, set[str]]] = {}        # seat -> ply -> {own}
        # seat -> ply -> (kind, its entry or commitment)
        self.parts: dict[int, dict[int, tuple[str, str]]] = {}
        # (seat, ply): a rewrite a home has said in its log
        self.said: set[tuple[int, int]] = set()

    def note(self, m: Message, agreed: int) -> None:
        """Seat `m.seat`'s message `m` (any kind with a chain) was read."""
        if m.ply < agreed:
            return
        seat = m.seat - 1
        claims = self.claims.setdefault(seat, {})
        said = claims.setdefault(m.ply, set())
        if len(said) < self.KEEP:
            said.add(m["own"])
        if m.kind in (ACT, COMMIT):
            part = (m.kind, m["action"] if m.kind == ACT else m["hash"])
            self.parts.setdefault(seat, {}).setdefault(m.ply, part)
        if len(claims) > self.PRUNE_AT:
            for table in (claims, self.parts.get(seat, {})):
                for ply in [p for p in table if p < agreed]:
                    del table[ply]

    def since(self, seat: int, ply: int, end: int
              ) -> tuple[dict[int, set[str]], dict[int, tuple[str, str]]]:
        """(claims, parts) of `seat` from entry `ply` on, before `end`, for `blame`."""
        return ({p: v for p, v in self.claims.get(seat, {}).items() if ply <= p < end},
                {p: v for p, v in self.parts.get(seat, {}).items() if ply <= p < end})
