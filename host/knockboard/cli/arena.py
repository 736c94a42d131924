"""`knockboard arena`: bots against each other, win rates with 95% intervals."""

import argparse
import sys

from .args import (BUDGET, CliError, SubParsers, add_game_argument, parse_options, positive_int,
                   seed)


def cmd_arena(args: argparse.Namespace) -> int:
    from ..arena import arena_command
    try:
        arena_command(args.game, args.bots, args.games, args.seed, args.budget,
                      args.iterations, parse_options(args.option), sys.stdout,
                      sys.stderr if args.progress else None, args.max_moves)
    except ValueError as err:
        raise CliError(f"arena: {err}") from None
    return 0


def add_arena_command(sub: SubParsers) -> None:
    arena = sub.add_parser(
        "arena", help="bots play each other: win rates with 95%% confidence intervals",
        description="Play seat-rotated games between bots (random, greedy, strong, and "
                    "clairvoyant: the strong bot's search reading the arena's dice ahead, the "
                    "ceiling of what skill can win; or the levels easy, fair, hard, which a "
                    "person picks) with the same dice for every rotation; "
                    "print each bot's win rate with its 95% Wilson interval and its average "
                    "time per move.")
    add_game_argument(arena)
    arena.add_argument("--bots", required=True, metavar="A,B[,C,D]",
                       help="one bot per player, in seat order of the first game")
    arena.add_argument("--games", type=positive_int, default=20, metavar="N",
                       help="default 20")
    arena.add_argument("--seed", type=seed, default=0, metavar="S", help="default 0")
    arena.add_argument("--budget", type=BUDGET, default=1.0, metavar="SECONDS",
                       help="the search bots' time per move (default 1; a cap when "
                            "--iterations is given)")
    arena.add_argument("--iterations", type=positive_int, default=None, metavar="N",
                       help="the search bots' iterations per move: results then "
                            "depend on the seed only")
    arena.add_argument("--option", action="append", metavar="KEY=VALUE",
                       help="a game option, e.g. players=4 (default: one player per bot)")
    arena.add_argument("--max-moves", type=positive_int, default=2000, metavar="N",
                       help="stop a game after N moves as unfinished (default 2000)")
    arena.add_argument("--progress", action="store_true", help="report progress on stderr")
    arena.set_defaults(func=cmd_arena)
