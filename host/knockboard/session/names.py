"""The players' names: what a name may be, and the names a family has used before.

A name is shown on the OLED wherever its seat is meant ("Ann to move", "Ann 3, Ben 5",
"Ann wins"), so it must be drawable and whole there: the OLED's font has printable ASCII
only, and a name of NAME_CHARS with a word's punctuation after it ("Christopher:") still
fits one 16-character line, so the layout (oled.py) never cuts it.  Two seats may not be
called alike: not the same name twice, nor one seat by another seat's colour ("Black" for
White would make "Black to move" mean White)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Optional, Sequence

if TYPE_CHECKING:
    from ..store import GameStore

NAME_CHARS = 12       # a name at most this long: "Christopher:" is one OLED line
NAMES_USED = 12       # the menu offers at most this many names of earlier games


def name_error(name: str) -> Optional[str]:
    """Why `name` cannot be a player's name (one line), or None."""
    if len(name) > NAME_CHARS:
        return f"{name!r}: a name is at most {NAME_CHARS} characters (the board's screen)"
    odd = sorted({ch for ch in name if not 0x20 <= ord(ch) <= 0x7E or ch == ","})
    if odd:
        return (f"{name!r}: the board's screen cannot show {''.join(odd)!r} in a name "
                "(letters, digits, spaces and ASCII punctuation but the comma)")
    return None


def names_error(names: Sequence[str], colours: Sequence[str]) -> Optional[str]:
    """Why `names` (by seat, "" for none) cannot name the seats whose colours are
    `colours` (one line), or None: each name must be one, and no two seats alike."""
    for name in names:
        error = name_error(name)
        if error is not None:
            return error
    said: dict[str, int] = {}
    for seat, name in enumerate(names):
        if not name:
            continue
        key = name.casefold()
        if key in said:
            return f"{name!r}: two players named alike (seats {said[key] + 1} and {seat + 1})"
        said[key] = seat
        for other, colour in enumerate(colours):
            if other != seat and key == colour.casefold():
                return f"{name!r}: that is the {colour} seat's colour; give another name"
    return None


@lru_cache(maxsize=1)
def seat_words() -> frozenset[str]:
    """Every seat's colour and engine name of every game ("white", "green+yellow", "p1",
    "team 2"), folded: saved records name an unnamed seat so, and those are no names."""
    from .. import registry
    from ..games import get_game
    from .adapters import get_ui
    from .menu import players_choices
    words = set()
    for game_name in registry.names():
        for players in players_choices(game_name):
            game = get_game(game_name, **({"players": players}
                                          if len(players_choices(game_name)) > 1 else {}))
            ui = get_ui(game)
            for seat in range(game.num_players):
                words |= {ui.colour_name(seat).casefold(), game.player_name(seat).casefold()}
    return frozenset(words)


def names_used(store: Optional[GameStore]) -> list[str]:
    """The names people played under in the store's games, newest first, each once (in
    the spelling used last), at most NAMES_USED; [] without a store or when it cannot be
    read (the menu then offers spelling a name)."""
    if store is None:
        return []
    try:
        rows = store.summaries()
    except Exception:               # a locked or damaged store: no names to offer
        return []
    out: list[str] = []
    for row in rows:
        for player in row[3] if isinstance(row[3], list) else []:
            name = str(player.get("name", "")) if isinstance(player, dict) else ""
            if not name or player.get("bot") or name_error(name) is not None:
                continue
            if name.casefold() in seat_words() or name.casefold() in map(str.casefold, out):
                continue
            out.append(name)
            if len(out) == NAMES_USED:
                return out
    return out
