"""`knockboard demo`: a computer-vs-computer KNOCKabout game printed in the terminal."""

import random
import time

from .ascii_board import render_knockabout
from .bots import GreedyBot
from .games import get_game, sample_chance
from .games.knockabout import ROLLOFF_PENDING

MAX_PLIES = 2000   # greedy bots end a game in far fewer; a bound keeps a bug from hanging


def run_demo(seed=None, delay=None, out=None):
    seed = random.randrange(1 << 30) if seed is None else seed
    if delay is None:
        delay = 0.4 if out.isatty() else 0.0
    dice = random.Random(seed)
    game = get_game("knockabout")
    state = game.new_initial_state()
    bots = [GreedyBot(seed * 2 + 1), GreedyBot(seed * 2 + 2)]
    print(f"KNOCKabout demo, seed {seed}: two greedy computer players.", file=out)
    print(render_knockabout(state), file=out)
    moves = 0
    for _ in range(MAX_PLIES):
        if state.is_terminal():
            break
        mover = state.current_player()
        if state.is_chance_node():
            rolling_off = state.side == ROLLOFF_PENDING
            action = sample_chance(state, dice)
            print(f"  dice: {state.action_to_string(action)}", file=out)
            state.apply(action)
            if rolling_off and state.side != ROLLOFF_PENDING:
                print(f"{game.player_name(state.side)} wins the roll-off and starts.", file=out)
            continue
        action = bots[mover].choose(state)
        text = state.action_to_string(action)
        state.apply(action)
        moves += 1
        marks = {text.split("-")[0]} if "-" in text else set()
        print(f"\nMove {moves}: {game.player_name(mover)} {text}    "
              f"gutter: White {state.in_gutter[0]}, Black {state.in_gutter[1]}", file=out)
        print(render_knockabout(state, marks=marks), file=out)
        if delay:
            time.sleep(delay)
    print(f"\n{state.result() or 'Stopped'} after {moves} moves.", file=out)
    return 0
