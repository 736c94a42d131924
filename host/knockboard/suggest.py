"""The "did you mean" of every refusal of a name (a command, a game, a board): the nearest
of the names accepted, as difflib measures it. Imports nothing of the program."""

import difflib
from typing import Iterable


def did_you_mean(word: str, choices: Iterable[str], fold=str.casefold) -> str:
    """": did you mean X?" for the choice nearest to `word` (compared as `fold` makes
    both), or "" when none is near."""
    by_folded = {fold(c): c for c in choices}
    close = difflib.get_close_matches(fold(word), list(by_folded), n=1)
    return f": did you mean {by_folded[close[0]]}?" if close else ""
