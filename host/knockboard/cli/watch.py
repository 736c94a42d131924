"""`knockboard watch URL`: follow a remote game as a spectator, in the terminal and, with
`--view`, in the game view window, with `--web` in a browser."""

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional, TextIO

from .args import SubParsers, add_broker_credentials, add_db_argument
from .play import PlayCommandError
from .records import open_store
from .web import add_web_argument, announce, web_serving

if TYPE_CHECKING:
    from ..remote.address import RoomAddress
    from ..remote.game import RemoteGame
    from ..remote.room import Room
    from ..store import GameStore
    from ..web.serve import WebPage


def add_watch_command(sub: SubParsers) -> None:
    watch = sub.add_parser(
        "watch", help="follow a remote game as a spectator",
        description="Join a room of remote play as a spectator (a broker user that may only "
                    "read the room), read the game so far and follow it to its end, an "
                    "entry a line (with --view, also in the game view window); every move "
                    "is checked with this computer's own engine and every die against its "
                    "commitments.")
    watch.add_argument("url", metavar="URL", help="the room, mqtt[s]://[USER@]HOST[:PORT]/ROOM")
    add_broker_credentials(watch)
    add_db_argument(watch, help="also keep the game watched in this game database, where "
                                "`knockboard view` follows it live in the game view window "
                                "(default: not kept)")
    watch.add_argument("--view", action="store_true",
                       help="also show the game in the game view window as it is read: the "
                            "pieces as players see them, dice, scores, moves")
    add_web_argument(watch, "the game watched")
    watch.set_defaults(func=cmd_watch)


class _Kept:
    """The watched game, kept in a game database as it is shown (its seats all remote)."""

    game_id: Optional[int]

    def __init__(self, store: "GameStore") -> None:
        self.store, self.game_id = store, None

    def setup(self, game: "RemoteGame") -> None:
        from ..session.seats import REMOTE
        from ..store import GameRecord
        self.game_id = self.store.new_game(GameRecord.seated(
            game.game_name, game.options, [REMOTE] * game.players, None, game.physical))

    # entry and end come after setup (remote/watch.py), so the game has its id by then
    def entry(self, ply: int, text: str) -> None:
        self.store.append(self.game_id, ply, text)  # type: ignore[arg-type]

    def end(self, result: Optional[str], stopped: Optional[str]) -> None:
        if stopped is None:
            self.store.finish(self.game_id, f"watched: {result}")  # type: ignore[arg-type]
        else:
            self.store.finish(self.game_id, stopped,  # type: ignore[arg-type]
                              status="abandoned")


class WatchThread(threading.Thread):
    """The watch in a thread of its own, beside the game view window (Tk owns the main
    thread): `stop` ends it; `error` says what ended it before the game could be shown."""

    def __init__(self, room: "Room", out: TextIO, kept: _Kept,
                 log: Callable[[str], None]) -> None:
        super().__init__(name="knockboard-watch", daemon=True)
        self.room, self.out, self.kept, self.log = room, out, kept, log
        self.stop = threading.Event()
        self.game: Optional["RemoteGame"] = None
        self.error: Optional[str] = None

    @property
    def game_id(self) -> Optional[int]:
        """The watched game's id in the store, once the room's game is known."""
        return self.kept.game_id

    def run(self) -> None:
        from ..remote import RoomError
        from ..remote.watch import WatchError, watch_game
        try:
            self.game = watch_game(self.room, self.out, log=self.log, record=self.kept,
                                   until=self.stop.is_set)
        except (WatchError, RoomError) as err:
            self.error = str(err)
        except Exception as err:        # noqa: BLE001 - said, and the window closes
            self.error = f"the watch failed: {type(err).__name__}: {err}"


def cmd_watch(args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    """0 once the game is over (or its window closed), 1 if it stopped (a cheat, a
    forfeit), 2 if the room could not be watched."""
    from ..remote import AddressError, parse_address
    out = out or sys.stdout
    try:
        address = parse_address(args.url)
    except AddressError as err:
        raise PlayCommandError(str(err)) from None
    if getattr(args, "view", False):
        from .play import _need_display
        _need_display("watch --view")
    if getattr(args, "db", None) is None and (getattr(args, "view", False)
                                              or getattr(args, "web", None) is not None):
        # the window and the page follow the game through a database
        with tempfile.TemporaryDirectory(prefix="knockboard-watch-") as folder:
            args.db = str(Path(folder) / "watched.sqlite3")
            return _watch(args, address, out)
    return _watch(args, address, out)


def _watch(args: argparse.Namespace, address: "RoomAddress", out: TextIO) -> int:
    from ..remote import AddressError, read_password
    try:
        password = read_password(address, args.password_file)
    except AddressError as err:
        raise PlayCommandError(str(err)) from None
    store = None if getattr(args, "db", None) is None else open_store(args)
    try:
        # the page waits for the game watched, not one kept before it
        with web_serving(args, None if store is None else store.path, out,
                         error=PlayCommandError,
                         after=None if store is None else store.newest()) as page:
            return _watch_room(args, address, password, store, out, page)
    finally:
        if store is not None:
            store.close()


def _watch_room(args: argparse.Namespace, address: "RoomAddress", password: Optional[str],
                store: Optional["GameStore"], out: TextIO, page: Optional["WebPage"]) -> int:
    from ..remote import RoomError
    from ..remote.link import CONNECT_POLL_S, CONNECT_WAIT_S
    from ..remote.room import Room
    from ..remote.watch import WatchError, watch_game
    room = Room(address, password, [], ca_file=args.ca_file, log=log)
    room.start()
    try:
        for _ in range(int(CONNECT_WAIT_S / CONNECT_POLL_S) + 1):
            if room.connected or room.error:
                break
            time.sleep(CONNECT_POLL_S)
        if not room.connected:
            raise PlayCommandError(room.error or f"no answer from the broker at "
                                   f"{address.host}:{address.port} within "
                                   f"{CONNECT_WAIT_S:g} s")
        announce(page, out)
        if getattr(args, "view", False):
            # --view always has a store: cmd_watch makes a passing one without --db
            game = _watch_in_window(room, out, _Kept(store),  # type: ignore[arg-type]
                                    store.path, log)  # type: ignore[union-attr]
        else:
            try:
                game = watch_game(room, out, log=log,
                                  record=None if store is None else _Kept(store))
            except (WatchError, RoomError) as err:
                raise PlayCommandError(str(err)) from None
    finally:
        room.close()
    return 1 if game is not None and game.stopped else 0


def log(line: str) -> None:
    print(line, file=sys.stderr)


def _watch_in_window(room: "Room", out: TextIO, kept: _Kept, path: Path,
                     log: Callable[[str], None]) -> Optional["RemoteGame"]:
    """The watch in a thread, the game view window following it in this one until it is
    closed (the game over, it stays open on the last position)."""
    import tkinter as tk

    from ..gameview.window import follow_watched
    watched = WatchThread(room, out, kept, log)
    root = tk.Tk()
    follower = follow_watched(root, path, watched, on_error=log)
    watched.start()
    try:
        root.mainloop()
    finally:
        watched.stop.set()
        watched.join(10)
        follower.close()
    if watched.error is not None:
        raise PlayCommandError(watched.error)
    return watched.game
