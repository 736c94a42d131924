"""The `knockboard` command: its parser and the one place that turns errors into one line."""

import argparse
import sys
from typing import Any, Callable, Dict, List, NoReturn, Optional, Sequence, Union, cast

from .. import __version__
from ..games import GameError
from ..store import StoreError
from .analyze import add_analysis_commands
from .arena import add_arena_command
from ..suggest import did_you_mean
from .boardtest import add_boardtest_command
from .args import CliError, SubParsers, parse_options
from .commands import EXAMPLES, GROUPS
from .completion import add_completion_command
from .demo import add_demo_command
from .device import add_device_commands
from .play import PlayCommandError, add_play_command
from .records import RecordsCommandError, add_record_commands
from .review import add_review_command
from .rules import add_rules_command
from .sim import add_sim_command
from .watch import add_watch_command

DESCRIPTION = "Knockboard: a smart board for dice-driven knock games."
OVERVIEW_EXAMPLES = ("knockboard demo", "knockboard play knockabout --sim",
                     "knockboard play --help")


class _Parser(argparse.ArgumentParser):
    examples: Sequence[str] = ()

    # argparse prints usage + error and exits 2 itself; keep that but as a single line so
    # every bad input of this command reads the same way.
    def error(self, message: str) -> NoReturn:
        raise CliError(f"{self.prog}: {message}")

    def format_help(self) -> str:
        return self._body() + _examples_text(self.examples)

    def _body(self) -> str:
        return super().format_help()


class _TopParser(_Parser):
    """`knockboard` itself: its help lists the subcommands in GROUPS, by what they are for."""

    summaries: Dict[str, str] = {}   # subcommand -> its one-line help
    subcommands: Dict[str, argparse.ArgumentParser]

    def _body(self) -> str:
        formatter = self._get_formatter()
        formatter.add_usage(self.usage, self._actions, self._mutually_exclusive_groups)
        formatter.add_text(self.description)
        for title, names in GROUPS:
            formatter.start_section(title)
            formatter.add_arguments([argparse.Action([], dest=n, metavar=n,
                                                     help=self.summaries[n])
                                     for n in names if n in self.summaries])
            formatter.end_section()
        formatter.start_section("options")
        formatter.add_arguments(self._optionals._group_actions)
        formatter.end_section()
        return formatter.format_help()


def _keeping_summaries(add_parser: Callable[..., argparse.ArgumentParser],
                       summaries: Dict[str, str]) -> Callable[..., argparse.ArgumentParser]:
    """`add_parser` that also notes each subcommand's one-line help in `summaries`, for the
    grouped list of `knockboard` alone."""
    def add(name: str, **kwargs: Any) -> argparse.ArgumentParser:
        summaries[name] = kwargs.get("help", "")
        return add_parser(name, **kwargs)
    return add


def _examples_text(examples: Sequence[str]) -> str:
    if not examples:
        return ""
    return f"\nexample{'s' if len(examples) > 1 else ''}:\n" + \
        "".join(f"  {line}\n" for line in examples)


def version_text() -> str:
    from ..device.protocol import PROTO_VERSION
    from ..resources import firmware_version
    return (f"knockboard {__version__} (firmware {firmware_version()}, serial protocol "
            f"{PROTO_VERSION})")


def build_parser() -> _TopParser:
    parser = _TopParser(prog="knockboard", description=DESCRIPTION)
    parser.examples = OVERVIEW_EXAMPLES
    parser.add_argument("--version", action="version", version=version_text(),
                        help="the program's, the firmware's and the serial protocol's "
                             "versions")
    # parser_class makes each subcommand's parser a _Parser; the add_*_command functions
    # use only what an ArgumentParser has
    sub = cast(SubParsers, parser.add_subparsers(dest="command", metavar="COMMAND",
                                                 required=True, parser_class=_Parser))
    parser.summaries = {}
    sub.add_parser = _keeping_summaries(  # type: ignore[method-assign]
        sub.add_parser, parser.summaries)

    add_play_command(sub, parse_options)
    add_watch_command(sub)
    add_demo_command(sub)
    add_rules_command(sub)
    add_sim_command(sub)
    add_record_commands(sub)
    add_review_command(sub)
    add_device_commands(sub)
    add_boardtest_command(sub)
    add_analysis_commands(sub)
    add_arena_command(sub)
    add_completion_command(sub, parser)
    for name, sub_parser in sub.choices.items():
        cast(_Parser, sub_parser).examples = EXAMPLES.get(name, ())
    parser.subcommands = sub.choices
    return parser


def _command_typed(parser: _TopParser, argv: List[str]) -> Optional[str]:
    """The subcommand argv names (None for `--help`, `--version`); CliError with a
    suggestion for a word that is no subcommand."""
    word = next((w for w in argv if not w.startswith("-")), None)
    if word is None or word in parser.subcommands:
        return word
    raise CliError(f"knockboard: unknown command {word!r}"
                   f"{did_you_mean(word, parser.subcommands)} (`knockboard` alone lists "
                   "the commands)")


def _one_line(err: Union[BaseException, str], command: Optional[str]) -> str:
    """The error as the one line shown: labelled with the command typed (`knockboard
    resume: ...`), however the code that raised it began its message."""
    text = str(err)
    if text.startswith("knockboard"):
        return text                  # the parser's own: its prog names the command
    if command is None:
        return f"knockboard: {text}"
    if text.startswith((f"{command}:", f"{command} ")):
        return f"knockboard {text}"
    return f"knockboard {command}: {text}"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        # asking for nothing is asking what there is: the overview, exit status 0
        print(parser.format_help(), end="")
        return 0
    command = None
    try:
        command = _command_typed(parser, argv)
        args, rest = parser.parse_known_args(argv)
        if rest:
            # Positional MOVEs may follow options (`analyze G --position P M1 M2`), which
            # plain argparse cannot mix; re-parse the subcommand's own words intermixed.
            sub = parser.subcommands[args.command]
            args = sub.parse_intermixed_args(argv[argv.index(args.command) + 1:])
            args.command = sub.prog.split()[-1]
        return args.func(args)
    except (CliError, GameError, RecordsCommandError, PlayCommandError, StoreError) as err:
        print(_one_line(err, command), file=sys.stderr)
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
        print(_one_line(f"{where}{err.strerror or err}", command), file=sys.stderr)
        return 2
