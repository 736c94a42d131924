"""What a game is started with: the game, its options, who sits where, the dice."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..games import get_game, get_match
from .seats import HUMAN


@dataclass
class Setup:
    game: str
    options: dict = field(default_factory=dict)
    seats: list = field(default_factory=list)    # per seat: "human" or a bot kind
    physical_dice: bool = False
    seed: Optional[int] = None
    rounds: int = 1                # a K.O. match of several rounds (games/ko/match.py)
    names: list = field(default_factory=list)    # the players' names by seat ("" : none)

    def __post_init__(self) -> None:
        game = get_game(self.game, **self.options)        # GameError if bad
        get_match(game, self.rounds)                      # GameError if no such match
        self.seats = (list(self.seats) + [HUMAN] * game.num_players)[:game.num_players]

    @property
    def players(self) -> int:
        return len(self.seats)

    def set_game(self, name: str) -> None:
        self.game, self.options, self.rounds = name, {}, 1
        self.seats = (self.seats + [HUMAN] * 4)[:get_game(name).num_players]

    def set_players(self, n: int) -> None:
        self.options["players"] = n
        self.seats = (self.seats + [HUMAN] * 4)[:n]

    def copy(self) -> Setup:
        return Setup(self.game, dict(self.options), list(self.seats), self.physical_dice,
                     self.seed, self.rounds, list(self.names))

    def name(self, seat: int) -> str:
        """The name given to `seat`'s player, or ""."""
        return self.names[seat] if seat < len(self.names) else ""
