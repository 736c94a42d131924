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
spectator cannot tell which seat's history is true: it follows the entries every seat has
pinned (`Pins.agreed`), and at the first conflict it stops, saying in one line where it
is and up to which entry every seat agreed."""

import hashlib

START = "knockboard-transcript/"


def start(room):
    """The chain of the empty record in `room`."""
    return hashlib.sha256(f"{START}{room}".encode()).hexdigest()


def follow(chain, entry):
    """The chain of a record that is the record of `chain` and then `entry`."""
    return hashlib.sha256(f"{chain}/{entry}".encode()).hexdigest()


def chains(room, record):
    """The chain before each entry of `record`, and after the last."""
    out = [start(room)]
    for entry in record:
        out.append(follow(out[-1], entry))
    return out


class Pins:
    """How far each seat's messages have pinned this home's record."""

    def __init__(self):
        self.pinned = {}           # seat -> the longest record its messages pinned
        self.ahead = {}            # seat -> (length, chain) of its hello, past our record

    def pin(self, seat, length):
        self.pinned[seat] = max(self.pinned.get(seat, 0), length)

    def agreed(self, seats):
        """The length of the record every one of `seats` has pinned."""
        return min((self.pinned.get(s, 0) for s in seats), default=0)
