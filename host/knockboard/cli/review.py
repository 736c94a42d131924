"""`knockboard review ID | --last`: a saved game's moves and rolls valued, how much was skill
and how much the dice (the review package, host/knockboard/review/)."""

import argparse
import sys
from typing import Optional, TextIO

from ..review import DEFAULT_ITERATIONS, ReviewError, review_record
from ..review.estimator import GAME_ITERATIONS
from ..review.saved import save_review
from ..review.text import step_lines, summary_lines
from ..store import GameStore, default_db_path
from .args import (SubParsers, add_db_argument, add_game_id_argument, names_file, output_file,
                   positive_int, seed)
from .records import RecordsCommandError, open_store, stored_record


def cmd_review(args: argparse.Namespace, out: Optional[TextIO] = None,
               err: Optional[TextIO] = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    if (args.id is None) == (not args.last):
        raise RecordsCommandError("name one game: an ID or --last (the newest finished game)")
    reading = "finished game" if args.last else f"game {args.id}"
    with open_store(args, reading=reading) as store:
        game_id = args.id if not args.last else _newest_finished(store)
        record = stored_record(store, game_id)
    progress = _Progress(err, game_id)
    try:
        review = review_record(record, iterations=args.iterations, seed=args.seed,
                               progress=progress)
    except ReviewError as error:
        raise RecordsCommandError(f"game {game_id}: {error}") from None
    finally:
        progress.done()
    from ..gameview.chance_chart import chart_svg, seats_of
    names = seats_of(record)[0]
    if args.svg:
        chart = chart_svg(review, record)
        try:
            with open(args.svg, "w", encoding="utf-8") as f:
                f.write(chart)
        except OSError as error:
            raise RecordsCommandError(f"--svg {args.svg}: {error.strerror or error}") from None
    for line in step_lines(review, names):
        print(line, file=out)
    summary = summary_lines(review, names)
    for line in summary:
        print(line, file=out)
    try:
        save_review(default_db_path(args.db), record, review, summary)
    except OSError as error:
        # the review is printed; only `show` will not have it
        print(f"knockboard review: the summary is not kept for `show`: {error}", file=err)
    return 0


def _newest_finished(store: GameStore) -> int:
    for row in store.summaries():
        if row[4] == "finished":
            return row[0]
    raise RecordsCommandError("no finished game saved yet: nothing to review")


class _Progress:
    """"reviewing game 4: 37/120 steps" on stderr: rewritten in place on a terminal, else a
    line at each tenth of the game (a log file gets ten lines, however long the game)."""

    def __init__(self, err: TextIO, game_id: int) -> None:
        self.err = err
        self.game_id = game_id
        self.tty = getattr(err, "isatty", lambda: False)()
        self.shown = False
        self.tenth = -1

    def __call__(self, done: int, total: int) -> None:
        tenth = 10 * done // max(total, 1)
        if not self.tty and tenth == self.tenth:
            return
        self.tenth = tenth
        end = "\r" if self.tty else "\n"
        print(f"reviewing game {self.game_id}: {done}/{total} steps", end=end,
              file=self.err, flush=True)
        self.shown = True

    def done(self) -> None:
        if self.tty and self.shown:
            print(file=self.err)


def add_review_command(sub: SubParsers) -> None:
    review = sub.add_parser(
        "review", help="a saved game move by move: each move's error, each roll's luck",
        description="Value every move of a finished saved game against the best move the "
                    "analysis finds (its error: inaccuracy, mistake, blunder) and every roll "
                    "against the rolls that could have come (its luck), with a summary per "
                    "player; `knockboard show` then prints the summary. Progress on stderr.")
    add_game_id_argument(review, nargs="?")
    review.add_argument("--last", action="store_true",
                        help="the newest finished game instead of an ID")
    review.add_argument("--iterations", type=positive_int, default=None, metavar="N",
                        help="the search's iterations a position (default "
                        f"{DEFAULT_ITERATIONS}, Dodgeball {GAME_ITERATIONS['dodgeball']}; "
                        "Knock-Off values whole turns, K.O. too but for its set-up)")
    review.add_argument("--seed", type=seed, default=0, metavar="S",
                        help="the search's seed (default 0): the same seed, the same review")
    names_file(review.add_argument("--svg", type=output_file, metavar="FILE",
                                   help="also draw the chance to win across the game into "
                                        "FILE, an SVG picture: a line per player, blunders "
                                        "and the luckiest rolls marked"))
    add_db_argument(review)
    review.set_defaults(func=cmd_review)
