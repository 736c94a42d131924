"""Position scores from one player's point of view, shared by every bot.

`score(state, player)` is a number on the game's own scale (its rules' currency: dice in the
gutter, pawns, points, climbed levels); the greedy bot maximises it one ply ahead, the
strong bot orders its moves by it.  `evaluate(state)` turns it into one value per player in
[-1, 1] (a won game is +1, a lost one -1, anything undecided strictly between), which is
what the strong bot's search backs up.  A game without an entry is scored by its returns
alone (a win or a loss, nothing in between).

Each game's function reads the engine's state attributes directly: these functions are the
one place that knows a game's internals, so a change of representation is fixed here.

Multi-player games are scored against the strongest opponent (own minus the best other),
since only first place counts as a win.
"""

import math

WIN = 1000.0


# --- results -------------------------------------------------------------------------------

def win_shares(returns):
    """Rank-based result: the players with the highest return share one win (1/k each for
    k tied), everyone else 0.  Works for +1/-1 returns and for points alike."""
    best = max(returns)
    top = [i for i, r in enumerate(returns) if r == best]
    return [1.0 / len(top) if i in top else 0.0 for i in range(len(returns))]


def terminal_values(state):
    """Per player in [-1, 1]: +1 for a sole win, -1 for a loss, shared wins in between."""
    return [2.0 * s - 1.0 for s in win_shares(state.returns())]


# --- KNOCKabout ------------------------------------------------------------------------------

def _knockabout_tables():
    from ..games.knockabout_board import COORDS
    # Rings from the centre: 0 in the middle, 5 next to the gutter, 6 the gutter itself.
    return [max(abs(q), abs(r), abs(q + r)) for q, r in COORDS]


_KA_RING = None


def knockabout(state, player):
    # Five dice in the gutter lose, so the gutter counts are most of the story.  A small
    # second term prefers own dice away from the edge (one push from the gutter is where
    # dice are lost) and the opponent's near it.
    global _KA_RING
    if _KA_RING is None:
        _KA_RING = _knockabout_tables()
    ring = _KA_RING
    gutter = state.in_gutter
    edge = [0, 0]
    for p in (0, 1):
        for cell in state.cells[p]:
            r = ring[cell]
            if r == 5:
                edge[p] += 1
            elif r == 4:
                edge[p] += 0.4
    # A fifth die lost ends the game: the fourth and fifth weigh more than the first ones.
    weight = (0.0, 1.0, 2.0, 3.2, 4.6, 8.0, 8.0, 8.0, 8.0, 8.0)
    return (weight[gutter[1 - player]] - weight[gutter[player]]
            + 0.15 * (edge[1 - player] - edge[player]))


# --- Dodgeball ------------------------------------------------------------------------------

# Chances of a throw (RULES.md 2): thrower's d6 vs target's d6.
_P_HIGHER = 15 / 36          # thrower strictly higher
_P_AT_LEAST = 21 / 36        # thrower higher or equal


def _dodgeball_side(state, team):
    """What team `team` has on the board beyond its pawn count: balls and their reach."""
    from ..games.dodgeball import DIST, HALF, START_TOUCH
    board, carry, loose = state._board, state._carry, state._loose
    own = [s for s in range(64) if board[s] == team]
    value = 0.0
    for s in own:
        if carry[s]:
            # Worth less than a throw's expected gain (below), so that throwing pays, and
            # more the nearer the centre line it stands, ready to throw.  (Not by distance
            # to the opponents: that would make the other side hide on its back row from
            # every ball, which only stalls the game: a throw at a pawn is nearly even for
            # it, and the ball comes to its side.)
            rows_back = (3 - s // 8) if team == 0 else (s // 8 - 4)
            value += 0.04 + 0.05 * (1.0 - rows_back / 4.0)
    # Balls lying on the own half (or still on the centre line) are for the taking: the
    # nearest pawn without a ball should head for them.
    free = [s for s in own if not carry[s]]
    if free:
        targets = [s for s in HALF[team] if loose[s]]
        for ball, touch in enumerate(START_TOUCH):
            if state._start[ball]:
                targets.append(min((t for t in touch if t in HALF[team]),
                                   key=lambda t: min(DIST[f][t] for f in free)))
        for t in targets:
            d = min(DIST[f][t] for f in free)
            value += 0.05 * (1.0 - min(d, 7) / 7.0)
    return value


def dodgeball(state, player):
    from ..games.dodgeball import DODGE
    pawns = state._npawns
    material = pawns[player] - pawns[1 - player]
    throw = state._throw
    if throw is not None:
        # A throw in the air: its expected result in pawns (positive for the thrower).
        thrower, target, declared, r1, r2 = throw
        thrower_team = state._board[thrower]
        if r2 is not None:
            gain = 0.0                                        # a miss: the ball is placed
        elif r1 is not None:
            hit = (r1 if declared != DODGE else r1 - 1) / 6.0
            gain = hit - (1.0 - hit) * (declared != DODGE)
        else:
            catch = _P_AT_LEAST - (1.0 - _P_AT_LEAST)
            dodge = _P_HIGHER
            if declared is None:
                # The target's owner picks what is worse for the thrower (catching, unless
                # its pawn already carries a ball, D-4).
                gain = dodge if state._carry[target] else min(catch, dodge)
            else:
                gain = catch if declared != DODGE else dodge
        material += gain if thrower_team == player else -gain
    return (material + _dodgeball_side(state, player)
            - _dodgeball_side(state, 1 - player))


# --- K.O. -----------------------------------------------------------------------------------

def ko(state, player):
    # Points of the pieces still in play decide the game; the rest is for the search.
    points = state.points()
    others = [p for i, p in enumerate(points) if i != player]
    return points[player] - max(others)


# --- Knock-Off -----------------------------------------------------------------------------

def knockoff(state, player):
    # Progress is the price already paid to climb (level L cost 1 + 2 + ... + L from home);
    # the three best pawns count fully (three on top win), the fourth a little.  Pawns on
    # the top row get a bonus on top of their price: they are what wins.
    level = state.game.board.level
    top_level = state.game.board.top

    def progress(p):
        climbed = sorted((level[x] * (level[x] + 1) // 2 for x in state.pos[p]),
                         reverse=True)
        climbed += [0] * (4 - len(climbed))
        on_top = sum(1 for x in state.pos[p] if level[x] == top_level)
        return sum(climbed[:3]) + 0.3 * climbed[3] + 6.0 * on_top * on_top

    mine = progress(player)
    best_other = max(progress(q) for q in range(state.game.num_players) if q != player)
    return mine - best_other


_BY_GAME = {"knockabout": knockabout, "dodgeball": dodgeball, "ko": ko,
            "knockoff": knockoff}

# tanh(score / scale): the score difference that counts as a clear advantage per game.
_SCALE = {"knockabout": 3.0, "dodgeball": 1.5, "ko": 5.0, "knockoff": 30.0}


def score(state, player):
    if state.is_terminal():
        return WIN * (2.0 * win_shares(state.returns())[player] - 1.0)
    scorer = _BY_GAME.get(state.game.name)
    return scorer(state, player) if scorer else 0.0


def evaluate(state):
    """One value per player in [-1, 1]: terminal results exactly, otherwise the score
    squashed by the game's scale (so no undecided position reaches +1 or -1)."""
    if state.is_terminal():
        return terminal_values(state)
    n = state.game.num_players
    scorer = _BY_GAME.get(state.game.name)
    if scorer is None:
        return [0.0] * n
    scale = _SCALE.get(state.game.name, 1.0)
    return [math.tanh(scorer(state, p) / scale) for p in range(n)]


# --- decisions played as a mixed strategy -------------------------------------------------

def _dodgeball_declaration(state):
    # The target's owner declaring catch or dodge (the throw is in the air, undeclared).
    throw = state._throw
    return throw is not None and throw[2] is None and len(state.legal_actions()) == 2


_MIXED = {"dodgeball": _dodgeball_declaration}


def is_mixed_decision(state):
    """Does the bot play this decision as a mixed strategy (a random choice weighted by the
    searched values) rather than always the best one?  Dodgeball's catch/dodge is one: a
    fixed answer would let a thrower plan against it."""
    test = _MIXED.get(state.game.name)
    return bool(test and test(state))
