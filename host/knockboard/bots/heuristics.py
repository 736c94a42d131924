"""Position scores from one player's point of view, shared by every bot.

`score(state, player)` is a number on the game's own scale (its rules' currency: dice in the
gutter, pawns, points, climbed levels); the greedy bot maximises it one ply ahead, the
strong bot orders its moves by it.  `evaluate(state)` turns it into one value per player in
[-1, 1] (a won game is +1, a lost one -1, anything undecided strictly between), which is
what the strong bot's search backs up.  Each game's function and scale are registered in
`knockboard/registry.py`; a game without them is an error, never a silent 0.

Each game's function reads the engine's state attributes directly: these functions are the
one place that knows a game's internals, so a change of representation is fixed here.

Multi-player games are scored against the strongest opponent (own minus the best other),
since only first place counts as a win.
"""

import math
import weakref
from typing import Any, Callable, Iterator, List, Sequence, Tuple

from .. import registry

WIN = 1000.0
# Scores beyond +-SETTLED: the result is settled though the game goes on (K.O.).
SETTLED = WIN / 2
_KO_MARGIN = 100.0


# --- results -------------------------------------------------------------------------------

def win_shares(returns: Sequence[float]) -> List[float]:
    """Rank-based result: the players with the highest return share one win (1/k each for
    k tied), everyone else 0.  Works for +1/-1 returns and for points alike."""
    best = max(returns)
    top = [i for i, r in enumerate(returns) if r == best]
    return [1.0 / len(top) if i in top else 0.0 for i in range(len(returns))]


def terminal_values(state: Any) -> List[float]:
    """Per player in [-1, 1]: +1 for a sole win, -1 for a loss, shared wins in between."""
    return [2.0 * s - 1.0 for s in win_shares(state.returns())]


# --- KNOCKabout ------------------------------------------------------------------------------

def knockabout(state: Any, player: int) -> float:
    # Five dice in the gutter lose, so the gutter counts are the story one ply ahead; the
    # fourth and fifth die lost weigh more than the first ones.  (A term for dice standing
    # next to the gutter was tried: it made two greedy bots push one die to the edge and
    # back for ever.)
    gutter = state.in_gutter
    weight = _KA_GUTTER_WEIGHT
    return weight[gutter[1 - player]] - weight[gutter[player]]


_KA_GUTTER_WEIGHT = (0.0, 1.0, 2.0, 3.2, 4.6, 8.0, 8.0, 8.0, 8.0, 8.0)


# --- Dodgeball ------------------------------------------------------------------------------

def dodgeball(state: Any, player: int) -> float:
    # Pawns, the throws each team's known dice put within reach, balls held, a throw in the
    # air by its expected outcome: `dodgeball_score.py` (big enough for a module of its own).
    from .dodgeball_score import score as dodgeball_score
    return dodgeball_score(state, player)


# --- K.O. -----------------------------------------------------------------------------------

# A roll of two dice moves a piece numbered m by k steps (RULES.md 3): the roll {m, k} with
# k != m (2/36), or a double (k, k) where the piece is "any other piece" (1/36): 3/36 in all;
# and for k == m only the double (m, m): 1/36.
_KO_CACHE: dict = {}


def _ko_steps(board: Any) -> List[List[Tuple[int, ...]]]:
    """steps[t][s]: the step counts k (1..6) with which a piece on t can end on s."""
    table = _KO_CACHE.get(id(board))
    if table is None or table[0] is not board:
        reach = board.reach
        n = len(reach)
        steps: List[List[Tuple[int, ...]]] = [[() for _ in range(n)] for _ in range(n)]
        for t in range(n):
            row = steps[t]
            for k in range(1, len(reach[t])):
                for dest in reach[t][k]:
                    row[dest] += (k,)
        table = _KO_CACHE[id(board)] = (board, steps)
    return table[1]


def _ko_threats(state: Any) -> List[float]:
    """Per seat, the expected points it may knock out on its next throw: for each opponent
    piece it could land on, the chance of a throw that lets one of its equal-numbered
    pieces get there, times the piece's points."""
    threats = [0.0] * state.game.num_players
    for seat, _, points in _ko_knocks(state):
        threats[seat] += points
    return threats


def ko_threat_matrix(state: Any) -> List[List[float]]:
    """m[attacker][victim]: the expected points of `victim`'s pieces that `attacker` may
    knock out on its next throw (`_ko_threats` is each row's sum; the review's learnt K.O.
    shares, `ko_shares.py`, read each seat's danger from the others in it).  The review
    asks it at every end of every turn it values, where a turn moves one or two numbers'
    pieces, so each number's knocks are kept by where that number's pieces stand."""
    game = state.game
    n = game.num_players
    matrix = [[0.0] * n for _ in range(n)]
    pos = state.pos
    numbers, kept = _ko_numbers(game)
    for number, slots in numbers:
        key = (number, tuple([pos[piece] for _, piece in slots]))
        knocks = kept.get(key)
        if knocks is None:
            if len(kept) >= 100_000:
                kept.clear()
            pieces = [(seat, pos[piece]) for seat, piece in slots if pos[piece] >= 0]
            knocks = kept[key] = _number_knocks(game, number, pieces) \
                if len(pieces) > 1 else []
        for seat, victim_seat, points in knocks:
            matrix[seat][victim_seat] += points
    return matrix


def _ko_numbers(game: Any) -> Tuple[List[Tuple[int, List[Tuple[int, int]]]], dict]:
    """Per number, its pieces in the game as (seat, piece), and the game's kept knocks of
    `ko_threat_matrix` (by number and where its pieces stand)."""
    table = _KO_NUMBERS.get(game)
    if table is None:
        numbers = [(number, [(seat, piece) for seat in range(game.num_players)
                             for piece in game.pieces_by_number[seat][number]])
                   for number in range(1, 7)]
        table = _KO_NUMBERS[game] = (numbers, {})
    return table


# per game, held no longer than the game is (a long-running session reviews game after
# game, each kept knocks up to 100 000 of them)
_KO_NUMBERS: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()


def _number_knocks(game: Any, number: int,
                   pieces: List[Tuple[int, int]]) -> List[Tuple[int, int, float]]:
    """(attacker, victim, expected points) of the pieces of one number, (seat, space) each."""
    from ..games.ko.constants import POINTS
    ways_mask, chance = _ko_masks(game.board)
    of_number = chance[number]
    found = []
    for victim_seat, target in pieces:
        ways = [0] * game.num_players
        for attacker_seat, origin in pieces:
            if attacker_seat != victim_seat:
                ways[attacker_seat] |= ways_mask[origin][target]
        for seat, mask in enumerate(ways):
            if mask:
                found.append((seat, victim_seat, of_number[mask] * POINTS[number]))
    return found


def _ko_knocks(state: Any) -> Iterator[Tuple[int, int, float]]:
    """(attacker, victim, expected points) per opponent piece an attacker could land on."""
    from ..games.ko.constants import POINTS
    game = state.game
    ways_mask, chance = _ko_masks(game.board)
    pos = state.pos
    seat_of = game.seat_of_piece
    by_number: dict = {}
    for piece, where in enumerate(pos):
        if where >= 0:
            by_number.setdefault(piece % 6 + 1, []).append((seat_of[piece], where))
    for number, pieces in by_number.items():
        if len(pieces) < 2:
            continue
        of_number = chance[number]
        for victim_seat, target in pieces:
            for seat in range(game.num_players):
                if seat == victim_seat:
                    continue
                ways = 0
                for attacker_seat, origin in pieces:
                    if attacker_seat == seat:
                        ways |= ways_mask[origin][target]
                if ways:
                    yield seat, victim_seat, of_number[ways] * POINTS[number]


def _ko_masks(board: Any) -> Tuple[List[List[int]], List[List[float]]]:
    """The step counts of `_ko_steps` as bit masks (bit k: k steps), and per number and
    mask the chance a throw gives one of them (at most 1): made once per board."""
    table = _KO_MASKS.get(id(board))
    if table is None or table[0] is not board:
        steps = _ko_steps(board)
        masks = [[sum(1 << k for k in ks) for ks in row] for row in steps]
        chance = [[min(sum(1 / 36 if k == number else 3 / 36
                           for k in range(1, 7) if mask >> k & 1), 1.0)
                   for mask in range(128)] for number in range(7)]
        table = _KO_MASKS[id(board)] = (board, masks, chance)
    return table[1], table[2]


_KO_MASKS: dict = {}


def _ko_settled(state: Any, player: int, points: List[float]) -> int:
    """+1 if `player` has won for certain, -1 if it has lost for certain, else 0.

    Points only ever go down, and a piece whose number no opponent holds any more can never
    be knocked out.  So a seat whose points are below what another seat keeps for certain
    has lost, however long the game goes on, and one that keeps more than any other seat
    has won.  Scored by points, three lost greedy seats avoided every knock-out that would
    end a four-player game, and it ran for ever.  So, in `ko`: with two players a won
    position scores short of the won end (+WIN) by a margin, the ordinary score deciding
    among such positions, so that the winner drives the game to its end (scored flat, it
    drifted, and games against the random bot ran past 1,000 moves), and a lost one is its
    mirror (the game is zero-sum).  With more players a settled seat scores its result itself
    (+WIN or -WIN), all its moves alike: the simplest rule that ends the stall (four greedy players,
    quick start, seed 5: 4 of 8 games past 40,000 moves before, none after).  With the full
    set-up 2 of 8 such games still ran past 40,000 moves, the same with the two-player rule
    or with lost seats scored below -WIN.  Those end in duels that nobody starts: the
    numbers still contested are each held by two seats, a path of k steps from one piece to
    the other is one of k steps back, so whoever comes within reach is within reach itself;
    and a knock-out of a seat that is not the best other changes nothing in the knocker's
    "own minus the best other".  So every seat keeps out of reach, which the 81 spaces always
    allow (benchmarks/arena.md, "Four players")."""
    from ..games.ko.constants import POINTS
    cnt = state.cnt
    n = len(points)
    kept = [sum(POINTS[k] * cnt[s * 7 + k] for k in range(1, 7)
                if cnt[s * 7 + k] and not state.contested(s, k)) for s in range(n)]
    others = [s for s in range(n) if s != player]
    if kept[player] > max(points[s] for s in others):
        return 1
    if points[player] < max(kept[s] for s in others):
        return -1
    return 0


def ko(state: Any, player: int, threats: bool = True) -> float:
    # Points of the pieces still in play decide the game; on top, the knock-outs each side
    # threatens on its next throw (in full for the seat whose turn it is, half for the
    # others, who must wait a turn and may find the piece gone).  `threats=False` leaves
    # them out (an experiment's plain player, benchmarks/skill_spread.py).
    from ..games.ko.constants import TURN
    points = state.points()
    if state.phase != TURN:
        return points[player] - max(p for i, p in enumerate(points) if i != player)
    settled = _ko_settled(state, player, points)
    if settled and len(points) > 2:
        return settled * WIN          # all moves alike: no need to count threats
    if threats:
        threatened = _ko_threats(state)
        for seat in range(len(points)):
            points[seat] += threatened[seat] * (1.0 if seat == state.cur else 0.5)
    value = points[player] - max(p for i, p in enumerate(points) if i != player)
    return value + settled * (WIN - _KO_MARGIN)


# --- Knock-Off -----------------------------------------------------------------------------

# P(a throw of two dice pays a move of cost c: one die showing c, or the sum equal to c).
_KOF_PAYS = [sum(1 for a in range(1, 7) for b in range(1, 7) if c in (a, b, a + b)) / 36
             for c in range(13)] + [0.0] * 40


def knockoff(state: Any, player: int, risk: bool = True) -> float:
    # Progress is the price already paid to climb (level L cost 1 + 2 + ... + L from home);
    # the three best pawns count fully (three on top win), the fourth a little.  Pawns on
    # the top row get a bonus on top of their price: they are what wins.  A pawn that an
    # opponent's pawn (or home base) can land on with one throw loses its progress with
    # that chance (in full before that opponent's own throw, else half).  `risk=False`
    # leaves that chance out (an experiment's plain player, benchmarks/skill_spread.py).
    game = state.game
    board = game.board
    level = board.level
    top_level = board.top
    cost = board.cost
    n = game.num_players
    mover = state.player
    sources = [list(state.pos[q]) + ([game.homes[q]] if state.home[q] else [])
               if risk else () for q in range(n)]

    def progress(p: int) -> float:
        climbed = []
        on_top = 0
        for x in state.pos[p]:
            safe = 1.0
            for q in range(n):
                if q != p:
                    weight = 1.0 if q == mover else 0.5
                    for src in sources[q]:
                        c = cost[src].get(x)
                        if c is not None:
                            safe *= 1.0 - weight * _KOF_PAYS[c]
            climbed.append(level[x] * (level[x] + 1) // 2 * safe)
            on_top += level[x] == top_level
        climbed.sort(reverse=True)
        climbed += [0] * (4 - len(climbed))
        return sum(climbed[:3]) + 0.3 * climbed[3] + 6.0 * on_top * on_top

    mine = progress(player)
    best_other = max(progress(q) for q in range(n) if q != player)
    return mine - best_other


_CLIP = 0.999
# name -> the registered parts, loaded once (the strong bot asks at every node)
_SCORERS: dict = {}
_SQUASH: dict = {}
_MIXED: dict = {}


def scorer_for(name: str) -> Callable[..., float]:
    """The game's registered score function; KeyError for a game nobody registered."""
    scorer = _SCORERS.get(name)
    if scorer is None:
        scorer = _SCORERS[name] = registry.part(name, "scorer")
    return scorer


def _squash_for(name: str) -> Callable[[float], float]:
    squash = _SQUASH.get(name)
    if squash is None:
        entry = registry.entry(name)
        scale = entry.scale
        if entry.linear:
            def squash(x: float) -> float:
                return max(-_CLIP, min(_CLIP, x / scale))
        else:
            def squash(x: float) -> float:
                return math.tanh(x / scale)
        _SQUASH[name] = squash
    return squash


def score(state: Any, player: int) -> float:
    if state.is_terminal():
        return WIN * (2.0 * win_shares(state.returns())[player] - 1.0)
    return scorer_for(state.game.name)(state, player)


def evaluate(state: Any) -> List[float]:
    """One value per player in [-1, 1]: terminal results exactly, otherwise the score
    squashed by the game's scale (so no undecided position reaches +1 or -1)."""
    if state.is_terminal():
        return terminal_values(state)
    name = state.game.name
    scorer = scorer_for(name)
    squash = _squash_for(name)
    n = state.game.num_players
    if n == 2:
        # Every score here is "own minus the other's": with two players one call does.
        v = squash(scorer(state, 0))
        return [v, -v]
    return [squash(scorer(state, p)) for p in range(n)]


# --- decisions played as a mixed strategy -------------------------------------------------

def dodgeball_declaration(state: Any) -> bool:
    # The target's owner declaring catch or dodge (the throw is in the air, undeclared).
    throw = state.throw
    return throw is not None and throw[2] is None and len(state.legal_actions()) == 2


def is_mixed_decision(state: Any) -> bool:
    """Does the bot play this decision as a mixed strategy (a random choice weighted by the
    searched values) rather than always the best one?  Dodgeball's catch/dodge is one: a
    fixed answer would let a thrower plan against it."""
    name = state.game.name
    if name not in _MIXED:
        _MIXED[name] = registry.part(name, "mixed")
    test = _MIXED[name]
    return bool(test and test(state))
