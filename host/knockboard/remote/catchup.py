"""A spectator's catch-up that does not depend on the broker's queue.

Every message is retained on a topic of its own (messages.py), so subscribing to the whole
room (`knockboard/ROOM/#`) makes the broker send a subscriber the whole game at once.  The
broker queues at most 1,000 messages for a client (Mosquitto's `max_queued_messages`) and
drops the rest: a spectator of a finished 1,603-entry Dodgeball game read 0-5 entries and
waited for ever (the second review).  A spectator (a read-only user, room.py with no
seats) therefore subscribes to the seats' hellos and presence, and to the topics of the
next SPECTATOR_PLIES entries only (`knockboard/ROOM/seat/+/PLY/+`, one filter a ply); as its
record grows it moves the window on.  The broker then holds at most SPECTATOR_PLIES x seats
x kinds retained messages for it at a time (a few hundred), and whatever one seat's user
stored on topics outside the window (junk at ply 999999) is never sent to it."""

from .messages import HELLO, ONLINE, PREFIX

SPECTATOR_PLIES = 32


def seat_filters(room: str) -> list[str]:
    """The topics a spectator always reads: each seat's hello and presence."""
    return [f"{PREFIX}/{room}/seat/+/{kind}" for kind in (HELLO, ONLINE)]


def ply_filter(room: str, ply: int) -> str:
    return f"{PREFIX}/{room}/seat/+/{ply}/+"


class PlyWindow:
    """The entries whose topics a spectator is subscribed to."""

    def __init__(self, room: str) -> None:
        self.room = room
        self.plies: set[int] = set()

    def reset(self) -> None:
        """A new connection: the broker forgot the subscriptions."""
        self.plies = set()

    def move(self, length: int) -> tuple[list[str], list[str]]:
        """(filters to subscribe, filters to unsubscribe) for a record of `length` entries:
        the next SPECTATOR_PLIES entries' topics, and none of the entries before."""
        wanted = set(range(length, length + SPECTATOR_PLIES))
        new, old = sorted(wanted - self.plies), sorted(p for p in self.plies if p < length)
        self.plies = (self.plies | set(new)) - set(old)
        return [ply_filter(self.room, p) for p in new], [ply_filter(self.room, p) for p in old]
