"""A K.O. match: several rounds whose points are added (RULES.md section 3, "A match of
several rounds adds the points"; the sheet: decide the number of rounds before you start).

Each round is an ordinary K.O. game from `game.new_initial_state()`, roll-off included: the
sheet says nothing about who starts a later round, so every round is started afresh.  The
match only adds up the points of finished rounds:

    match = KOMatch(get_game("ko", players=3), rounds=3)
    state = match.new_round()
    ... play state to the end ...
    match.record(state)          # adds state.points(); after the last round,
    match.result()               # 'Red wins with 21 points (Red 21, Green 15, Yellow 21)'

A match is written as text for saving: `<rounds> <points of round 1> <points of round 2> ...`
with each round's points per seat separated by commas, e.g. `3 9,4,6 3,3,10`.
"""

from __future__ import annotations

from typing import Iterable, List, Optional, Sequence, Tuple

from ..base import GameError
from .game import POINTS, KOGame, KOState, describe_result, places


class KOMatch:
    def __init__(self, game: KOGame, rounds: int) -> None:
        if not isinstance(game, KOGame):
            raise GameError(f"a K.O. match needs a K.O. game, not {game!r}")
        if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
            raise GameError(f"a match has a whole number of rounds, at least 1 (got {rounds!r})")
        self.game = game
        self.rounds = rounds
        self.round_points: List[Tuple[int, ...]] = []

    @property
    def rounds_played(self) -> int:
        return len(self.round_points)

    def is_over(self) -> bool:
        return len(self.round_points) == self.rounds

    def new_round(self) -> KOState:
        """The start of the next round."""
        if self.is_over():
            raise GameError(f"the match of {self.rounds} rounds is over")
        return self.game.new_initial_state()

    def record(self, state: KOState) -> List[int]:
        """Add the points of a finished round; returns the totals."""
        if state.game.num_players != self.game.num_players or state.game.name != "ko":
            raise GameError("this round was not played with the match's players")
        if not state.is_terminal():
            raise GameError("the round is not over yet: only finished rounds count")
        return self.record_points(state.points())

    def record_points(self, points: Iterable[int]) -> List[int]:
        """Add a round's points given per seat (e.g. counted on paper); returns the totals."""
        if self.is_over():
            raise GameError(f"the match of {self.rounds} rounds is over")
        points = list(points)
        most = sum(POINTS) * max(len(colors) for colors in self.game.seats)  # nothing lost
        if len(points) != self.game.num_players or not all(
                isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= most
                for p in points):
            raise GameError(f"a round's points are {self.game.num_players} whole numbers "
                            f"from 0 to {most}, got {points!r}")
        self.round_points.append(tuple(points))
        return self.totals()

    def undo_round(self) -> Tuple[int, ...]:
        """Take back the last recorded round; returns its points."""
        if not self.round_points:
            raise IndexError("undo_round: no round recorded")
        return self.round_points.pop()

    def totals(self) -> List[int]:
        return [sum(r[seat] for r in self.round_points)
                for seat in range(self.game.num_players)]

    def places(self) -> List[int]:
        """Per seat, its place by total points (equal totals share a place)."""
        return places(self.totals())

    def result(self) -> Optional[str]:
        """The match result once every round is played, else None."""
        if not self.is_over():
            return None
        return self.standing()

    def standing(self) -> str:
        """The totals so far in words, as the result is written: who leads, every seat's."""
        return describe_result(self.game.seat_names, self.totals())

    def tally(self, points: Sequence[int]) -> str:
        """Per seat its letters and `points` in one short line for the OLED: 'R6 G2 Y0',
        'RB6 GY2' (at most 15 characters for 4 seats with two-digit points)."""
        return " ".join(f"{token}{p}" for token, p in zip(self.game.seat_tokens, points))

    def copy(self) -> KOMatch:
        other = KOMatch(self.game, self.rounds)
        other.round_points = list(self.round_points)
        return other

    def to_text(self) -> str:
        return " ".join([str(self.rounds)] + [",".join(map(str, r)) for r in self.round_points])

    @classmethod
    def from_text(cls, game: KOGame, text: str) -> KOMatch:
        fields = str(text).split()
        if not fields or not fields[0].isdigit():
            raise GameError(f"K.O. match {text!r}: expected '<rounds> <points,...> ...'")
        match = cls(game, int(fields[0]))
        for field in fields[1:]:
            values = field.split(",")
            if not all(v.isdigit() for v in values):
                raise GameError(f"K.O. match: round {field!r} is not points separated by "
                                "commas")
            if match.is_over():
                raise GameError(f"K.O. match {text!r}: more rounds than the {match.rounds} "
                                "announced")
            match.record_points([int(v) for v in values])
        return match

    def __repr__(self) -> str:
        return f"<KOMatch {self.to_text()!r}>"
