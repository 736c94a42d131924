"""The `knockboard` command: its parser and the one place that turns errors into one line."""

import argparse
import sys

from .. import __version__
from ..games import GameError
from ..store import StoreError
from .analyze import add_analysis_commands
from .arena import add_arena_command
from .boardtest import add_boardtest_command
from .args import CliError, parse_options
from .demo import add_demo_command
from .device import add_device_commands
from .play import PlayCommandError, add_play_command
from .records import RecordsCommandError, add_record_commands
from .sim import add_sim_command


class _Parser(argparse.ArgumentParser):
    # argparse prints usage + error and exits 2 itself; keep that but as a single line so
    # every bad input of this command reads the same way.
    def error(self, message):
        raise CliError(f"{self.prog}: {message}")


def build_parser():
    parser = _Parser(prog="knockboard",
                     description="Knockboard: a smart board for dice-driven knock games.")
    parser.add_argument("--version", action="version", version=f"knockboard {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    add_analysis_commands(sub)
    add_demo_command(sub)
    add_arena_command(sub)
    add_device_commands(sub)
    add_boardtest_command(sub)
    add_sim_command(sub)
    add_record_commands(sub)
    add_play_command(sub, parse_options)
    parser.subcommands = sub.choices
    return parser


def main(argv=None):
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args, rest = parser.parse_known_args(argv)
        if rest:
            # Positional MOVEs may follow options (`analyze G --position P M1 M2`), which
            # plain argparse cannot mix; re-parse the subcommand's own words intermixed.
            sub = parser.subcommands[args.command]
            args = sub.parse_intermixed_args(argv[argv.index(args.command) + 1:])
            args.command = sub.prog.split()[-1]
        return args.func(args)
    except (CliError, GameError, RecordsCommandError, PlayCommandError, StoreError) as err:
        print(f"knockboard: {err}" if not str(err).startswith("knockboard") else str(err),
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `knockboard analyze ... | head` closed the pipe early: not an error of ours.
        sys.stderr.close()
        return 0
    except OSError as err:
        # the last line only: a file or device that failed after its arguments were checked
        # (removed, filled up, unplugged) is the user's world, not a bug to show as one
        where = f"{err.filename}: " if err.filename else ""
        print(f"knockboard: {where}{err.strerror or err}", file=sys.stderr)
        return 2

