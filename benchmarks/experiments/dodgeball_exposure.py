"""Why does the strong bot show the greedy bot its carriers?  Counted in real games.

The ball economy (`../dodgeball_economy.py`) puts the whole edge over the greedy bot in
the share of its throws that come at the player's carriers (which must dodge: 15/36 for
the thrower, no risk).  This plays arena games (the seats,
dice and bots of `knockboard arena dodgeball --bots T,greedy --seed S --iterations N
--budget 30 --max-moves 1500`) and counts, for the tested bot:

- **where a carrier that the greedy bot threw at came from**: carrying already when the
  tested bot's turn ended ("held over"), or a ball caught in the greedy bot's own turn
  (its first ball caught, its next thrown at the catcher);
- **at the end of each of the tested bot's turns**: carriers left, and whether the greedy
  bot's known dice allow a throw at one of them (exposed: `dodgeball_score`'s own count of
  the throws from its carriers, and from loose and starting balls a die can fetch);
- **whether the turn could have ended unexposed** (checked from the position at the start
  of the turn, the carriers it began with): every one of them either moves, with the dice
  given to it, to a square of its half that the greedy bot's known dice do not reach, or
  throws; pawns in the way ignored, and a ball thrown counted as gone (relaxed: a thrown
  ball comes back to the greedy bot, which may then reach more; the "strict" count adds a
  thrower on each throw's target square).  Carriers picked up during the turn are the
  bot's choice and not counted as forced;
- **whether it could hide**: turn ends where the greedy bot's known dice reach any of its
  pawns, and of those, whether from the turn's start every such pawn could have moved out
  of reach (each die moving one pawn; the same relaxations);
- **every throw** by side, target (a carrier or a pawn that catches) and result, the
  turns it began with a carrier of the greedy bot's within its own dice's reach (and
  threw at it), and the race of throws (`../dodgeball_race.py`) at the measured shares.

    python3 benchmarks/experiments/dodgeball_exposure.py --games 20
"""

import argparse
import itertools
import os
import sys
from collections import Counter

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path[:0] = [os.path.join(ROOT, "host"), ROOT]

from benchmarks.dodgeball_race import win_chance  # noqa: E402
from knockboard.arena import run_arena, wilson_interval  # noqa: E402
from knockboard.bots.dodgeball_score import (_moved_distance, _throwers,  # noqa: E402
                                             _throws_known, pawns_and_free)
from knockboard.games import get_game  # noqa: E402
from knockboard.games.dodgeball.board import DIST, HALF  # noqa: E402
from knockboard.games.dodgeball.notation import THROW, decode  # noqa: E402
from knockboard.games.dodgeball.position import TURN  # noqa: E402


def threatened(team, board, carry, loose, start, dice, extra=()):
    """Squares of `team`'s half where a carrier could be thrown at by the other team with
    its known `dice` (pawns in the way ignored); `extra`: more of its throwers (square,
    dice before the throw, distance) e.g. balls it would get back."""
    them = 1 - team
    pawns, free = pawns_and_free(board, carry)
    throwers = _throwers(them, board, carry, loose, start, pawns[them], free[them])
    throwers = throwers + list(extra)
    mark = [True] * 64
    out = set()
    for q in HALF[team]:
        if _throws_known(them, throwers, [q], mark, dice) > 0:
            out.add(q)
    return out


def can_escape(state, team, strict=False):
    """Whether the carriers `team` holds at the start of its turn can all end it out of the
    other team's known reach (see the module docstring)."""
    board, carry, loose, start, _ = state.squares()
    dice = list(state.dice_held()[0][team])
    their_dice = list(state.dice_held()[0][1 - team])
    carriers = [s for s in HALF[team] if board[s] == team and carry[s]]
    if not carriers:
        return True
    danger = threatened(team, board, carry, loose, start, their_dice)
    targets = [s for s in HALF[1 - team] if board[s] == 1 - team]
    for assign in itertools.product(range(len(carriers) + 1), repeat=len(dice)):
        ok = True
        thrown_at = []
        moves = []
        for i, c in enumerate(carriers):
            mine = [d for d, a in zip(dice, assign) if a == i]
            options = _options(team, c, mine, targets, danger, board)
            if not options:
                ok = False
                break
            throw = [t for kind, t in options if kind == "throw"]
            moves.append([t for kind, t in options if kind == "stay"])
            if not moves[-1]:
                thrown_at.append(throw[0])
        if not ok:
            continue
        if not strict or not thrown_at:
            return True
        back = [(t, 0, 0) for t in thrown_at]
        worse = threatened(team, board, carry, loose, start, their_dice, back)
        if all(any(q not in worse for q in m) for m in moves if m):
            return True
    return False


def can_hide(state, team):
    """Whether every pawn of `team` can end its turn where the other team's known dice
    reach none of them (each die moves one pawn; pawns in the way ignored; throws and
    balls changing hands not counted)."""
    board, carry, loose, start, _ = state.squares()
    dice = list(state.dice_held()[0][team])
    danger = threatened(team, board, carry, loose, start, list(state.dice_held()[0][1 - team]))
    exposed = [s for s in HALF[team] if board[s] == team and s in danger]
    if not exposed:
        return True
    if len(exposed) > len(dice):
        return False
    for assign in itertools.product(range(len(exposed) + 1), repeat=len(dice)):
        if all(any(0 < DIST[c][q] <= sum(d for d, a in zip(dice, assign) if a == i)
                   and board[q] < 0 and q not in danger for q in HALF[team])
               for i, c in enumerate(exposed)):
            return True
    return False


def _options(team, c, mine, targets, danger, board):
    """What the carrier on c can do with the dice `mine`: ("stay", square) ends out of
    reach, ("throw", target)."""
    out = []
    total = sum(mine)
    if c not in danger and not mine:
        out.append(("stay", c))
    if mine:
        for q in HALF[team]:
            if 0 < DIST[c][q] <= total and (board[q] < 0) and q not in danger:
                out.append(("stay", q))
        for k, t_die in enumerate(mine):
            move = total - t_die
            for t in targets:
                if _distance_after(team, c, t, move) <= t_die:
                    out.append(("throw", t))
                    break
    return out


def _distance_after(team, c, t, u):
    return _moved_distance(team, c, t, u)


class Observer:
    def __init__(self, counts, tested_seat):
        self.counts = counts
        self.me = tested_seat
        self.held_over = set()       # my carriers when my last turn ended
        self.turn_start = None       # my position when my turn began
        self.pending = None          # a throw whose result is not seen yet
        self.turn_no = 0
        self.chance_open = False     # a carrier of theirs was in my reach as my turn began
        self.chances = set()         # (my turn, square) of their carriers I could reach

    def _resolve(self, state):
        if self.pending is None:
            return
        who, at, before, seat = self.pending
        self.pending = None
        now = state.squares()[4]
        if now[seat] < before[seat]:
            result = "thrower out"
        elif now[1 - seat] < before[1 - seat]:
            result = "target out"
        else:
            result = "miss"
        self.counts[f"throws {who} at {at}: {result}"] += 1

    def __call__(self, state, seat, action):
        if state.stage != TURN:
            return
        if self.pending is not None and (state.throw is None or state.throw[4] is not None):
            self._resolve(state)
        board, carry, loose, start, _ = state.squares()
        self._turn_events(state, seat, board, carry, loose, start)
        kind, _, _, target = decode(action)
        if kind == THROW:
            self._throw(state, seat, board, carry, target)

    def _turn_events(self, state, seat, board, carry, loose, start):
        """A turn begins (mine: its position kept, my chances counted; theirs: mine is
        over), or I decide in my turn (their carriers within reach counted)."""
        starting = state.throw is None and state.dice_held()[1][seat] == 0
        mine = state.active == self.me
        if seat == self.me and starting and mine:
            self.turn_start = state.clone()
            self.turn_no += 1
            self._chances(state, board, carry, loose, start)
        if seat == self.me and mine and state.throw is None:
            self._carrier_chances(state, board, carry, loose, start)
        if seat != self.me and starting and not mine:
            self._turn_ended(state, board, carry, loose, start)
            self.chance_open = False

    def _throw(self, state, seat, board, carry, target):
        counts, me = self.counts, self.me
        who = "mine" if seat == me else "greedy's"
        at = "a carrier" if carry[target] else "a catcher"
        counts[f"throws {who} at {at}"] += 1
        self.pending = (who, at, list(state.squares()[4]), seat)
        if seat == me:
            if self.chance_open and carry[target]:
                counts["... of those, I threw at a carrier"] += 1
                self.chance_open = False
            return
        if any(board[s] == me and carry[s] for s in HALF[me]):
            counts["greedy throws while I hold"] += 1
            if carry[target]:
                counts["... at a carrier"] += 1
                origin = "held over" if target in self.held_over else "caught this turn"
                counts["... at a carrier " + origin] += 1

    def _chances(self, state, board, carry, loose, start):
        """My turn begins: can my dice reach one of their carriers (a throw with no risk)?"""
        me, them = self.me, 1 - self.me
        theirs = [s for s in HALF[them] if board[s] == them and carry[s]]
        if not theirs:
            return
        self.counts["my turns, they hold a ball"] += 1
        pawns, free = pawns_and_free(board, carry)
        throwers = _throwers(me, board, carry, loose, start, pawns[me], free[me])
        if _throws_known(me, throwers, theirs, carry, list(state.dice_held()[0][me])) > 0:
            self.counts["my turns, a carrier of theirs in my reach"] += 1
            self.chance_open = True

    def _carrier_chances(self, state, board, carry, loose, start):
        """Their carriers my throwers reach with my unspent dice at this decision: the most
        throws at a carrier my turns could have made (each carrier once a turn)."""
        me, them = self.me, 1 - self.me
        dice = list(state.dice_held()[0][me])
        pawns, free = pawns_and_free(board, carry)
        throwers = _throwers(me, board, carry, loose, start, pawns[me], free[me])
        for s in HALF[them]:
            if (board[s] == them and carry[s] and (self.turn_no, s) not in self.chances
                    and _throws_known(me, throwers, [s], carry, dice) > 0):
                self.chances.add((self.turn_no, s))
                self.counts["carrier chances (a carrier of theirs in my reach, once a turn)"] += 1

    def _turn_ended(self, state, board, carry, loose, start):
        counts, me = self.counts, self.me
        mine = [s for s in HALF[me] if board[s] == me and carry[s]]
        self.held_over = set(mine)
        counts["my turns"] += 1
        their_dice = list(state.dice_held()[0][1 - me])
        reach = threatened(me, board, carry, loose, start, their_dice)
        if any(board[s] == me for s in reach):
            counts["turn ends in their reach"] += 1
            if self.turn_start is not None and can_hide(self.turn_start, me):
                counts["... of those, hiding every pawn was open at the turn's start"] += 1
        if not mine:
            return
        counts["turn ends holding"] += 1
        danger = threatened(me, board, carry, loose, start, list(state.dice_held()[0][1 - me]))
        if not any(s in danger for s in mine):
            return
        counts["turn ends exposed"] += 1
        began = self.turn_start
        if began is None:
            return
        b0, c0 = began.squares()[:2]
        had = [s for s in HALF[me] if b0[s] == me and c0[s]]
        if not had:
            counts["... exposed, carriers all picked up in the turn"] += 1
            return
        counts["... exposed, began the turn holding"] += 1
        if can_escape(began, me):
            counts["... of those, an escape existed (relaxed)"] += 1
            if can_escape(began, me, strict=True):
                counts["... of those, an escape existed (strict)"] += 1


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tested", default="strong")
    parser.add_argument("--iterations", type=int, default=30)
    args = parser.parse_args(argv)
    counts: Counter = Counter()

    def observer(listed):
        return Observer(counts, listed.index(0))

    result = run_arena(get_game("dodgeball"), [args.tested, "greedy"], args.games, args.seed,
                       budget=30.0, iterations=args.iterations, max_decisions=1500,
                       observer=observer)
    wins = result.entries[0].wins
    low, high = wilson_interval(wins, args.games)
    print(f"{args.tested} v greedy, {args.games} games, seed {args.seed}: {wins:g} wins,"
          f" {wins / args.games:.3f} [{low:.3f}, {high:.3f}], unfinished {result.unfinished}")
    for key in sorted(counts):
        print(f"  {key}: {counts[key]}")
    mine = counts["throws mine at a carrier"] + counts["throws mine at a catcher"]
    theirs = counts["throws greedy's at a carrier"] + counts["throws greedy's at a catcher"]
    if mine and theirs:
        mix = (mine / (mine + theirs), counts["throws mine at a carrier"] / mine,
               counts["throws greedy's at a carrier"] / theirs)
        print("the race of throws (../dodgeball_race.py) at these shares (ours %.3f, ours at"
              " a carrier %.3f, theirs at a carrier %.3f): %.3f" % (mix + (win_chance(*mix),)))


if __name__ == "__main__":
    main()
