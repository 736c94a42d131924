"""`knockboard completion SHELL`: the shell's completion script, generated from the parser
itself by shtab, so it knows every subcommand, option and choice (games, boards) as they
are."""

import sys

SHELLS = ("bash", "zsh", "fish")
INSTALL = {
    "bash": "~/.local/share/bash-completion/completions/knockboard",
    "zsh": "a folder on $fpath, as _knockboard",
    "fish": "~/.config/fish/completions/knockboard.fish",
}


def add_completion_command(sub, top):
    completion = sub.add_parser(
        "completion", help="the shell completion script for bash, zsh or fish",
        description="Print the completion script for SHELL on stdout. Save it where the "
                    "shell looks: " + "; ".join(f"{shell}: {where}"
                                                for shell, where in INSTALL.items()) + ".")
    completion.add_argument("shell", choices=SHELLS, metavar="SHELL",
                            help="one of: " + ", ".join(SHELLS))
    completion.set_defaults(func=lambda args: cmd_completion(args, top))


def cmd_completion(args, parser):
    import shtab
    sys.stdout.write(shtab.complete(parser, shell=args.shell))
    return 0
