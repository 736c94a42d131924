"""`knockboard demo`: a computer-vs-computer game, in the simulator's window or the terminal."""

import sys

from .args import db_file, seconds, seed
from .records import open_store


def cmd_demo(args):
    if not args.terminal:
        from ..sim.window import display_problem
        if display_problem() is None:
            from ..board_demo import run_window_demo
            store = None if args.no_save else open_store(args)
            try:
                return run_window_demo(seed=args.seed,
                                       delay=0.8 if args.delay is None else args.delay,
                                       store=store)
            finally:
                if store is not None:
                    store.close()
    from ..demo import run_demo
    return run_demo(seed=args.seed, delay=args.delay, out=sys.stdout)


def add_demo_command(sub):
    demo = sub.add_parser("demo", help="watch a computer-vs-computer KNOCKabout game")
    demo.add_argument("--seed", type=seed, default=None, help="dice and bot seed")
    demo.add_argument("--delay", type=seconds(0, 60), default=None,
                      help="seconds between moves (default 0.8 in the simulator window, "
                           "0.4 on a terminal, else 0)")
    demo.add_argument("--terminal", action="store_true",
                      help="print the game in the terminal even where a window could open")
    demo.add_argument("--db", type=db_file, metavar="FILE",
                      help="where the window's game is saved (default: $KNOCKBOARD_DB, else "
                           "the user data folder); the terminal demo saves nothing")
    demo.add_argument("--no-save", action="store_true", help="do not save the game")
    demo.set_defaults(func=cmd_demo)
