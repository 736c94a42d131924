"""Dodgeball's ball economy, solved exactly: what the balls a team holds are worth.

A model of the game that keeps what the rules fix about balls and throws and forgets the
board: a throw is a duel of two dice (against a target that catches the thrower wins 21/36
and is out 15/36; against one that dodges, which a carrier must (D-4), it wins 15/36 and
risks nothing); every throw hands its ball to the target's team, except a miss that the
target's owner places on the thrower's half (the share r of a throw's misses that come
back, which the thrower chooses throw by throw among the targets on offer: `miss_share`,
from the engine's own `miss_squares`).  States are (own pawns, other's pawns, balls held
by the player: the other holds the rest); the player throws (at a catcher, or at a carrier
when the other team holds a ball) or holds, then the other team throws one of its balls or
not, by its habits (`Opponent`).  Value iteration gives each state's win probability under
the best choices, or under a fixed policy (the greedy bot's).

`benchmarks/dodgeball_ceiling.py` reads bounds and predictions from it (see there and
`benchmarks/arena.md`); the strong bot's learnt value takes the value of the ball economy
against the greedy bot's habits as a feature (`dodgeball_value.economy`): a ball is worth
the throws it will make later, and what a throw hands back.
"""

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..games import get_game
from ..games.dodgeball import HALF

PAWNS = 5
BALLS = 3
HIT_CATCHER = 21 / 36      # the thrower wins against a target that catches (ties too)
HIT_DODGER = 15 / 36       # ... against one that dodges (ties are misses)


@dataclass(frozen=True)
class Opponent:
    """The other bot's habits, as its code has them (throws: measured for the random bot)."""
    name: str
    catches: bool           # declares catch whenever it may (else catch or dodge at random)
    keeps: bool             # places a missed ball on its own half whenever it can
    throws: float           # chance it throws a ball it holds after each of the player's acts


def greedy(throws: float = 1.0) -> Opponent:
    """The greedy bot: catches what it may, keeps its misses, throws whenever it can."""
    return Opponent("greedy", catches=True, keeps=True, throws=throws)


def random_bot(throws: float) -> Opponent:
    """The random bot: declares and places at random, throws at its measured rate."""
    return Opponent("random", catches=False, keeps=False, throws=throws)


State = Tuple[int, int, int]          # (own pawns, other's pawns, balls held)
Outcomes = List[Tuple[float, State]]
# A formation class: (probability, best share of a miss that comes back over the other
# team's pawns, the mean share over them: a target chosen regardless of its return).
Geometry = List[Tuple[float, float, float]]


def miss_share(state: Any, target: int, keeps: bool) -> float:
    """The share of a throw's misses at `target` that its owner places on the thrower's
    half: at random among the engine's miss squares, or (`keeps`) on its own half if any."""
    squares = state.miss_squares(target)
    thrower_half = HALF[1 - state.squares()[0][target]]
    back = sum(1 for s in squares if s in thrower_half)
    if keeps:
        return 1.0 if back == len(squares) else 0.0
    return back / len(squares)


def formation_shares(state: Any, team: int, keeps: bool) -> Tuple[float, float]:
    """(best, mean) miss share over the pawns of the team `team` throws at."""
    board = state.squares()[0]
    shares = [miss_share(state, s, keeps) for s in range(64) if board[s] == 1 - team]
    return max(shares), sum(shares) / len(shares)


def lone_pawn_geometry(keeps: bool) -> Geometry:
    """The bare geometry: a team 2 pawn alone on its best square (every square tried), the
    thrower's balls out of the way: what any target offers when its own pieces do not wall
    it in."""
    game = get_game("dodgeball")
    best = 0.0
    for s in range(32, 64):
        name = "abcdefgh"[s % 8] + str(s // 8 + 1)
        state = game.from_position(f"turn1 1:a1+,b1+,c1+ 2:{name} balls:- dice:123/456")
        best = max(best, miss_share(state, s, keeps))
    return [(1.0, best, best)]


def _outcomes_of_throw(u: int, t: int, b: int, r: float, catcher: bool,
                       catches: bool) -> Outcomes:
    """[(probability, (u, t, b))] after the player's throw at a catcher or a carrier (which
    must dodge); the ball leaves the player unless a miss comes back (share r)."""
    dodge = [(HIT_DODGER, (u, t - 1, b - 1)),
             ((1 - HIT_DODGER) * r, (u, t, b)), ((1 - HIT_DODGER) * (1 - r), (u, t, b - 1))]
    if not catcher:
        return dodge
    catch = [(HIT_CATCHER, (u, t - 1, b - 1)), (1 - HIT_CATCHER, (u - 1, t, b - 1))]
    if catches:
        return catch
    return [(p / 2, x) for p, x in catch + dodge]


def _outcomes_of_reply(u: int, t: int, b: int, catch: bool) -> Outcomes:
    """[(probability, (u, t, b))] after the other bot's throw at a pawn of the player's that
    catches or dodges: the ball comes to the player whatever happens."""
    if catch:
        return [(HIT_CATCHER, (u - 1, t, b + 1)), (1 - HIT_CATCHER, (u, t - 1, b + 1))]
    return [(HIT_DODGER, (u - 1, t, b + 1)), (1 - HIT_DODGER, (u, t, b + 1))]


def _merged(geometry: Geometry, policy: Optional[str]) -> Geometry:
    """The formation classes a policy tells apart: the best policy reads only the best share
    on offer, the greedy bot's only the mean one (the same values, fewer sums)."""
    column = 2 if policy == "greedy" else 1
    merged: Dict[float, float] = {}
    for entry in geometry:
        merged[entry[column]] = merged.get(entry[column], 0.0) + entry[0]
    return [(p, r, r) for r, p in sorted(merged.items())]


class Model:
    """The ball economy against `opponent` in formations `geometry` (see the docstring);
    `policy`: None for the best choices, or 'greedy' for the greedy bot's."""

    def __init__(self, opponent: Opponent, geometry: Geometry,
                 policy: Optional[str] = None, exposed: Optional[float] = None) -> None:
        self.opponent = opponent
        self.policy = policy
        self.geometry = _merged(geometry, policy)
        # The share of the other's throws that come at a carrier when the player holds a
        # ball (a carrier must dodge): None for the player's choice, throw by throw.
        if exposed is None and policy == "greedy":
            exposed = 1.0 if opponent.catches else None
        self.exposed = exposed
        self.value: Dict[State, float] = {
            (u, t, b): 0.0 for u in range(1, PAWNS + 1) for t in range(1, PAWNS + 1)
            for b in range(BALLS + 1)}

    def v(self, u: int, t: int, b: int) -> float:
        if t == 0:
            return 1.0
        if u == 0:
            return 0.0
        return self.value[(u, t, b)]

    def reply(self, u: int, t: int, b: int) -> float:
        """The value after the player has acted: the other bot throws one of its balls (if
        it holds one) with its chance to throw."""
        if t == 0 or u == 0 or b == BALLS:
            return self.v(u, t, b)
        q = self.opponent.throws
        if self.exposed is not None or self.policy == "greedy":
            # The greedy bot aims at a carrier when there is one; the random bot at a pawn
            # at random; a catcher catches (the greedy bot's declaration).
            carrier = (self.exposed if self.exposed is not None else min(b, u) / u) if b else 0
            throw = (carrier * self._expect(_outcomes_of_reply(u, t, b, False))
                     + (1 - carrier) * self._expect(_outcomes_of_reply(u, t, b, True)))
        else:
            throw = max(self._expect(_outcomes_of_reply(u, t, b, c)) for c in (True, False))
        return q * throw + (1 - q) * self.v(u, t, b)

    def _expect(self, outcomes: Outcomes) -> float:
        return sum(p * self.v(*x) for p, x in outcomes)

    def _after(self, outcomes: Outcomes) -> float:
        return sum(p * self.reply(*x) for p, x in outcomes)

    def options(self, u: int, t: int, b: int, r: float) -> Dict[str, float]:
        """The player's choices with a best miss share r on offer, each with its value."""
        catches = self.opponent.catches
        choices = {"hold": self.reply(u, t, b)}
        if b:
            choices["throw at a catcher"] = self._after(
                _outcomes_of_throw(u, t, b, r, True, catches))
            if b < BALLS:     # the other team holds a ball: a carrier to throw at
                choices["throw at a carrier"] = self._after(
                    _outcomes_of_throw(u, t, b, r, False, catches))
        return choices

    def decide(self, u: int, t: int, b: int, best_r: float,
               mean_r: float) -> Tuple[str, float]:
        """The player's choice and its value, the formation offering these shares."""
        if self.policy != "greedy":
            choices = self.options(u, t, b, best_r)
            choice = max(choices, key=lambda name: choices[name])
            return choice, choices[choice]
        if not b:
            return "hold", self.reply(u, t, b)
        choice = "throw at a carrier" if b < BALLS else "throw at a catcher"
        return choice, self.options(u, t, b, mean_r)[choice]

    def solve(self, tolerance: float = 1e-10) -> "Model":
        while True:
            change = 0.0
            for (u, t, b), old in self.value.items():
                new = sum(p * self.decide(u, t, b, best, mean)[1]
                          for p, best, mean in self.geometry)
                change = max(change, abs(new - old))
                self.value[(u, t, b)] = new
            if change < tolerance:
                return self

    def from_start(self) -> List[float]:
        """From 5 v 5 with s = 0..3 starting balls taken, either side first (averaged)."""
        return [(self.v(PAWNS, PAWNS, s) + self.reply(PAWNS, PAWNS, s)) / 2
                for s in range(BALLS + 1)]


def at_s(row: Sequence[float], s: float) -> float:
    """A row's value at a measured (fractional) number of starting balls, interpolated."""
    low = min(int(s), BALLS - 1)
    return row[low] + (s - low) * (row[low + 1] - row[low])


_AGAINST_GREEDY: List[Model] = []


def against_greedy() -> Model:
    """The economy against the greedy bot's habits, on a lone pawn's geometry (solved once,
    a few milliseconds)."""
    if not _AGAINST_GREEDY:
        _AGAINST_GREEDY.append(Model(greedy(1.0), lone_pawn_geometry(True)).solve())
    return _AGAINST_GREEDY[0]


def after_acting(model: Model, u: int, t: int, balls: float) -> float:
    """The player's win probability once it has acted, the other to reply, holding `balls`
    (a fraction: balls nobody holds yet counted in part), interpolated between whole balls."""
    low = min(int(balls), BALLS - 1)
    share = balls - low
    return (1 - share) * model.reply(u, t, low) + share * model.reply(u, t, low + 1)
