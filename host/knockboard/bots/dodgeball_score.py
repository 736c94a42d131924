"""Dodgeball's position score (`heuristics.dodgeball` is this module's `score`).

The score is in pawns, from one team's point of view, and knows three things beyond the
pawn count:

- **Throws within reach.**  Every throw is a dice duel with an edge for the thrower: 1/6 of
  a pawn against a target that catches (21/36 hit, 15/36 the thrower is out), 15/36 against
  a target carrying a ball, which must dodge (D-4) and so risks nothing for the thrower.
  The dice a team will act with next are known (the waiting team's three dice are in the
  position, and the acting team's unspent ones), so the score counts the throws each team
  can make with them: from a carrier directly, after a move with another die, or after
  picking a loose ball up.  A carrier within the opponent's reach is what costs most.
- **Balls.**  A ball a team holds (carried, or loose on its half) is a throw to come; but
  a throw always hands its ball to the other team (hit: it lies on the target's square; a
  miss: the target's owner places it; a catch: the target holds it), so a ball is worth
  less than half a throw's edge: throwing must pay, or two careful players would both keep
  their balls and the game would never end.
- **A throw in the air** counts with its expected outcome: the three results (target out,
  thrower out, a miss) are each scored as positions, the target's owner declaring what is
  worse for the thrower.

Geometry that does not change is tabled once at import; pawns blocking a path are ignored
(five pawns rarely wall a 32-square half off).
"""

import itertools
from typing import Any, List, Optional, Sequence, Tuple

from ..games.dodgeball.board import DIST, HALF, START_TOUCH
from ..games.dodgeball.notation import CATCH, DODGE
from ..games.dodgeball.position import TURN

# A throw's expected pawns for the thrower: against a target that catches, and against a
# carrier (which may only dodge).
GAIN_CATCHER = 1 / 6
GAIN_CARRIER = 15 / 36
# A ball in hand, or loose on the own half (nearest free pawn at distance 0); a starting
# ball on the center line, to the team whose free pawns are nearer (and by the distance).
# The starting balls are the only throws a team gets without the other throwing first, and
# the random bot, moving at random, picked up about 60% of them: against it the greedy bot
# won 0.74 of 100 games (seed 5) with START_BALL at 0.03, 0.79 at 0.3.  (Balls in hand at
# 0.15 and loose at 0.12 as well: 0.85, but a throw then hands over more than it wins
# against a target that catches, and strong v greedy games stalled unless the throw bonus
# grew too, and even then one of two test games ran past 3 000 moves: not shipped.)
BALL_CARRIED = 0.04
BALL_LOOSE = 0.03
START_BALL = 0.3
# A throw in the air is worth this much more to the thrower than its expected pawns.  Two
# careful teams would otherwise keep their balls for ever: a throw at a target that catches
# only wins 1/6 of a pawn and hands the ball to the other team, which wins as much with it
# next, so holding on is as good as throwing; and the rules know no draw.  The bonus makes
# the throw the better of the two whenever it is close.
THROW_BONUS = 0.1
# What a throw within reach is worth before it is made: its edge and the bonus, less the
# ball it hands over.
_HANDOVER = BALL_CARRIED + BALL_LOOSE
REACH_CATCHER = GAIN_CATCHER + THROW_BONUS - _HANDOVER
REACH_CARRIER = GAIN_CARRIER + THROW_BONUS - _HANDOVER
# How much of the throws within reach the score counts: the acting team's with its unspent
# dice (it may still be blocked, or prefer another use), the waiting team's with its known
# dice (before or after the acting team has finished), a team's throws a turn later (dice
# not rolled yet: by their probability).
ACTING_REACH = 0.8
WAITING_REACH_MIDTURN = 0.5
WAITING_REACH = 0.9
LATER_REACH = 0.3
# The lead term of the material (below).
LEAD = 1.0

_RANKS = ((0, 3), (4, 7))


def _moved_distance(team: int, s: int, t: int, u: int) -> int:
    """The smallest king distance to t from a square a pawn of `team` on s reaches with at
    most u king steps on its own half (pawns in the way ignored)."""
    sf, sr, tf, tr = s % 8, s // 8, t % 8, t // 8
    df = max(0, abs(sf - tf) - u)
    lo, hi = max(sr - u, _RANKS[team][0]), min(sr + u, _RANKS[team][1])
    dr = 0 if lo <= tr <= hi else min(abs(lo - tr), abs(hi - tr))
    return max(df, dr)


# REACH[team][s][t]: (distance, distance after a move of 1, ..., of 6) for a thrower of
# `team` on s and a target on t.
REACH = [[[tuple(_moved_distance(team, s, t, u) for u in range(7)) for t in range(64)]
          for s in range(64)] for team in (0, 1)]

_ROLLS = list(itertools.product(range(1, 7), repeat=3))
_CHANCE: dict = {}


def _dice_needed(profile: Sequence[int], dice: Sequence[int]) -> int:
    """How many of `dice` a throw with this REACH profile needs: 1 (a die reaching the
    target), 2 (a move with one die, the throw with another) or 0 if none does."""
    if dice and max(dice) >= profile[0]:
        return 1
    for i, u in enumerate(dice):
        need = profile[u]
        for j, v in enumerate(dice):
            if i != j and v >= need:
                return 2
    return 0


def _chance_in_reach(profile: Tuple[int, ...]) -> float:
    """P(three dice not rolled yet make this throw possible)."""
    p = _CHANCE.get(profile)
    if p is None:
        p = _CHANCE[profile] = sum(1 for r in _ROLLS if _dice_needed(profile, r)) / 216
    return p


def _throwers(team: int, board: List[int], carry: List[bool], loose: List[int],
              start: List[bool], own: List[int], free: List[int]) -> List[Tuple[int, int, int]]:
    """Where the team's throws can start: (square, dice spent before the throw, the pawn's
    distance to it) -- a carrier (none), a loose ball or starting ball a free pawn can
    reach with one die (the nearest such pawn; the distance decides whether a die does)."""
    out = [(s, 0, 0) for s in own if carry[s]]
    if free:
        for s in HALF[team]:
            if loose[s] and board[s] != 1 - team:
                d = min(DIST[f][s] for f in free)
                out.append((s, 1, d))
        for ball, touch in enumerate(START_TOUCH):
            if start[ball]:
                best = None
                for t in touch:
                    if board[t] < 0 and t in HALF[team]:
                        d = min(DIST[f][t] for f in free)
                        if best is None or d < best[2]:
                            best = (t, 1, d)
                if best is not None:
                    out.append(best)
    return out


def _throws_known(team: int, throwers: List[Tuple[int, int, int]], targets: List[int],
                  carry: List[bool], dice: Sequence[int]) -> float:
    """The expected pawns `team` wins with throws it can make with `dice` (known values):
    each thrower its best target, the best throwers first while dice last."""
    if not dice or not targets:
        return 0.0
    reach = REACH[team]
    options = []
    for s, before, d in throwers:
        if before:
            # A die to fetch the ball first: the rest of the dice for the throw.
            spare = [v for v in dice if v >= d]
            if not spare:
                continue
            rest = list(dice)
            rest.remove(spare[0])          # the smallest die that fetches it
        else:
            rest = list(dice)
        best_gain, best_need = 0.0, 0
        row = reach[s]
        for t in targets:
            gain = REACH_CARRIER if carry[t] else REACH_CATCHER
            if gain < best_gain or (gain == best_gain and best_need == 1):
                continue
            need = _dice_needed(row[t], rest)
            if need and (gain > best_gain or need < best_need):
                best_gain, best_need = gain, need
        if best_gain:
            options.append((best_gain, best_need + before))
    if not options:
        return 0.0
    options.sort(reverse=True)
    left = len(dice)
    total = 0.0
    for gain, need in options:
        if need <= left:
            total += gain
            left -= need
    return total


def _throws_later(team: int, throwers: List[Tuple[int, int, int]], targets: List[int],
                  carry: List[bool]) -> float:
    """The expected pawns `team` wins with carriers' throws on a turn whose dice are not
    rolled yet: each carrier's best target by the chance that the dice allow the throw."""
    if not targets:
        return 0.0
    reach = REACH[team]
    total = 0.0
    for s, before, _ in throwers:
        if before:
            continue
        row = reach[s]
        best = 0.0
        for t in targets:
            gain = (REACH_CARRIER if carry[t] else REACH_CATCHER) * _chance_in_reach(row[t])
            if gain > best:
                best = gain
        total += best
    return total


def _balls(team: int, board: List[int], carry: List[bool], loose: List[int],
           start: List[bool], own: List[int], free: List[int], other_free: List[int]) -> float:
    """The team's balls: carried, loose on its half (by the nearest free pawn's distance),
    starting balls it is nearer to than the other team."""
    value = BALL_CARRIED * sum(1 for s in own if carry[s])
    if free:
        for s in HALF[team]:
            if loose[s]:
                d = min(DIST[f][s] for f in free)
                value += loose[s] * BALL_LOOSE * (1.0 - d / 8.0)
    for ball, touch in enumerate(START_TOUCH):
        if start[ball]:
            mine = min((DIST[f][t] for f in free for t in touch if t in HALF[team]),
                       default=8)
            theirs = min((DIST[f][t] for f in other_free for t in touch
                          if t not in HALF[team]), default=8)
            # The nearer team takes it; the distance itself pulls the pawns forward.
            value += START_BALL * ((0.5 if mine <= theirs else 0.0) + 0.5 * (1 - mine / 8))
    return value


def material(own: int, other: int) -> float:
    # Pawns up, plus a "lead" term that grows as the pawns thin out.
    #
    # Pawns up, linearly: every throw pays for the thrower, for the side behind too.  A
    # purely concave measure (tanh, or the chance to win if exchanges were coin tosses)
    # made the side behind keep every ball and never throw, which stalls the game for ever
    # (the rules know no draw).  The lead term 2.5 (own - other) / (own + other) makes an
    # exchange of one pawn each worth having for the side ahead, which otherwise has no
    # reason to throw a ball that will come back at it.  It is kept small (LEAD), and a
    # finished game is scored by the same measure: with a larger lead term, or a win worth
    # far more than the pawns, the side behind loses more by a throw that fails than it
    # wins by one that hits, and a last pawn would rather keep its ball for ever.
    if own + other == 0:
        return 0.0
    return (own - other) * (1.0 + LEAD / (own + other))


def pawns_and_free(board: List[int], carry: List[bool]) -> Tuple[List[List[int]],
                                                                  List[List[int]]]:
    """Each team's pawn squares, and those of its pawns that carry no ball."""
    pawns: List[List[int]] = [[], []]
    free: List[List[int]] = [[], []]
    for s in range(64):
        side = board[s]
        if side >= 0:
            pawns[side].append(s)
            if not carry[s]:
                free[side].append(s)
    return pawns, free


def _position(board: List[int], carry: List[bool], loose: List[int], start: List[bool],
              npawns: List[int], active: int, acting_dice: Optional[List[int]],
              waiting_dice: Optional[Sequence[int]], team: int) -> float:
    """The score of a position without a throw in the air, for `team`.  `acting_dice`:
    the active team's unspent dice, or None once its turn is over (it is rolling);
    `waiting_dice`: the other team's, or None when they are to be taken as unknown."""
    own_n, other_n = npawns[team], npawns[1 - team]
    value = material(own_n, other_n)
    if not own_n or not other_n:
        return value
    pawns, free = pawns_and_free(board, carry)
    balls = [_balls(t, board, carry, loose, start, pawns[t], free[t], free[1 - t])
             for t in (0, 1)]
    throwers = [_throwers(t, board, carry, loose, start, pawns[t], free[t]) for t in (0, 1)]
    waiting = 1 - active
    if waiting_dice is None:
        # The waiting team's dice are not known (a search looking past a turn's end).
        waiting_throws = _throws_later(waiting, throwers[waiting], pawns[active], carry)
    else:
        waiting_throws = _throws_known(waiting, throwers[waiting], pawns[active], carry,
                                       waiting_dice)
    if acting_dice is not None:
        reach_active = ACTING_REACH * _throws_known(active, throwers[active], pawns[waiting],
                                                    carry, acting_dice)
        reach_waiting = WAITING_REACH_MIDTURN * waiting_throws
    else:
        reach_waiting = WAITING_REACH * waiting_throws
        reach_active = LATER_REACH * _throws_later(active, throwers[active], pawns[waiting],
                                                   carry)
    edge = (balls[team] - balls[1 - team]
            + (reach_active - reach_waiting) * (1 if team == active else -1))
    return value + edge


def _set_up(board: List[int], team: int) -> float:
    """Set-up and roll-off: pawns placed within short reach of the starting balls take
    them first (the team that starts needs a die of 3 from the back row)."""
    own = [s for s in HALF[team] if board[s] == team]
    if not own:
        return 0.0
    near = 0.0
    for touch in START_TOUCH:
        near -= min(DIST[p][t] for p in own for t in touch if t in HALF[team])
    return 0.01 * near


def _outcome_values(state: Any, team: int, waiting_known: bool) -> Tuple[float, float, float]:
    """A throw in the air: (value if the target is out, if the thrower is out, if missed)."""
    thrower, target, _, _, _ = state.throw
    active = state.active
    dice = state.dice_held()[0]
    acting = list(dice[active]) or None
    waiting = dice[1 - active] if waiting_known else None
    board, carry, loose, start, npawns = state.squares()
    # The target out: its ball (if any) and the thrown one lie on its square.
    b, c, lo, n = board[:], carry[:], loose[:], npawns[:]
    n[b[target]] -= 1
    b[target] = -1
    lo[target] += 1 + c[target]
    c[target] = False
    hit = _position(b, c, lo, start, n, active, acting, waiting, team)
    # The thrower out: the target holds the ball.
    b, c, n = board[:], carry[:], npawns[:]
    n[b[thrower]] -= 1
    b[thrower] = -1
    c[target] = True
    caught = _position(b, c, loose, start, n, active, acting, waiting, team)
    # A miss: the target's owner places the ball next to it (counted as lying at its feet).
    lo = loose[:]
    lo[target] += 1
    miss = _position(board, carry, lo, start, npawns, active, acting, waiting, team)
    return hit, caught, miss


def _throw_value(state: Any, team: int, waiting_known: bool) -> float:
    thrower, target, declared, r1, r2 = state.throw
    board, carry = state.squares()[:2]
    hit, caught, miss = _outcome_values(state, team, waiting_known)
    if r2 is not None:                  # a miss waiting for its ball to be placed
        return miss
    if declared is not None:
        options = [declared]
    else:
        options = [DODGE] if carry[target] else [CATCH, DODGE]
    throwing = board[thrower] == team
    best: Optional[float] = None
    for choice in options:
        catching = choice == CATCH
        if r1 is None:
            p_hit = 21 / 36 if catching else 15 / 36
        else:
            p_hit = (r1 if catching else r1 - 1) / 6
        p_caught = 1 - p_hit if catching else 0.0
        value = p_hit * hit + p_caught * caught + (1 - p_hit - p_caught) * miss
        value += THROW_BONUS if throwing else -THROW_BONUS
        # The target's owner declares what is worse for the thrower.
        if best is None or (value < best if throwing else value > best):
            best = value
    assert best is not None
    return best


def throw_matrix(state: Any) -> List[List[float]]:
    """The matrix game of a throw whose target's owner is to declare, in pawns for the
    thrower's team: rows the thrower's options (the throw, or keeping the ball with the die
    spent), columns the target's (catch, dodge), each entry the score's expectation over the
    dice.  A target carrying a ball may only dodge: both columns are then the dodge.

    The keep row does not depend on the declaration, so the game always has a saddle point:
    its equilibrium declaration is the pure answer worse for the thrower (`matrix_game`)."""
    thrower, target = state.throw[0], state.throw[1]
    board, carry, loose, start, npawns = state.squares()
    team = board[thrower]
    hit, caught, miss = _outcome_values(state, team, True)
    catch = 21 / 36 * hit + 15 / 36 * caught
    dodge = 15 / 36 * hit + 21 / 36 * miss
    if carry[target]:
        catch = dodge
    active = state.active
    dice = state.dice_held()[0]
    kept = carry[:]
    kept[thrower] = True
    keep = _position(board, kept, loose, start, npawns, active, list(dice[active]) or None,
                     dice[1 - active], team)
    return [[catch, dodge], [keep, keep]]


def score(state: Any, team: int, waiting_known: bool = True) -> float:
    """The position's score in pawns for `team` (0 or 1).  With `waiting_known` false the
    dice of the team waiting for its turn are taken as not rolled yet (they are in the
    position, but a search that rolled them itself does not know them)."""
    board, carry, loose, start, npawns = state.squares()
    if state.stage != TURN:
        return _set_up(board, team) - _set_up(board, 1 - team)
    if state.throw is not None:
        return _throw_value(state, team, waiting_known)
    active = state.active
    dice, spent = state.dice_held()
    # Fewer than three dice held: the active team is rolling, its turn is over.
    acting = list(dice[active]) if len(dice[active]) + spent[active] == 3 else None
    return _position(board, carry, loose, start, npawns, active, acting,
                     dice[1 - active] if waiting_known else None, team)
