"""A scripted game that saves every action as it goes, for the kill-and-resume tests.

    python3 scripted_game.py DB GAME SEED

Resumes the last unfinished game in DB if there is one, otherwise starts one.  Every
choice (moves and dice alike) depends only on the seed and the ply, so a game interrupted
anywhere and resumed must end with exactly the record of an uninterrupted run."""

import random
import sys

from knockboard.games import sample_chance
from knockboard.store import GameRecord, GameStore

MAX_PLIES = 3000


def choose(state, seed, ply):
    rng = random.Random(seed * 100_003 + ply)
    if state.is_chance_node():
        return sample_chance(state, rng)
    return rng.choice(state.legal_actions())


def finished_actions(game, seed):
    """The actions of a whole game of `game` chosen as `choose` does, from the start."""
    from knockboard.games import get_game
    state = get_game(game).new_initial_state()
    actions = []
    while not state.is_terminal():
        action = choose(state, seed, len(actions))
        actions.append(state.action_to_string(action))
        state.apply(action)
    return actions


def run(db, game, seed):
    with GameStore(db) as store:
        gid = store.last_unfinished()
        if gid is None:
            gid = store.new_game(GameRecord(game=game, seed=seed,
                                            players=[{"name": "A", "bot": "script"},
                                                     {"name": "B", "bot": "script"}]))
        record = store.get(gid)
        state = record.replay()
        while not state.is_terminal() and len(state.history) < MAX_PLIES:
            ply = len(state.history)
            action = choose(state, seed, ply)
            store.append(gid, ply, state.action_to_string(action))
            state.apply(action)
            print(ply, flush=True)
        store.finish(gid, state.result())
    return gid


if __name__ == "__main__":
    run(sys.argv[1], sys.argv[2], int(sys.argv[3]))
