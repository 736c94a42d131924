"""Who plays each seat: a person at the board or a computer player (a bot from
`knockboard.bots`)."""

from ..bots import GreedyBot, RandomBot

HUMAN = "human"
BOTS = {"greedy": GreedyBot, "random": RandomBot}
DEFAULT_BOT = "greedy"


class SeatError(ValueError):
    """A bad seat specification; the message says what is wrong."""


def make_bot(kind, seed):
    try:
        return BOTS[kind](seed)
    except KeyError:
        raise SeatError(f"unknown computer player {kind!r} "
                        f"(known: {', '.join(sorted(BOTS))})") from None


def parse_bots(text, players):
    """`--bots` text -> a list of seat kinds, one per seat: "2" (seat 2 is the default
    computer), "2,3", "2=random,3", "all", "none"."""
    seats = [HUMAN] * players
    text = (text or "").strip().lower()
    if text in ("", "none"):
        return seats
    if text == "all":
        return [DEFAULT_BOT] * players
    for part in text.split(","):
        number, _, kind = part.strip().partition("=")
        kind = kind or DEFAULT_BOT
        if kind not in BOTS:
            raise SeatError(f"--bots {part!r}: unknown computer player {kind!r} "
                            f"(known: {', '.join(sorted(BOTS))})")
        if not number.isdigit() or not 1 <= int(number) <= players:
            raise SeatError(f"--bots {part!r}: a seat is a number 1..{players}")
        seats[int(number) - 1] = kind
    return seats
