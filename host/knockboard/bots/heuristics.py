"""Position scores from one player's point of view, for one-ply bots.

Each game's score is what its rules reward; a game without an entry is scored by its
returns alone (a win or a loss, nothing in between)."""

WIN = 1000.0


def knockabout(state, player):
    # Five dice in the gutter lose, so the gutter counts are the whole story one ply ahead.
    return state.in_gutter[1 - player] - state.in_gutter[player]


_BY_GAME = {"knockabout": knockabout}


def score(state, player):
    if state.is_terminal():
        return WIN * state.returns()[player]
    scorer = _BY_GAME.get(state.game.name)
    return scorer(state, player) if scorer else 0.0
