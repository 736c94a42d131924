"""A game played by two greedy bots and saved entry by entry into a game store, as a session
saves it: what the web server's tests follow without a board."""

import random
import threading

from knockboard.bots import make_bot
from knockboard.games import get_game, sample_chance
from knockboard.store import GameRecord, GameStore


def new_game(db, game="knockabout", seed=1, options=None):
    """A stored game with no entry yet; its id."""
    options = options or {}
    store = GameStore(db)
    try:
        players = get_game(game, **options).num_players
        return store.new_game(GameRecord.seated(game, options, ["greedy"] * players, seed))
    finally:
        store.close()


def play_into(db, game_id, game="knockabout", seed=1, pause=0.0, stop=None, most=10_000,
              options=None):
    """Play the stored game `game_id` to its end, an entry every `pause` seconds (at most
    `most` entries, or until `stop` is set); returns the entries written."""
    store = GameStore(db)
    dice = random.Random(seed)
    state = get_game(game, **(options or {})).new_initial_state()
    bots = [make_bot("greedy", seed=seed * 10 + k) for k in range(state.game.num_players)]
    written = []
    try:
        while not state.is_terminal() and len(written) < most:
            if stop is not None and stop.wait(pause):
                break
            if stop is None and pause:
                threading.Event().wait(pause)
            action = sample_chance(state, dice) if state.is_chance_node() else \
                bots[state.current_player()].choose(state)
            text = state.action_to_string(action)
            store.append(game_id, len(written), text)
            written.append(text)
            state.apply(action)
        if state.is_terminal():
            store.finish(game_id, state.result())
    finally:
        store.close()
    return written
