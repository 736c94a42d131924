"""`knockboard demo`: a computer-vs-computer KNOCKabout game.  Where a window can open it is
`knockboard play knockabout --sim` with both seats computers (greedy) whose moves go on by
themselves every --delay seconds, saved like any game played; elsewhere the terminal demo
(`knockboard/demo.py`) prints the same game."""

import argparse
import sys

from .args import CliError, SubParsers, add_db_argument, seconds, seed
from .play import play_setup
from .web import add_web_argument

WINDOW_DELAY = 0.8       # seconds each step of a move stays on the simulator's board


def cmd_demo(args: argparse.Namespace) -> int:
    from ..demo import DEMO_GAME, run_demo
    if not args.terminal:
        from ..sim.window import display_problem
        if display_problem() is None:
            from ..session import Setup
            from ..session.seats import DEFAULT_BOT
            setup = Setup(DEMO_GAME, {}, [DEFAULT_BOT, DEFAULT_BOT], seed=args.seed)
            return play_setup(setup, args, sys.stdout,
                              pace=WINDOW_DELAY if args.delay is None else args.delay)
    if args.web is not None:
        raise CliError("demo --web: the page follows the simulator window's game, which "
                       "cannot be shown here" + ("" if args.terminal else
                                                 " (no window can open)"))
    return run_demo(seed=args.seed, delay=args.delay, out=sys.stdout)


def add_demo_command(sub: SubParsers) -> None:
    demo = sub.add_parser(
        "demo", help="watch a computer-vs-computer KNOCKabout game",
        description="Two computer players play KNOCKabout: in the simulator's window where "
                    "one can open (the game as `knockboard play` plays it, saved; MENU "
                    "pauses it in the board's menu, where a seat can become yours, BACK "
                    "goes on, OK hurries a step), else printed in the terminal.")
    demo.add_argument("--seed", type=seed, default=None, help="dice and bot seed")
    demo.add_argument("--delay", type=seconds(0, 60), default=None,
                      help="seconds each step of a move stays on the board (default 0.8 in "
                           "the simulator window), between moves on a terminal (default "
                           "0.4, or 0 when the output is not a terminal)")
    demo.add_argument("--terminal", action="store_true",
                      help="print the game in the terminal even where a window could open")
    add_db_argument(demo, help="where the window's game is saved (default: $KNOCKBOARD_DB, "
                               "else the user data folder); the terminal demo saves nothing")
    demo.add_argument("--no-save", action="store_true", help="do not save the game")
    add_web_argument(demo)
    # the window's demo is played as `play --sim` plays
    demo.set_defaults(func=cmd_demo, sim=True, port=None)
