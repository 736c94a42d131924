"""`knockboard rules GAME`: how to win and what a turn is, in one screen, read from the
game's rules page (docs/rules/GAME.md, its section "At the table"), so the words at the
table and the rules as implemented are one text."""

import argparse
import re
import sys
from typing import Optional, TextIO

from .args import SubParsers, add_game_argument

SECTION = "## At the table"
SCREEN_LINES = 24          # a terminal's screen: the section must fit it (tests check)


def rules_text(game: str) -> str:
    """The section's text without its heading, Markdown's ** and ` taken out."""
    from ..resources import rules_page
    page = rules_page(game)
    start = page.index("\n" + SECTION)
    body = page[page.index("\n", start + 1) + 1:]
    end = body.find("\n## ")
    body = body[:end if end >= 0 else len(body)].strip("\n")
    return re.sub(r"\*\*|`", "", body)


def cmd_rules(args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    from ..games import get_game
    out = out or sys.stdout
    title = get_game(args.game).title
    print(f"{title} in short (all its rules and rulings: docs/rules/{args.game}.md)\n",
          file=out)
    print(rules_text(args.game), file=out)
    return 0


def add_rules_command(sub: SubParsers) -> None:
    rules = sub.add_parser("rules", help="how to win a game and what a turn is, in one "
                                         "screen",
                           description="Print GAME's goal, a turn and who starts, as "
                                       "played on the board.")
    add_game_argument(rules)
    rules.set_defaults(func=cmd_rules)
