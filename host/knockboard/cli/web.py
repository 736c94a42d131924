"""`--web [HOST:]PORT` on the commands that show a game: the game served to browsers
(`knockboard.web`) while the command runs, following the game in the store."""

import argparse
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ContextManager, Optional, TextIO, Tuple, Type

if TYPE_CHECKING:
    from ..store import GameRecord
    from ..web.serve import WebPage


def web_address(text: str) -> Tuple[str, int]:
    from ..web.address import WebAddressError, parse_web_address
    try:
        return parse_web_address(text)
    except WebAddressError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_web_argument(parser: argparse.ArgumentParser, what: str = "the game") -> None:
    from ..web.address import DEFAULT
    parser.add_argument("--web", nargs="?", const=DEFAULT, type=web_address,
                        metavar="[HOST:]PORT",
                        help=f"also show {what} live in any browser, served on PORT of this "
                             f"computer only (--web alone: {DEFAULT}); 0.0.0.0:PORT serves "
                             "the local network (a phone, a TV); read-only")


def web_serving(args: argparse.Namespace, path: Optional[Path], out: TextIO,
                game_id: Optional[int] = None, error: Type[Exception] = Exception,
                after: Optional[int] = None) -> ContextManager[Optional["WebPage"]]:
    """A context serving the game of the store at `path` while the command runs, or nothing
    without --web; `game_id`: that game, else the newest and each newer one (after the id
    `after`: a game about to start); `error`: the command's error class, raised (one line)
    when the server cannot start."""
    address = getattr(args, "web", None)
    if address is None:
        return nullcontext()
    if path is None:
        raise error("--web follows the saved game: it cannot go with --no-save")
    from ..web.serve import serving_store
    return _Started(serving_store(address, path, game_id,
                                  on_error=lambda text: print(text, file=out), after=after),
                    error)


def web_replaying(args: argparse.Namespace, record: "GameRecord", step: Callable[[], int],
                  out: TextIO,
                  error: Type[Exception] = Exception) -> ContextManager[Optional["WebPage"]]:
    """A context serving the saved `record` at the step `step()` returns (the board's or the
    window's replay), or nothing without --web."""
    if getattr(args, "web", None) is None:
        return nullcontext()
    from ..web.serve import serving_replay
    return _Started(serving_replay(args.web, record, step), error)


def announce(page: Optional["WebPage"], out: TextIO) -> None:
    """Say where the page is (`page`: what the web context gave, None without --web): once
    the command is sure to go on, so that a command refused prints nothing on stdout."""
    if page is not None:
        page.announce(out)


class _Started:
    """`serving_store`'s context, whose start-up error becomes the command's one line."""

    def __init__(self, context: ContextManager["WebPage"], error: Type[Exception]) -> None:
        self.context = context
        self.error = error

    def __enter__(self) -> "WebPage":
        from ..web.serve import WebStartError
        try:
            return self.context.__enter__()
        except WebStartError as err:
            raise self.error(str(err)) from None

    def __exit__(self, *exc: Any) -> Optional[bool]:
        return self.context.__exit__(*exc)
