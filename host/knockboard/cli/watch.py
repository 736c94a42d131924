"""`knockboard watch URL`: follow a remote game as a spectator, in the terminal."""

import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from .args import add_broker_credentials, add_db_argument
from .play import PlayCommandError
from .records import open_store
from .web import add_web_argument, web_serving


def add_watch_command(sub):
    watch = sub.add_parser(
        "watch", help="follow a remote game as a spectator",
        description="Join a room of remote play as a spectator (a broker user that may only "
                    "read the room), read the game so far and follow it to its end, an "
                    "entry a line; every move is checked with this computer's own engine "
                    "and every die against its commitments.")
    watch.add_argument("url", metavar="URL", help="the room, mqtt[s]://[USER@]HOST[:PORT]/ROOM")
    add_broker_credentials(watch)
    add_db_argument(watch, help="also keep the game watched in this game database, where "
                                "`knockboard view` follows it live in the game view window "
                                "(default: not kept)")
    add_web_argument(watch, "the game watched (kept in --db, else in a temporary file)")
    watch.set_defaults(func=cmd_watch)


class _Kept:
    """The watched game, kept in a game database as it is shown (its seats all remote)."""

    def __init__(self, store):
        self.store, self.game_id = store, None

    def setup(self, game):
        from ..session.seats import REMOTE
        from ..store import GameRecord
        self.game_id = self.store.new_game(GameRecord.seated(
            game.game_name, game.options, [REMOTE] * game.players, None, game.physical))

    def entry(self, ply, text):
        self.store.append(self.game_id, ply, text)

    def end(self, result, stopped):
        if stopped is None:
            self.store.finish(self.game_id, f"watched: {result}")
        else:
            self.store.finish(self.game_id, stopped, status="abandoned")


def cmd_watch(args, out=None):
    """0 once the game is over, 1 if it stopped (a cheat, a forfeit), 2 if the room could not
    be watched."""
    from ..remote import AddressError, parse_address, read_password
    out = out or sys.stdout
    try:
        address = parse_address(args.url)
        password = read_password(address, args.password_file)
    except AddressError as err:
        raise PlayCommandError(str(err)) from None
    with ExitStack() as cleanup:
        store = _watched_store(args, cleanup)
        return _watch(args, address, password, store, out, cleanup)


def _watched_store(args, cleanup):
    """The database the game watched is kept in: --db's, a temporary one for --web alone
    (the page follows the game there), else none."""
    from ..store import GameStore
    if getattr(args, "db", None) is not None:
        store = open_store(args)
    elif getattr(args, "web", None) is not None:
        folder = cleanup.enter_context(tempfile.TemporaryDirectory(prefix="knockboard-watch-"))
        store = GameStore(Path(folder) / "watched.sqlite3")
    else:
        return None
    cleanup.callback(store.close)
    return store


def _watch(args, address, password, store, out, cleanup):
    from ..remote import RoomError
    from ..remote.link import CONNECT_POLL_S, CONNECT_WAIT_S
    from ..remote.room import Room
    from ..remote.watch import WatchError, watch_game
    if store is not None:
        cleanup.enter_context(web_serving(args, store.path, out, error=PlayCommandError,
                                          after=store.newest()))
    room = Room(address, password, [], ca_file=args.ca_file,
                log=lambda line: print(line, file=sys.stderr))
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
        try:
            game = watch_game(room, out, log=lambda line: print(line, file=sys.stderr),
                              record=None if store is None else _Kept(store))
        except (WatchError, RoomError) as err:
            raise PlayCommandError(str(err)) from None
    finally:
        room.close()
    return 1 if game.stopped else 0
