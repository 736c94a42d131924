"""Ending a remote game before its rules end it, as the players at every board agree: a home
resigns (the game is over for every home), or a home offers to stop and every other home
accepts on its board (the game is then scored as the session scores a local game ended by
agreement) or one declines (play goes on).

An offer is made at an entry of the record (`ply`, its length then) and lapses as soon as
the record grows: the position the homes agree on is the one they all saw.  A resignation
and an acceptance name the seats of the sender's home, which must be the seats its own hello
named; a home speaks for no other.  What a peer sends that does not fit (an acceptance of
an offer nobody made, a resignation for a seat of another home, an answer to its own offer)
is refused in one log line and changes nothing (game.py's `_refuse`).

After a decline, the home that offered may not offer again until the record has grown by
OFFER_AGAIN_PLIES entries: an offer answered by a new one at once kept the other board
asking, its players unable to move, where one slip of OK ended the game.  Every home that
hears the decline keeps the window; an offer inside it is refused in one line."""

from dataclasses import dataclass
from typing import TYPE_CHECKING, AbstractSet, Optional, Sequence

from ..store.records import FORFEIT
from .messages import ACCEPT, DECLINE, OFFER, RESIGN, Message

if TYPE_CHECKING:
    from .game import RemoteGame

RESIGNED, AGREED = "resigned", "agreed"
# entries the record must grow by after a home's offer was declined before that home may
# offer again: about two turns each in a two-seat game with dice (a roll and a move a
# turn), and at most 16 characters on the OLED ("offer in 8 plies")
OFFER_AGAIN_PLIES = 8


class RemoteRefusal(Exception):
    """A local action the remote game cannot take (not this home's turn, game stopped)."""


@dataclass
class Offer:
    ply: int              # the record's length when it was made
    by: int               # the 0-based seat whose home made it
    agreed: frozenset[int]   # the 0-based seats whose homes agree so far (the offering home's too)


class Ending:
    def __init__(self, game: "RemoteGame") -> None:
        self.game = game
        # the open Offer, if any (lapsed once the record grows)
        self.offer: Optional[Offer] = None
        # (RESIGNED, the seats that resigned) or (AGREED, ())
        self.ended: Optional[tuple[str, tuple[int, ...]]] = None
        # the seat whose home declined our offer, until the session
        # has said so (`take_declined`)
        self.declined: Optional[int] = None
        # a home (`_maker`) whose offer was declined -> the ply of
        # that offer (its decline window, OFFER_AGAIN_PLIES)
        self.declines: dict[int, int] = {}

    # --- this home ----------------------------------------------------------------------------
    def resign(self) -> None:
        """The seats of this home resign: the other homes are told, the game is over."""
        g = self.game
        self._check_can_end()
        seats = sorted(g.local)
        g.say(RESIGN, seats=[s + 1 for s in seats])
        self._end(RESIGNED, seats)

    def offer_end(self) -> None:
        """Offer the other homes to end the game here (or, with their offer open, agree)."""
        g = self.game
        self._check_can_end()
        offer = self._open()
        if offer is not None and g.local <= offer.agreed:
            raise RemoteRefusal("offer already made")
        wait = self.plies_to_offer(min(g.local))
        if wait:
            raise RemoteRefusal(f"offer in {wait} plies")
        g.say(OFFER)
        self._agree(g.local, by=min(g.local))

    def answer(self, accept: bool) -> None:
        """Accept or decline the open offer of another home."""
        g = self.game
        if self.to_answer() is None:
            raise RemoteRefusal("no offer to answer")
        if accept:
            g.say(ACCEPT, seats=sorted(s + 1 for s in g.local))
            self._agree(g.local)
        else:
            g.say(DECLINE)
            self._declined(self.offer)  # type: ignore[arg-type]  # open: to_answer() above

    def to_answer(self) -> Optional[int]:
        """The seat whose home offers to end the game, while this home has not answered."""
        offer = self._open()
        if offer is None or self.game.local <= offer.agreed:
            return None
        return offer.by

    def waits_for_answer(self) -> bool:
        """This home's offer is open, waiting for the others' answers."""
        offer = self._open()
        return offer is not None and self.game.local <= offer.agreed

    def plies_to_offer(self, seat: int) -> int:
        """How many more entries the record needs before the home of `seat` (0-based) may
        offer again after a decline; 0 if it may now."""
        declined = self.declines.get(self._maker(seat))
        if declined is None:
            return 0
        return max(0, declined + OFFER_AGAIN_PLIES - len(self.game.record))

    def take_declined(self) -> Optional[int]:
        """The seat that declined our offer, once (None if none did since last asked)."""
        seat, self.declined = self.declined, None
        return seat

    # --- the other homes ----------------------------------------------------------------------
    def receive(self, m: Message) -> None:
        """A resignation, offer or answer from another home, its ply reached (game.py keeps
        later ones waiting)."""
        g = self.game
        seat = m.seat - 1
        if self.ended is not None:
            g.duplicates += 1              # over already: a late answer changes nothing
            return None
        if g.state.is_terminal():
            return g.refuse(m, "the game is over")
        if m.kind == RESIGN:
            return self._resigned(m)
        if m.ply < len(g.record):
            return None                    # an offer or answer that lapsed: play went on
        offer = self._open()
        if m.kind == OFFER:
            if offer is not None and seat in offer.agreed:
                g.duplicates += 1
                return None
            wait = self.plies_to_offer(seat)
            if wait:
                return g.refuse(m, f"its home's offer was declined at ply "
                                   f"{self.declines[self._maker(seat)]}: it may offer "
                                   f"again in {wait} plies")
            return self._agree(self.home(seat), by=seat)
        if offer is None:
            return g.refuse(m, f"it answers an offer to end the game that nobody made "
                                f"at ply {m.ply}")
        if m.kind == ACCEPT:
            why = self._speaks_for(m)
            if why:
                return g.refuse(m, why)
            if seat in offer.agreed:
                g.duplicates += 1
                return None
            return self._agree({s - 1 for s in m["seats"]})
        if seat in offer.agreed:
            return g.refuse(m, "it declines an offer its own home made or accepted")
        self._declined(offer)
        self.declined = seat
        g.log(f"remote: {g.seat_name(seat)} declined to end the game")
        return None

    def _resigned(self, m: Message) -> None:
        g = self.game
        why = self._speaks_for(m)
        if why:
            return g.refuse(m, why)
        self._end(RESIGNED, sorted(s - 1 for s in m["seats"]))
        return None

    def _speaks_for(self, m: Message) -> Optional[str]:
        """Why `m` may not speak for the seats it names, or None: they must be the sender's
        home's (`home`)."""
        if self.game.peers.get(m.seat - 1) is None:
            return f"seat {m.seat}'s home has not said which seats it plays"
        if m.seat not in m["seats"]:
            return f"seat {m.seat} names seats {m['seats']} without its own"
        others = sorted({s - 1 for s in m["seats"]} - self.home(m.seat - 1))
        if others:
            return f"seat {m.seat} cannot speak for seat {others[0] + 1}"
        return None

    # --- both -----------------------------------------------------------------------------
    def _check_can_end(self) -> None:
        g = self.game
        if g.stopped:
            raise RemoteRefusal(g.stopped)
        if self.ended is not None or g.state.is_terminal():
            raise RemoteRefusal("the game is over")
        if not g.local:
            raise RemoteRefusal("a spectator plays no seat")

    def _open(self) -> Optional[Offer]:
        offer = self.offer
        return offer if offer is not None and offer.ply == len(self.game.record) else None

    def home(self, seat: int) -> set[int]:
        """The 0-based seats of `seat`'s home: the seats its hello names whose own hellos
        name it too (the broker lets only a seat's user write its topics, so a home cannot
        claim another home's seat for an agreement or a resignation), and itself."""
        peers = self.game.peers
        hello = peers.get(seat)
        named = {s - 1 for s in hello["seats"]} if hello else set()
        return {seat} | {s for s in named
                         if s in peers and seat + 1 in peers[s]["seats"]}

    def _agree(self, seats: AbstractSet[int], by: Optional[int] = None) -> None:
        """`seats` agree to end the game at this ply (`by`: they offer it, if none is open)."""
        g = self.game
        offer = self._open()
        if offer is None:
            offer = self.offer = Offer(len(g.record), by if by is not None else min(seats),
                                       frozenset())
            if by not in g.local:
                g.log(f"remote: {g.seat_name(offer.by)} offers to end the game")
        offer.agreed = offer.agreed | frozenset(seats)
        if len(offer.agreed) == g.players:
            self._end(AGREED, ())

    def _declined(self, offer: Offer) -> None:
        """`offer` was declined: closed, and its maker's decline window opens."""
        self.declines[self._maker(offer.by)] = offer.ply
        self.offer = None

    def _maker(self, seat: int) -> int:
        """The home of `seat` as the decline windows know it: its first seat (a home with
        two seats cannot offer again from its other one)."""
        g = self.game
        return min(g.local) if seat in g.local else min(self.home(seat))

    def _end(self, kind: str, seats: Sequence[int]) -> None:
        g = self.game
        self.ended, self.offer = (kind, tuple(seats)), None
        what = " and ".join(g.seat_name(s) for s in seats) + " resigned" \
            if kind == RESIGNED else "the homes agreed to end the game"
        g.log(f"remote: {what} at ply {len(g.record)}")


def forfeit_result(game: "RemoteGame", seat: int, why: str) -> str:
    """The saved result of a game that `seat` (0-based) stopped and so lost, with every seat
    of its home: "won by forfeit: White wins (Black (seat 2) withheld ...)", or with more
    than one seat left, "won by forfeit: (why)" (the game ends for all, as a resignation)."""
    others = [s for s in range(game.players) if s not in game.ending.home(seat)]
    if len(others) == 1:
        return f"{FORFEIT}{game.seat_name(others[0])} wins ({why})"
    return f"{FORFEIT}({why})"
