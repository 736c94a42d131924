"""Where an error becomes worth a word, and a roll lucky: thresholds on the chance to win
(0 to 1), GNU Backgammon's, which are in equity (twice the chance), halved."""

from typing import Optional

INACCURACY = 0.02
MISTAKE = 0.04
BLUNDER = 0.08
# a roll that moved the chance of the player it fell for by this much or more
LUCKY = 0.05
VERY_LUCKY = 0.10


def error_mark(error: float) -> Optional[str]:
    if error >= BLUNDER:
        return "blunder"
    if error >= MISTAKE:
        return "mistake"
    if error >= INACCURACY:
        return "inaccuracy"
    return None


def luck_mark(luck: float) -> Optional[str]:
    size = abs(luck)
    if size < LUCKY:
        return None
    if luck > 0:
        return "very lucky" if size >= VERY_LUCKY else "lucky"
    return "very unlucky" if size >= VERY_LUCKY else "unlucky"
