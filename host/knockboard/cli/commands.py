"""The command's table of contents: the subcommands grouped by what people do with them, in
the order `knockboard` alone lists them, and a short example for each, shown at the end of
its --help. A new subcommand goes in one group here with an example (tests/test_cli_
conventions.py fails until it does)."""

from typing import Optional

# (title, subcommands), in the order people look for them
GROUPS = (
    ("play", ("play", "demo", "rules", "resume", "view", "watch", "sim")),
    ("saved games", ("history", "show", "review", "replay", "export", "import", "abandon",
                     "delete")),
    ("the board", ("ports", "uf2", "flash", "boardtest")),
    ("analysis", ("analyze", "hint", "arena")),
    ("this command", ("completion",)),
)

EXAMPLES = {
    "play": ("knockboard play knockabout --sim --names Ann,Ben",
             "knockboard play ko --players 3 --bots 2,3 --port /dev/ttyACM0",
             "knockboard play ko --players 2 --rounds 3 --sim",
             "knockboard play knockabout --sim --bots all --pace 0.5 --web 0.0.0.0:8080"),
    "demo": ("knockboard demo --terminal --seed 7",),
    "rules": ("knockboard rules K.O.",),
    "resume": ("knockboard resume", "knockboard resume 12 --sim"),
    "view": ("knockboard view 12", "knockboard view --web 8080"),
    "watch": ("knockboard watch mqtts://grandma@broker.example/smith-jones-1",
              "knockboard watch mqtts://grandma@broker.example/smith-jones-1 --view"),
    "sim": ("knockboard sim --board ko", "knockboard sim --headless"),
    "history": ("knockboard history",),
    "show": ("knockboard show 12",),
    "review": ("knockboard review 12", "knockboard review --last --iterations 400",
               "knockboard review 12 --svg chances.svg"),
    "replay": ("knockboard replay 12 --view",),
    "export": ("knockboard export 12 -o game12.json", "knockboard export 12 --svg pictures"),
    "import": ("knockboard import game12.json",),
    "abandon": ("knockboard abandon 12",),
    "delete": ("knockboard delete 12", "knockboard delete 12 --yes"),
    "ports": ("knockboard ports --all",),
    "uf2": ("knockboard uf2 --board knockoff -o knockoff.uf2",),
    "flash": ("knockboard flash --board dodgeball --dry-run",),
    "boardtest": ("knockboard boardtest --board ko --port /dev/ttyACM0",
                  "knockboard boardtest --board knockabout --sim"),
    "analyze": ("knockboard analyze knockabout F3-N",
                'knockboard analyze KNOCKabout --position "W D5:W4=1 D7:B8=4" D5-N'),
    "hint": ("knockboard hint knockoff --iterations 200",),
    "arena": ("knockboard arena ko --bots strong,greedy --games 20 --seed 1",),
    "completion": ("knockboard completion bash > ~/.local/share/bash-completion/completions/"
                   "knockboard",),
}


def group_of(command: str) -> Optional[str]:
    """The title of the group `command` is listed in, or None."""
    for title, commands in GROUPS:
        if command in commands:
            return title
    return None
