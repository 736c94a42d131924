"""`knockboard completion SHELL`: the shell's completion script, generated from the parser
itself by shtab, so it knows every subcommand, option and choice (games, boards) as they
are; a saved game's ID completes from the games saved (`knockboard history --ids`, in the
database of $KNOCKBOARD_DB or the default one)."""

import argparse
import sys
from types import ModuleType

from .args import SubParsers

SHELLS = ("bash", "zsh", "fish")
INSTALL = {
    "bash": "~/.local/share/bash-completion/completions/knockboard",
    "zsh": "a folder on $fpath, as _knockboard",
    "fish": "~/.config/fish/completions/knockboard.fish",
}


def add_completion_command(sub: SubParsers, top: argparse.ArgumentParser) -> None:
    completion = sub.add_parser(
        "completion", help="the shell completion script for bash, zsh or fish",
        description="Print the completion script for SHELL on stdout. Save it where the "
                    "shell looks: " + "; ".join(f"{shell}: {where}"
                                                for shell, where in INSTALL.items()) + ".")
    completion.add_argument("shell", choices=SHELLS, metavar="SHELL",
                            help="one of: " + ", ".join(SHELLS))
    completion.set_defaults(func=lambda args: cmd_completion(args, top))


def cmd_completion(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import shtab
    _complete_paths(shtab)
    _complete_game_ids(shtab)
    sys.stdout.write(shtab.complete(parser, shell=args.shell))
    return 0


def _complete_paths(shtab: ModuleType) -> None:
    """Arguments that name files complete file names (and --svg folders), as shtab marks
    them (`args.names_file`); the rest complete their choices or nothing."""
    from .args import PATH_ARGUMENTS
    for action, kind in PATH_ARGUMENTS.items():
        # shtab reads an attribute argparse does not declare
        action.complete = shtab.DIRECTORY if kind == "folder" else shtab.FILE  # type: ignore[attr-defined]


# asked each time ID is completed: the games saved now (nothing, quietly, if none)
GAME_IDS_COMMAND = "knockboard history --ids 2>/dev/null"


def _complete_game_ids(shtab: ModuleType) -> None:
    from .args import GAME_ID_ARGUMENTS
    for action in GAME_ID_ARGUMENTS:
        action.complete = shtab.cmd(GAME_IDS_COMMAND)  # type: ignore[attr-defined]
