# Standalone mode: with no host the board is an electronic dice roller.
# BACK cycles the die (d4, d6, d8), MENU the number of dice (1..4), OK rolls.
from keys import OK, BACK, MENU
import sound

KINDS = (4, 6, 8)


def roll_die(kind, getrandbits):
    # Rejection sampling on the fewest bits: unbiased, unlike getrandbits(8) % 6.
    bits = 2 if kind <= 4 else 3
    while True:
        v = getrandbits(bits)
        if v < kind:
            return v + 1


class DiceRoller:
    def __init__(self, getrandbits):
        self.k = 1  # d6
        self.count = 2
        self.values = bytearray(0)
        self.getrandbits = getrandbits

    def lines(self, status):
        return (status, "%d x d%d" % (self.count, KINDS[self.k]), "OK:roll B:d M:n")

    def press(self, control):
        """Returns the sound pattern to play."""
        if control == OK:
            kind = KINDS[self.k]
            self.values = bytearray(roll_die(kind, self.getrandbits) for _ in range(self.count))
            return sound.ROLL
        if control == BACK:
            self.k = (self.k + 1) % len(KINDS)
        elif control == MENU:
            self.count = self.count % 4 + 1
        self.values = bytearray(0)
        return sound.CLICK

    def show(self, display, status, roll, now):
        kind = KINDS[self.k] if self.values else 0
        display.show(kind, self.values, self.lines(status), roll, now)
