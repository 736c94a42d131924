"""Dodgeball's ball economy, solved exactly (the model of `dodgeball_ceiling.py`).

A model of the game that keeps what the rules fix about balls and throws and forgets the
board:

- **A throw is a duel of two dice**: against a target that catches, the thrower wins 21/36
  and is out 15/36; against one that dodges (a carrier must, D-4) it wins 15/36 and risks
  nothing.
- **Every throw hands its ball to the target's team**: a hit leaves it on the target's
  square, a catch in the target's hands, a miss where the target's owner places it next to
  the target (D-6, D-7), except the share r of a throw's misses that the owner places on
  the thrower's half.  r is the thrower's choice, throw by throw, among the targets on
  offer (a `Geometry`: how often the other team's formation offers each best share), each
  target's share computed by `miss_share` from the engine's own `miss_squares` and the
  owner's way of placing (at random, or on its own half whenever a square there is free).
- **Tempo**: a ball can only be thrown from a pawn's hands.  A ball that arrives loose (a
  hit, a miss, a starting ball) is fetched in its team's next act and can be thrown from
  the act after; a caught ball is in the catcher's hands at once.  A team's balls in hand
  are its carriers, the targets that must dodge.

The two teams act in turn: the player throws one ball in hand (at a catcher, or at a
carrier when the other team has a ball in hand) or holds; the other team then throws one of
its balls in hand or not, by its habits (`Opponent`), at a carrier of the player's when the
player has one with the share `exposed` (None: the player's choice).  States are (own
pawns, other's pawns, and the player's and the other's balls in hand and arriving); value
iteration gives each state's win probability under the best choices, or under a fixed
policy (the greedy bot's: throw every ball in hand, at a carrier when there is one, at a
target regardless of where its miss lands).
"""

import itertools
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

from knockboard.games import get_game
from knockboard.games.dodgeball.board import HALF

PAWNS = 5
BALLS = 3
HIT_CATCHER = 21 / 36      # the thrower wins against a target that catches (ties too)
HIT_DODGER = 15 / 36       # ... against one that dodges (ties are misses)

# (own pawns, other's pawns, own balls in hand, own arriving, other's in hand, arriving)
State = Tuple[int, int, int, int, int, int]
Outcomes = List[Tuple[float, State]]
# A formation class: (probability, best share of a miss that comes back over the other
# team's pawns, the mean share over them: a target chosen regardless of its return).
Geometry = List[Tuple[float, float, float]]


@dataclass(frozen=True)
class Opponent:
    """The other bot's habits, as its code has them (throws: measured for the random bot)."""
    name: str
    catches: bool           # declares catch whenever it may (else catch or dodge at random)
    keeps: bool             # places a missed ball on its own half whenever it can
    throws: float           # chance it throws a ball in hand when it acts


def greedy(throws: float = 1.0) -> Opponent:
    """The greedy bot: catches what it may, keeps its misses, throws whenever it can."""
    return Opponent("greedy", catches=True, keeps=True, throws=throws)


def random_bot(throws: float) -> Opponent:
    """The random bot: declares and places at random, throws at its measured rate."""
    return Opponent("random", catches=False, keeps=False, throws=throws)


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


def _merged(geometry: Geometry, policy: Optional[str]) -> Geometry:
    """The formation classes a policy tells apart: the best policy reads only the best share
    on offer, the greedy bot's only the mean one (the same values, fewer sums)."""
    column = 2 if policy == "greedy" else 1
    merged: Dict[float, float] = {}
    for entry in geometry:
        merged[entry[column]] = merged.get(entry[column], 0.0) + entry[0]
    return [(p, r, r) for r, p in sorted(merged.items())]


def player_throw(s: State, r: float, catcher: bool, catches: bool) -> Outcomes:
    """The player's throw of a ball in hand at a catcher, or at a carrier (which must dodge);
    a hit or a miss leaves the ball loose with the other team (arriving), a catch in its
    hands, a miss that comes back (share r) loose with the player."""
    u, t, pr, pa, orr, oa = s
    pr -= 1
    dodge = [(HIT_DODGER, (u, t - 1, pr, pa, orr, oa + 1)),
             ((1 - HIT_DODGER) * r, (u, t, pr, pa + 1, orr, oa)),
             ((1 - HIT_DODGER) * (1 - r), (u, t, pr, pa, orr, oa + 1))]
    if not catcher:
        return dodge
    catch = [(HIT_CATCHER, (u, t - 1, pr, pa, orr, oa + 1)),
             (1 - HIT_CATCHER, (u - 1, t, pr, pa, orr + 1, oa))]
    if catches:
        return catch
    return [(p / 2, x) for p, x in catch + dodge]


def other_throw(s: State, catch: bool) -> Outcomes:
    """The other team's throw at a pawn of the player's that catches or dodges: the ball
    comes to the player, in hand if caught, else loose (the player keeps its misses)."""
    u, t, pr, pa, orr, oa = s
    orr -= 1
    if catch:
        return [(HIT_CATCHER, (u - 1, t, pr, pa + 1, orr, oa)),
                (1 - HIT_CATCHER, (u, t - 1, pr + 1, pa, orr, oa))]
    return [(HIT_DODGER, (u - 1, t, pr, pa + 1, orr, oa)),
            (1 - HIT_DODGER, (u, t, pr, pa + 1, orr, oa))]


def fetched(s: State, player: bool, before: int) -> State:
    """The state after a team's act: the `before` balls that were arriving at its start are
    in hand now (balls that arrived during the act are still arriving)."""
    u, t, pr, pa, orr, oa = s
    if player:
        return (u, t, pr + before, pa - before, orr, oa)
    return (u, t, pr, pa, orr + before, oa - before)


def _states() -> List[State]:
    out = []
    for u, t in itertools.product(range(1, PAWNS + 1), repeat=2):
        for split in itertools.product(range(BALLS + 1), repeat=4):
            if sum(split) == BALLS:
                out.append((u, t) + split)      # type: ignore[arg-type]
    return out


class Model:
    """The ball economy against `opponent` in formations `geometry` (see the docstring);
    `policy`: None for the best choices, or 'greedy' for the greedy bot's; `exposed`: the
    share of the other's throws that come at a carrier when the player has one (None: the
    player's choice, throw by throw; the greedy policy: the other bot's aim, always at a
    carrier for the greedy bot, at a pawn at random for the random bot)."""

    def __init__(self, opponent: Opponent, geometry: Geometry,
                 policy: Optional[str] = None, exposed: Optional[float] = None) -> None:
        self.opponent = opponent
        self.policy = policy
        self.geometry = _merged(geometry, policy)
        if exposed is None and policy == "greedy" and opponent.catches:
            exposed = 1.0
        self.exposed = exposed
        self.value: Dict[State, float] = {s: 0.0 for s in _states()}

    def v(self, s: State) -> float:
        """The player's win probability at its decision in state s."""
        if s[1] == 0:
            return 1.0
        if s[0] == 0:
            return 0.0
        return self.value[s]

    def reply(self, s: State) -> float:
        """The value once the player has acted: the other team throws one ball in hand with
        its chance to throw (or not), fetches what was arriving, and the player decides."""
        if s[0] == 0 or s[1] == 0:
            return self.v(s)
        u, t, pr, pa, orr, oa = s
        rest = self.v(fetched(s, False, oa))
        if not orr:
            return rest
        catch, dodge = (self._expect(other_throw(s, c), oa) for c in (True, False))
        # A catcher catches (the greedy bot's declaration) or, playing best, chooses.
        at_catcher = catch if self.policy == "greedy" else max(catch, dodge)
        if not pr:
            throw = at_catcher                  # no carrier to aim at
        elif self.exposed is not None:
            throw = (1 - self.exposed) * at_catcher + self.exposed * dodge
        elif self.policy == "greedy":           # the random bot aims at a pawn at random
            carrier = min(pr, u) / u
            throw = (1 - carrier) * at_catcher + carrier * dodge
        else:
            throw = at_catcher                  # the player shows the other a catcher
        q = self.opponent.throws
        return q * throw + (1 - q) * rest

    def _expect(self, outcomes: Outcomes, other_fetches: int) -> float:
        return sum(p * self.v(fetched(x, False, other_fetches)) for p, x in outcomes)

    def _after(self, outcomes: Outcomes, fetches: int) -> float:
        return sum(p * self.reply(fetched(x, True, fetches)) for p, x in outcomes)

    def options(self, s: State, r: float) -> Dict[str, float]:
        """The player's choices with a best miss share r on offer, each with its value."""
        catches = self.opponent.catches
        pa = s[3]
        choices = {"hold": self.reply(fetched(s, True, pa))}
        if s[2]:
            choices["throw at a catcher"] = self._after(player_throw(s, r, True, catches), pa)
            if s[4]:                # the other team has a ball in hand: a carrier
                choices["throw at a carrier"] = self._after(
                    player_throw(s, r, False, catches), pa)
        return choices

    def decide(self, s: State, best_r: float, mean_r: float) -> Tuple[str, float]:
        """The player's choice and its value, the formation offering these shares."""
        if self.policy != "greedy":
            choices = self.options(s, best_r)
            choice = max(choices, key=lambda name: choices[name])
            return choice, choices[choice]
        choices = self.options(s, mean_r)
        for choice in ("throw at a carrier", "throw at a catcher", "hold"):
            if choice in choices:
                return choice, choices[choice]
        raise AssertionError("hold is always a choice")

    def solve(self, tolerance: float = 1e-7) -> "Model":
        while True:
            change = 0.0
            for s, old in self.value.items():
                new = sum(p * self.decide(s, best, mean)[1] for p, best, mean in self.geometry)
                change = max(change, abs(new - old))
                self.value[s] = new
            if change < tolerance:
                return self

    def from_start(self) -> List[float]:
        """From 5 v 5 with s = 0..3 starting balls taken (arriving: a pawn has to fetch
        them), either team to act first (averaged)."""
        out = []
        for s in range(BALLS + 1):
            start = (PAWNS, PAWNS, 0, s, 0, BALLS - s)
            out.append((self.v(start) + self.reply(start)) / 2)
        return out


def at_s(row: Sequence[float], s: float) -> float:
    """A row's value at a measured (fractional) number of starting balls, interpolated."""
    low = min(int(s), BALLS - 1)
    return row[low] + (s - low) * (row[low + 1] - row[low])
