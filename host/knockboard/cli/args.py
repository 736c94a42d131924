"""Argument types and helpers every subcommand shares, so a bad value is refused where
argparse reads it (exit status 2, one line saying what was wrong and what is accepted)
instead of failing deep inside SQLite, time.sleep or the file system."""

import argparse
import math
import weakref
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Optional, Protocol, TypeAlias, Union

from .. import registry
from ..file_checks import folder_problem, readable_problem, writable_problem
from ..games import game_names
from ..store.paths import db_path_problem
from ..store.schema import SQLITE_MAX_INT, SQLITE_MIN_INT


def is_whole_number_text(text: str) -> bool:
    """ASCII digits with an optional sign, at most 30 of them: int() also reads "1_000",
    spaces, non-ASCII digits and 4,000-digit numbers, which nobody means on a command line."""
    digits = text[1:] if text[:1] in "+-" else text
    return digits.isascii() and digits.isdigit() and len(digits) <= 30


def whole_number(low: Optional[int], high: Optional[int],
                 noun: Optional[str] = None) -> Callable[[str], int]:
    """An integer from `low` to `high` (None: no bound on that side); `noun` ("a game id")
    names what is asked for in the messages."""
    accepted = "positive" if (low, high) == (1, None) else \
        f"at least {low}" if high is None else f"from {low} to {high}"

    def parse(text: str) -> int:
        valid = is_whole_number_text(text)
        value = int(text) if valid else None
        if value is not None and (low is None or value >= low) and (high is None or value <= high):
            return value
        if noun:
            raise argparse.ArgumentTypeError(f"{text!r} is not {noun} (a whole number "
                                             f"{accepted})")
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer" if not valid else
                                         f"{text!r} must be {accepted}")
    return parse


def seconds(low: float, high: float, *, zero: bool = True) -> Callable[[str], float]:
    """A finite number of seconds from `low` (excluded unless `zero`) to `high`."""
    accepted = f"a number of seconds {'from' if zero else 'above'} {low:g} to {high:g}"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        if not (math.isfinite(value) and low <= value <= high and (zero or value > low)):
            raise argparse.ArgumentTypeError(f"{text!r} must be {accepted}")
        return value
    return parse


positive_int = whole_number(1, None)
game_id = whole_number(1, SQLITE_MAX_INT, "a game id")
seed = whole_number(SQLITE_MIN_INT, SQLITE_MAX_INT)


def _path(check: Callable[[Path], Optional[str]]) -> Callable[[str], str]:
    def parse(text: str) -> str:
        # Path("") is the current folder; nobody means that by an empty word
        problem = check(Path(text)) if text else "an empty file name"
        if problem:
            raise argparse.ArgumentTypeError(f"{text!r}: {problem}")
        return text
    return parse


db_file = _path(db_path_problem)
input_file = _path(readable_problem)
output_file = _path(writable_problem)
output_folder = _path(folder_problem)


# the arguments that name files or folders ("file", "folder"), for the shell completion
# (cli/completion.py marks them as shtab asks, which the program need not import to run)
PATH_ARGUMENTS: "weakref.WeakKeyDictionary[argparse.Action, str]" = weakref.WeakKeyDictionary()


def names_file(action: argparse.Action, kind: str = "file") -> argparse.Action:
    """`action` (an argument just added) names a file, or with kind="folder" a folder."""
    PATH_ARGUMENTS[action] = kind
    return action


# the arguments that name a saved game by its id, which the shell completion completes
# from the saved games (`knockboard history --ids`)
GAME_ID_ARGUMENTS: "weakref.WeakSet[argparse.Action]" = weakref.WeakSet()


def add_game_id_argument(parser: argparse.ArgumentParser, **kwargs: Any) -> argparse.Action:
    """The positional ID of a saved game (`kwargs`: nargs="?" where it may be left out)."""
    action = parser.add_argument("id", type=game_id, metavar="ID", **kwargs)
    GAME_ID_ARGUMENTS.add(action)
    return action


# what `knockboard`'s subparsers are: each add_*_command adds its subcommand's parser there
SubParsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


class CliError(Exception):
    """A bad command line; main() prints it as one line and exits with status 2."""


def parse_options(pairs: Optional[Iterable[str]]) -> Dict[str, Union[int, str]]:
    options: Dict[str, Union[int, str]] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise CliError(f"--option {pair!r}: expected KEY=VALUE")
        options[key] = _convert(value)
    return options


def _convert(value: str) -> Union[int, str]:
    # anything else stays text, which the game then refuses by the option's name
    return int(value) if is_whole_number_text(value) else value


# the strong bot's thinking time a move: an hour is already far past any use
BUDGET = seconds(0, 3600, zero=False)


def _named(noun: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        try:
            return registry.find_name(text, noun)
        except KeyError as err:
            raise argparse.ArgumentTypeError(err.args[0]) from None
    return parse


# the game (or board) a word names, as people write it (KNOCKabout, Knock-Off, K.O., ko); an
# argparse error with the nearest name otherwise
game_name = _named("game")
board_name = _named("board")


def add_game_argument(parser: argparse.ArgumentParser) -> None:
    # choices too: --help and the shell completion list them
    parser.add_argument("game", type=game_name, choices=game_names(), metavar="GAME",
                        help="one of: " + ", ".join(game_names()) + " (or as printed: "
                             "KNOCKabout, Knock-Off, K.O.)")


def add_board_argument(parser: argparse.ArgumentParser, names: Iterable[str],
                       **kwargs: Any) -> None:
    """--board: a board of firmware/boards.json, whose ids are the games' names."""
    parser.add_argument("--board", type=board_name, choices=names, metavar="BOARD",
                        **kwargs)


def add_db_argument(parser: argparse.ArgumentParser,
                    help: str = "game database (default: $KNOCKBOARD_DB, else the user "
                                "data folder)") -> None:
    names_file(parser.add_argument("--db", type=db_file, metavar="FILE", help=help))


class TakesArguments(Protocol):
    """A parser or an argument group: what takes add_argument."""

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action: ...


def add_broker_credentials(parser: TakesArguments) -> None:
    """--password-file and --ca-file: how a home or a spectator logs in to a room's broker."""
    names_file(parser.add_argument("--password-file", type=input_file, metavar="FILE",
                                   help="the broker password on the first line (else "
                                        "$KNOCKBOARD_MQTT_PASSWORD, else a prompt)"))
    names_file(parser.add_argument("--ca-file", type=input_file, metavar="FILE",
                                   help="the CA certificate of an mqtts:// broker (default: "
                                        "the system's)"))


def add_position_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_argument(parser)
    parser.add_argument("--position", metavar="TEXT",
                        help="start position (default: the game's standard start)")
    parser.add_argument("--option", action="append", metavar="KEY=VALUE",
                        help="a game option, e.g. players=3 (repeatable)")
    parser.add_argument("moves", nargs="*", metavar="MOVE")
