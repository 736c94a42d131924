"""`knockboard demo` without a window: a computer-vs-computer KNOCKabout game printed in the
terminal.  Where a window can open, the demo is the play session with two computer seats on
the simulator (`cli/demo.py`); this one draws its random choices the way that session does,
so a seed gives the same game in both."""

import random
import time

from .ascii_board import KNOCKABOUT_KEY, changed_cells, render_knockabout
from .games import get_game, sample_chance
from .games.knockabout.position import ROLLOFF_PENDING
from .session.seats import DEFAULT_BOT, make_bot
from .session.session import ply_rng

DEMO_GAME = "knockabout"
MAX_PLIES = 2000   # greedy bots end a game in far fewer; a bound keeps a bug from hanging


def run_demo(seed=None, delay=None, out=None):
    seed = random.randrange(1 << 30) if seed is None else seed
    if delay is None:
        delay = 0.4 if out.isatty() else 0.0
    game = get_game(DEMO_GAME)
    state = game.new_initial_state()
    print(f"KNOCKabout demo, seed {seed}: two greedy computer players.", file=out)
    print(KNOCKABOUT_KEY, file=out)
    print(render_knockabout(state), file=out)
    moves = 0
    for ply in range(MAX_PLIES):
        if state.is_terminal():
            break
        mover = state.current_player()
        if state.is_chance_node():
            rolling_off = state.side == ROLLOFF_PENDING
            action = sample_chance(state, ply_rng(seed, ply, "dice"))
            print(f"  dice: {state.action_to_string(action)}", file=out)
            state.apply(action)
            if rolling_off and state.side != ROLLOFF_PENDING:
                print(f"{game.player_name(state.side)} wins the roll-off and starts.", file=out)
            continue
        bot = make_bot(DEFAULT_BOT, ply_rng(seed, ply, "bot", mover).getrandbits(62))
        action = bot.choose(state.clone())
        text = state.action_to_string(action)
        before = state.clone()
        state.apply(action)
        moves += 1
        marks = changed_cells(before, state)
        print(f"\nMove {moves}: {game.player_name(mover)} {text}    "
              f"gutter: White {state.in_gutter[0]}, Black {state.in_gutter[1]}", file=out)
        print(render_knockabout(state, marks=marks), file=out)
        if delay:
            time.sleep(delay)
    print(f"\n{state.result() or 'Stopped'} after {moves} moves.", file=out)
    return 0
