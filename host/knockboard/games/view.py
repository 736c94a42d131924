"""A typed read view of a position: what a picture of the board needs, and nothing else.

`state.view()` returns a frozen `PositionView` (a subclass per game with the game's own
fields): the pieces by space name, each with its owner and what the game says about it
(a KNOCKabout die's sides and face, a K.O. piece's colour and number, a Dodgeball pawn's
ball), the dice in play, the phase, who acts, whose turn it is and the scores.  The board
adapters and a game view (a GUI's picture) draw from it alone; the position string stays
the format of records and people, and the engines' fields stay private.

Views are built on request from the engine's fields; search bots that evaluate many
positions read the engines' cheap public accessors instead (see each engine).
"""

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Optional, Tuple


@dataclass(frozen=True)
class PieceView:
    """One piece standing on a space.  Fields a game does not use keep their defaults."""
    owner: int               # the seat it belongs to (0-based)
    color: int = -1          # K.O.: the board colour (an index of the board's colours)
    number: int = 0          # K.O.: the piece's number, 1-6
    sides: int = 0           # KNOCKabout: the die's sides, 4, 6 or 8
    face: int = 0            # KNOCKabout: the face it shows
    ball: bool = False       # Dodgeball: the pawn carries a ball


def frozen_map(items: Iterable[Tuple[Any, Any]]) -> Mapping:
    """A read-only mapping for a view's field."""
    return MappingProxyType(dict(items))


@dataclass(frozen=True)
class PositionView:
    """What every game's view has.

    `to_act` is `current_player()` (a seat, CHANCE or TERMINAL); `turn` is the seat whose
    turn it is, also while it rolls its dice (-1 when the turn belongs to nobody: a
    roll-off, a set-up shared by all); `dice` the dice of the turn still to be used;
    `scores` one number per seat, what the game counts (see each subclass)."""
    game: str
    phase: str
    to_act: int
    turn: int
    pieces: Mapping[str, PieceView]
    dice: Tuple[int, ...] = ()
    scores: Tuple[float, ...] = ()

    def piece_at(self, space: str) -> Optional[PieceView]:
        """The piece on the named space, or None."""
        return self.pieces.get(space)

    def spaces_of(self, seat: int) -> Tuple[str, ...]:
        """The spaces holding `seat`'s pieces, in the order of `pieces`."""
        return tuple(space for space, piece in self.pieces.items() if piece.owner == seat)


@dataclass(frozen=True)
class KnockaboutView(PositionView):
    """phase: "rolloff" (K-3, `turn` -1), "move", "reroll" (the die on `reroll` is rolled
    again; `turn` is the player whose move it completes) or "over".  scores: the dice each
    player has in the gutter (five lose)."""
    reroll: Optional[str] = None
    rolloff_pending: bool = False


@dataclass(frozen=True)
class Throw:
    """A Dodgeball throw in the air: squares, the target's declaration once made ("catch"
    or "dodge"), and the rolls made so far (the thrower's, then the target's)."""
    thrower: str
    target: str
    declared: Optional[str] = None
    rolls: Tuple[int, ...] = ()


@dataclass(frozen=True)
class DodgeballView(PositionView):
    """phase: "setup" (`turn` is the team placing), "rolloff" (`turn` -1), "turn" or
    "over".  dice: the unspent dice of the team on turn (during the roll-off, of the team
    rolling).  scores: each team's pawns left.  team_dice: per team (unspent dice sorted,
    dice spent this turn); start_balls: the starting balls still on the centre line, named
    by the files they lie between ("ab", "de", "gh"); loose: square -> loose balls there."""
    team_dice: Tuple[Tuple[Tuple[int, ...], int], ...] = ()
    start_balls: Tuple[str, ...] = ()
    loose: Mapping[str, int] = field(default_factory=lambda: frozen_map(()))
    throw: Optional[Throw] = None


@dataclass(frozen=True)
class KnockoffView(PositionView):
    """phase: "rolloff" (`turn` -1), "roll", "move" or "over" (`turn` the winner).
    `pieces` are the pawns on platforms; `home` counts each seat's pawns in its home base
    (named in `home_bases`).  scores: pawns on the top row (three win).  rolloff: one mark
    per seat, the die rolled, 0 still to roll, -1 out of it; extra_roll: a double's extra
    roll is owed."""
    home: Tuple[int, ...] = ()
    home_bases: Tuple[str, ...] = ()
    rolloff: Tuple[int, ...] = ()
    extra_roll: bool = False


@dataclass(frozen=True)
class KOView(PositionView):
    """phase: "setup" (`placing` is the piece to place next, owner/colour/number; `turn`
    its seat), "rolloff" (`rolloff`: per seat the sum thrown, 0 still to throw, -1
    dropped), "turn" (`moves`: the throw's moves left as (number, steps), number 0 for
    "any other piece", empty before the throw) or "over".  dice: the steps of the moves
    left.  scores: the points of the pieces still in play.  seat_colors: each seat's
    colours; `letters` the board's colour letters; `out`: the pieces knocked out; `quiet`:
    the turns thrown since the last knock-out (KO-3)."""
    seat_colors: Tuple[Tuple[int, ...], ...] = ()
    letters: str = ""
    placing: Optional[PieceView] = None
    rolloff: Tuple[int, ...] = ()
    moves: Tuple[Tuple[int, int], ...] = ()
    out: Tuple[PieceView, ...] = ()
    quiet: int = 0
