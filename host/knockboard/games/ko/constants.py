"""K.O.'s phases and the markers its state holds, shared by the engine (`ko.py`), its
position text (`position.py`) and its notation (`notation.py`), which otherwise
need nothing of each other."""

from typing import Tuple

# Points for a piece still in play at the end, by number (index 0 unused).
POINTS = (0, 3, 2, 1, 1, 2, 3)

SETUP, ROLLOFF, TURN, END = range(4)

# KO-3: the game also ends after this many full rounds without a knock-out (option
# quiet_rounds; 0 keeps the sheet's reading, where such a game may never end).
QUIET_ROUNDS = 20

# What `pos` holds for a piece that is not on a space.
OUT = -1          # knocked out
UNPLACED = -2     # not placed yet (set-up)
ABSENT = -3       # its color does not play in this game

# Roll-off entries per seat (otherwise the sum thrown this round).
TO_THROW = 0
DROPPED = -1      # lost an earlier round of the roll-off

# A turn's moves still to make: (piece number, or 0 for any other piece of a double; steps).
Tasks = Tuple[Tuple[int, int], ...]
