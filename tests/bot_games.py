"""Games between bots for the bot tests: seeded dice, seeded bots, every action checked legal."""

import random

from knockboard.bots import make_bot
from knockboard.games import sample_chance

CAP = 30.0   # seconds: a cap that a test's iteration budget never reaches


def play_bots(game, bot_names, seed, iterations, max_decisions):
    """Play `game` from its start between the named bots (seat order); stop at the end or
    after `max_decisions` decisions.  Returns (final state, decisions made)."""
    dice = random.Random(seed)
    bots = [make_bot(b, seed=seed * 10 + i, budget=CAP, iterations=iterations)
            for i, b in enumerate(bot_names)]
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < max_decisions:
        if state.is_chance_node():
            state.apply(sample_chance(state, dice))
        else:
            action = bots[state.current_player()].choose(state)
            assert action in state.legal_actions(), state.action_to_string(action)
            state.apply(action)
            decisions += 1
    return state, decisions
