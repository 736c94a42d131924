"""Saved games of bots against each other, with fixed seeds: what the review's checks and
its benchmark (`benchmarks/review.py`) review.  The bots are the arena's, the dice one
seeded stream drawn as the arena draws them (`games.sample_chance`)."""

import random
from typing import Any, Dict, Optional, Sequence

from ..arena import make_arena_bot
from ..games import get_game, sample_chance
from ..store import GameRecord

CAP = 30.0      # seconds: a search bot's time cap, which its iteration budget never reaches


def bot_game(game_name: str, bot_names: Sequence[str], seed: int,
             options: Optional[Dict[str, Any]] = None, iterations: int = 30,
             max_decisions: int = 3000) -> GameRecord:
    """The record of one game between the named bots (seat order), finished unless it ran
    past `max_decisions` (then still "playing")."""
    options = dict(options or {})
    game = get_game(game_name, **options)
    dice = random.Random(seed)
    bots = [make_arena_bot(name, seed * 10 + i, CAP, iterations, game_name)
            for i, name in enumerate(bot_names)]
    record = GameRecord.seated(game_name, options, list(bot_names), seed)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < max_decisions:
        if state.is_chance_node():
            action = sample_chance(state, dice)
        else:
            action = bots[state.current_player()].choose(state)
            decisions += 1
        record.push(state, action)
        state.apply(action)
    record.follow(state)
    return record
