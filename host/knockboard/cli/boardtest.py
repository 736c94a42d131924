"""`knockboard boardtest`: the guided board test on a board (or the simulator), for a maker
who has just built one (docs/build.md, "Board test")."""

import argparse
import sys
from typing import TYPE_CHECKING, List, Optional, TextIO

from ..layouts import layout_names
from .args import SubParsers, add_board_argument
from .play import PlayCommandError, _run_on_board

if TYPE_CHECKING:
    from ..boardtest.runner import Runner
    from ..device import Board


def cmd_boardtest(args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    from ..boardtest import BoardTest, Wiring
    from ..boardtest.runner import Runner
    out = out or sys.stdout
    runners: List["Runner"] = []

    def runner(board: "Board") -> "Runner":
        info = getattr(board, "info", None)
        if info is not None and info.board != args.board:
            raise PlayCommandError(f"the connected board is a {info.board!r} "
                                   f"board, not {args.board!r} (install its firmware, or "
                                   f"give --board {info.board})")
        runners.append(Runner(board, BoardTest(Wiring.of(args.board)), out=out))
        return runners[-1]
    _run_on_board(args, args.board, None, runner, out)
    findings = runners[-1].findings if runners else None
    return 0 if findings == [] else 1


def add_boardtest_command(sub: SubParsers) -> None:
    names = layout_names()
    p = sub.add_parser(
        "boardtest", help="the guided board test: each cell lit in turn, its key awaited, "
                          "faults named",
        description="Lights each cell in turn and waits for its key: press the lit cell's "
                    "key; BACK when the cell shows no light (then press its key anyway); "
                    "MENU when its key does nothing; OK ends the test. Then names what is "
                    "wrong: LEDs and where the chain stops, keys answering at another "
                    "cell, keys that never answer, two cells answering one press, stuck "
                    "keys. Exit status 0 when nothing is wrong, 1 when faults were found.")
    add_board_argument(p, names, required=True,
                       help="the cell board: one of " + ", ".join(names))
    where = p.add_mutually_exclusive_group()
    where.add_argument("--port", help="the board's serial port (default: the one "
                                      "connected board)")
    where.add_argument("--sim", action="store_true",
                       help="test the simulator's board (in its window)")
    p.set_defaults(func=cmd_boardtest)
