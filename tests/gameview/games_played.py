"""Records of short seeded games of the four games, for the game view's tests: random legal
actions (chance outcomes drawn from the seed), so that pieces have moved, balls are in
play, K.O. pieces have been placed and Knock-Off pawns have left home."""

import random

from knockboard.games import get_game, sample_chance
from knockboard.store import GameRecord

GAMES = (("knockabout", {}), ("dodgeball", {}), ("ko", {"players": 3}),
         ("knockoff", {"players": 4}))


def played(game_name, options=None, plies=40, seed=1):
    """A GameRecord of `plies` actions of `game_name` (fewer if it ends first)."""
    options = options or {}
    rng = random.Random(seed)
    state = get_game(game_name, **options).new_initial_state()
    actions = []
    while len(actions) < plies and not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        actions.append(state.action_to_string(action))
        state.apply(action)
    return GameRecord(game=game_name, options=options, seed=seed, actions=actions,
                      players=[{"name": get_game(game_name, **options).player_name(k),
                                "bot": None} for k in range(state.game.num_players)])
