"""`knockboard play GAME`: play on a board (a real one, a pty, or the simulator)."""

import argparse
import importlib.util
import sys
import threading
from pathlib import Path
from typing import (TYPE_CHECKING, Any, Callable, Dict, List, Optional, Protocol, Sequence, Set,
                    TextIO, Union)

from ..games import MAX_ROUNDS, GameError, get_game
from .args import (SubParsers, add_broker_credentials, add_db_argument, add_game_argument,
                   add_game_id_argument, names_file, positive_int, seed, seconds, whole_number)
from .records import open_store, replayed, stored_record
from .web import add_web_argument, announce, web_replaying, web_serving

if TYPE_CHECKING:
    import tkinter as tk

    from ..device import Board
    from ..gameview.follower import StoreFollower
    from ..remote.address import RoomAddress
    from ..remote.link import RemoteLink
    from ..session import RecordSaver, Session, Setup
    from ..session.replay import Replay
    from ..sim.pty import PtyPort
    from ..sim.window import SimWindow
    from ..store import GameRecord, GameStore
    from ..web.serve import WebPage


# how long a closed window waits for the session thread to stop before the store is closed
SESSION_STOP_SECONDS = 5.0
VIEW_FIT_PX = 560         # the game view's board beside the simulator, at most ...
VIEW_MIN_FIT_PX = 320     # ... and at least (a small screen: the view may then overlap)
VIEW_GAP_PX = 8           # between the simulator's window and the view's
VIEW_PLACE_MS = 500       # the view is placed again then, beside the simulator as it is
SESSION_WATCH_MS = 200    # how often the window looks whether the session has ended


# what --option's KEY=VALUE words become (args.parse_options)
OptionsParser = Callable[[Optional[List[str]]], Dict[str, Union[int, str]]]


class _Runs(Protocol):
    """What runs on a board until it stops (a session, a replay, the board test)."""

    def run(self, until: Optional[Callable[[], bool]] = None) -> object: ...


# what runs on the board a command opens, made once the board is open
MakeRunner = Callable[["Board"], _Runs]


class PlayCommandError(Exception):
    """Shown by the CLI as one line, exit status 2."""


def add_play_command(sub: SubParsers, parse_options: OptionsParser) -> None:
    play = sub.add_parser(
        "play", help="play a game on the board (or on the simulator)",
        description="Play GAME on a Knockboard: the board lights the legal moves, shows "
                    "knock chains and dice, and runs the computer players; MENU on the "
                    "board starts new games, changes seats, undoes moves. Without a board, "
                    "--sim plays on the simulator's window.")
    add_game_argument(play)
    where = play.add_mutually_exclusive_group()
    names_file(where.add_argument("--port", help="the board's serial port (a pty of the "
                                                 "simulator too); default: the one "
                                                 "connected board"))
    where.add_argument("--sim", action="store_true",
                       help="play on the simulator, started in this process")
    play.add_argument("--players", type=positive_int, metavar="N",
                      help="number of players (K.O. and Knock-Off: 2-4)")
    play.add_argument("--bots", metavar="SEATS", default="",
                      help="seats the computer plays: 2, 2,3, all (default none), each at a "
                           "level, 2=easy, 2=fair (the default), 2=hard, or as a bot, "
                           "2=random, 2=greedy, 2=strong; all=hard: every seat")
    play.add_argument("--names", type=player_names, metavar="NAMES", default=[],
                      help="the players' names by seat, e.g. Ann,Ben (saved with the game, "
                           "shown in the terminal, show and history)")
    play.add_argument("--seed", type=seed, default=None, help="dice and computer seed")
    play.add_argument("--rounds", type=whole_number(1, MAX_ROUNDS, "a number of rounds"),
                      default=1, metavar="N",
                      help="K.O.: a match of N rounds whose points are added (default 1)")
    play.add_argument("--physical-dice", action="store_true",
                      help="roll real dice and enter the values on the board")
    play.add_argument("--option", action="append", metavar="KEY=VALUE",
                      help="a game option, e.g. setup=quick (repeatable)")
    add_db_argument(play)
    play.add_argument("--no-save", action="store_true", help="do not save this game")
    play.add_argument("--pace", type=seconds(0, 60), default=None, metavar="SECONDS",
                      help="each step the players make by hand (a computer's move, a knock "
                           "chain) stays shown this long, then goes on as if OK were pressed: "
                           "computers alone (--bots all) then play by themselves (default: "
                           "wait for OK or the pieces moved)")
    _add_view_argument(play)
    add_web_argument(play)
    _add_remote_arguments(play)
    play.set_defaults(func=lambda args: cmd_play(args, parse_options))

    resume = sub.add_parser(
        "resume", help="go on with a saved game on the board",
        description="Continue the last unfinished saved game (or game ID) on the board: "
                    "the LEDs first show where the pieces must stand; OK goes on.")
    add_game_id_argument(resume, nargs="?")
    _add_board_arguments(resume)
    add_db_argument(resume)
    _add_view_argument(resume)
    add_web_argument(resume)
    _add_remote_arguments(resume)
    resume.set_defaults(func=cmd_resume)

    replay = sub.add_parser(
        "replay", help="step through a saved game on the board",
        description="Show a saved game on the board step by step: OK forward, BACK back, "
                    "MENU ends.")
    add_game_id_argument(replay)
    _add_board_arguments(replay)
    add_db_argument(replay)
    replay.add_argument("--view", action="store_true",
                        help="step through the game in the game view window instead of on "
                             "a board (Right/Left, Home/End)")
    add_web_argument(replay, "the step shown")
    replay.set_defaults(func=cmd_replay)

    view = sub.add_parser(
        "view", help="the game view window, following a saved game live",
        description="Draw a saved game as players see it (pieces, dice, scores, moves) and "
                    "follow it as it is played: game ID, or else the newest game and each "
                    "one started after it. Run it beside `knockboard play` on a real board.")
    add_game_id_argument(view, nargs="?")
    add_db_argument(view)
    add_web_argument(view, "the game (instead of the window: no display needed)")
    view.set_defaults(func=cmd_view)


def _add_remote_arguments(parser: argparse.ArgumentParser) -> None:
    remote = parser.add_argument_group("remote play (boards in other homes, through an MQTT "
                                        "broker)")
    remote.add_argument("--remote", metavar="URL",
                        help="play with boards in other homes through the room "
                             "mqtt[s]://[USER@]HOST[:PORT]/ROOM")
    remote.add_argument("--seat", metavar="N",
                        help="the seats played at this board: 1, or 2,3 (with --remote)")
    add_broker_credentials(remote)
    remote.add_argument("--reveal-timeout", type=REVEAL_TIMEOUT, metavar="SECONDS",
                        help="a seat online that keeps back its dice reveal this long "
                             "forfeits (default 120)")
    remote.add_argument("--away-timeout", type=REVEAL_TIMEOUT, metavar="SECONDS",
                        help="a seat away (offline, or saying so) while the game waits "
                             "for its dice forfeits after this long (default 1800)")


# a withheld reveal: from a second (tests) to a day
REVEAL_TIMEOUT = seconds(1, 86400)
REMOTE_ONLY = ("seat", "password_file", "ca_file", "reveal_timeout", "away_timeout")


def _remote_seats(args: argparse.Namespace, players: int) -> Set[int]:
    """--seat text -> the 0-based seats of this board; PlayCommandError if bad."""
    seats: Set[int] = set()
    for part in (args.seat or "").split(","):
        part = part.strip()
        if not (part.isascii() and part.isdigit() and 1 <= int(part) <= players):
            raise PlayCommandError(f"--seat {args.seat!r}: seats are numbers 1..{players}"
                                   ", e.g. 2 or 2,3")
        seats.add(int(part) - 1)
    if len(seats) == players:
        raise PlayCommandError(f"--seat {args.seat!r}: every seat at this board leaves "
                               "nobody to play remotely")
    return seats


def _remote_link(args: argparse.Namespace, setup: "Setup", store: Optional["GameStore"],
                 out: TextIO,
                 actions: Sequence[str] = (), fresh: bool = True,
                 game_id: Callable[[], Optional[int]] = lambda: None) -> Optional["RemoteLink"]:
    """The room this board plays in (--remote), its seats marked in `setup`, or None;
    `game_id()`: the saved game's id once it has one (a stopped remote game is ended)."""
    if getattr(args, "remote", None) is None:      # (the demo has no remote arguments)
        if any(getattr(args, name, None) for name in REMOTE_ONLY):
            raise PlayCommandError("--seat, --password-file, --ca-file, --reveal-timeout and "
                                   "--away-timeout go with --remote")
        return None
    from ..remote import AddressError, parse_address
    from ..session.seats import HUMAN, REMOTE
    try:
        address = parse_address(args.remote)
    except AddressError as err:
        raise PlayCommandError(f"--remote {err}") from None
    if args.seat is None:
        raise PlayCommandError("--remote needs --seat N: the seats played at this board")
    seats = _remote_seats(args, setup.players)
    for seat, kind in enumerate(setup.seats):
        if seat not in seats and kind not in (HUMAN, REMOTE):
            raise PlayCommandError(f"--bots: seat {seat + 1} is played at another board")
        if seat not in seats:
            setup.seats[seat] = REMOTE
    return _open_room(args, address, seats, setup, store, out, actions, fresh, game_id)


def _open_room(args: argparse.Namespace, address: "RoomAddress", seats: Set[int], setup: "Setup",
               store: Optional["GameStore"], out: TextIO, actions: Sequence[str] = (),
               fresh: bool = True,
               game_id: Callable[[], Optional[int]] = lambda: None) -> "RemoteLink":
    """Ask for the password (if no file or environment gives it) and join the room."""
    from ..remote import AddressError, MemoryKeys, RoomError, RoomKeys, read_password
    from ..remote.journal import StoreJournal
    from ..remote.link import open_link
    if store is not None and not fresh and store.room_stop(address.room):
        raise PlayCommandError(f"resume: the game in room {address.room} stopped: "
                               f"{store.room_stop(address.room)}; nothing to resume")
    try:
        password = read_password(address, args.password_file)
        keys = MemoryKeys() if store is None else \
            RoomKeys(str(store.path) + ".rooms", address.room, fresh=fresh)
        journal = None if store is None else \
            StoreJournal(store, address.room, fresh=fresh, game_id=game_id)
        return open_link(address, password, seats, setup.game, setup.options, keys,
                         physical_dice=setup.physical_dice, ca_file=args.ca_file,
                         actions=actions, journal=journal,
                         reveal_timeout=args.reveal_timeout,
                         away_timeout=args.away_timeout,
                         log=lambda line: print(line, file=out, flush=True))
    except (AddressError, RoomError, OSError, ValueError) as err:
        raise PlayCommandError(f"--remote: {err}") from None


def _add_board_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    names_file(where.add_argument("--port", help="the board's serial port (default: the "
                                                 "one connected board)"))
    where.add_argument("--sim", action="store_true", help="use the simulator instead")


def _add_view_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--view", action="store_true",
                        help="show the game in the game view window beside the board: "
                             "the pieces as players see them, dice, scores, moves")


def _view_path(args: argparse.Namespace, store: Optional["GameStore"]) -> Optional[Path]:
    """The store the game view follows, or None without --view; refuses what cannot work
    before anything starts."""
    if not getattr(args, "view", False):
        return None
    if store is None:
        raise PlayCommandError("--view follows the saved game: it cannot go with --no-save")
    _need_display("--view")
    return store.path


def _need_display(what: str) -> None:
    from ..sim.window import display_problem
    problem = display_problem()
    if problem is not None:
        raise PlayCommandError(f"{what} needs a window: {problem}")


def make_setup(args: argparse.Namespace, parse_options: OptionsParser) -> "Setup":
    from ..session import SeatError, Setup, parse_bots
    options = parse_options(args.option)
    if args.players is not None:
        options["players"] = args.players
    try:
        players = get_game(args.game, **options).num_players
        seats = parse_bots(args.bots, players)
    except SeatError as err:
        raise PlayCommandError(str(err)) from None
    except GameError as err:
        if args.players is not None and "players" in str(err):
            raise PlayCommandError(f"--players {args.players}: {err}") from None
        raise
    names = getattr(args, "names", [])      # (the demo has no names)
    if len(names) > players:
        raise PlayCommandError(f"--names {','.join(names)}: {len(names)} names for "
                               f"{players} players")
    from ..session.adapters import get_ui
    from ..session.names import names_error
    ui = get_ui(get_game(args.game, **options))
    clash = names_error(names, [ui.colour_name(seat) for seat in range(players)])
    if clash is not None:
        raise PlayCommandError(f"--names {','.join(names)}: {clash}")
    try:
        return Setup(args.game, options, seats, args.physical_dice, args.seed, args.rounds,
                     names)
    except GameError as err:                # the only check left: the rounds
        raise PlayCommandError(f"--rounds {args.rounds}: {err}") from None


def player_names(text: str) -> List[str]:
    """--names "Ann,Ben": the players' names by seat; a seat left empty ("Ann,,Cy") has
    none. Refused: no name at all, a name the board's screen cannot show whole
    (session/names.py)."""
    import argparse
    from ..session.names import name_error
    names = [part.strip() for part in text.split(",")]
    if not any(names):
        raise argparse.ArgumentTypeError(f"{text!r}: no name in it (names by seat: Ann,Ben)")
    for name in names:
        error = name_error(name)
        if error is not None:
            raise argparse.ArgumentTypeError(error)
    return names


def cmd_play(args: argparse.Namespace, parse_options: OptionsParser,
             out: Optional[TextIO] = None) -> int:
    return play_setup(make_setup(args, parse_options), args, out or sys.stdout,
                      pace=args.pace)


def play_setup(setup: "Setup", args: argparse.Namespace, out: TextIO,
               pace: Optional[float] = None) -> int:
    """Play a new game of `setup` on the board the arguments name (--port, --sim), saved in
    the store unless --no-save; `pace`: see `Session` (the demo's computers go on by
    themselves)."""
    from ..session import RecordSaver, Session
    if setup.rounds > 1 and getattr(args, "remote", None) is not None:
        raise PlayCommandError(f"--rounds {setup.rounds}: a match is played at one board; "
                               "a remote game is one game")
    store = None if args.no_save else open_store(args)
    saver = RecordSaver(store) if store else None
    link = None
    pages: List[Optional["WebPage"]] = []

    def session(board: "Board") -> "Session":
        for page in pages:
            announce(page, out)
        return Session(board, setup, out=out, saver=saver, pace=pace, remote=link)
    try:
        link = _remote_link(args, setup, store, out,
                            game_id=lambda: saver.game_id if saver else None)
        # the page waits for this game, not the one saved before it
        with web_serving(args, None if store is None else store.path, out,
                         error=PlayCommandError,
                         after=None if store is None else store.newest()) as page:
            pages.append(page)
            return _run_on_board(args, setup.game, setup.seed, session, out,
                                 view=_view_path(args, store))
    finally:
        if link is not None:
            link.close()
        if saver and _saved_at_last(saver, out) and saver.game_id:
            # (a saver is made only with a store)
            print(f"knockboard: saved as game {saver.game_id} in "
                  f"{store.path}", file=out)  # type: ignore[union-attr]
        if saver:
            saver.close()
        if store:
            store.close()


def _saved_at_last(saver: "RecordSaver", out: TextIO) -> bool:
    """A save still failing when the session ends is tried once more; if it fails again the
    person is told, in one line, that the end of the game is not in the database."""
    if saver.error is not None:
        try:
            saver.retry()
        except Exception:               # saver.error says why
            pass
    if saver.error is None:
        return True
    print(f"knockboard: NOT SAVED: the last actions of this game are not in the database "
          f"({saver.error})", file=out)
    return False


def cmd_resume(args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    from ..session import RecordSaver, Session, Setup
    out = out or sys.stdout
    wanted = "unfinished game" if args.id is None else f"game {args.id}"
    with open_store(args, reading=wanted) as store:
        game_id = args.id if args.id is not None else store.last_unfinished()
        if game_id is None:
            raise PlayCommandError(f"resume: no unfinished game in {store.path}"
                                   f"{_last_stop(store)}")
        record = stored_record(store, game_id)
        if record.status != "playing":
            raise PlayCommandError(f"resume: game {game_id} is {record.status} "
                                   f"({record.result or 'no result'}); nothing to resume")
        replayed(record)
        seats = [p.get("bot") or "human" for p in record.players]
        setup = Setup(record.game, dict(record.options), seats,
                      record.dice == "physical", record.seed, record.rounds or 1,
                      record.names)
        saver = RecordSaver(store, game_id)     # refused if another program has it open
        link = None
        pages: List[Optional["WebPage"]] = []

        def session(board: "Board") -> "Session":
            # said once the board answers: a resume refused for want of a board prints
            # its one line on stderr and nothing else
            print(f"knockboard: resuming game {game_id} ({get_game(record.game).title}) after "
                  f"{len(record.actions)} actions", file=out)
            for page in pages:
                announce(page, out)
            return Session(board, setup, out=out, actions=record.actions, saver=saver,
                           resumed=True, remote=link)
        try:
            link = _resumed_link(args, setup, store, record, out, game_id)
            with web_serving(args, store.path, out, game_id, error=PlayCommandError) as page:
                pages.append(page)
                return _run_on_board(args, record.game, record.seed, session, out,
                                     view=_view_path(args, store))
        finally:
            if link is not None:
                link.close()
            _saved_at_last(saver, out)
            saver.close()


def _last_stop(store: "GameStore") -> str:
    """The game played last, if it was stopped (a remote game's forfeit or cheat: abandoned,
    or finished won by forfeit), in words that follow "no unfinished game"."""
    from ..store.records import FORFEIT
    newest = store.newest()
    record = None if newest is None else store.get(newest)
    if record is None or not record.result or not (
            record.status == "abandoned" or record.result.startswith(FORFEIT)):
        return ""
    return f" (game {newest}, the last, stopped: {record.result})"


def _resumed_link(args: argparse.Namespace, setup: "Setup", store: "GameStore",
                  record: "GameRecord", out: TextIO, game_id: int) -> Optional["RemoteLink"]:
    """A remote game resumed: the same seats at this board as when it was played here, the
    room's secret from the file beside the database; None for a game played at one board."""
    from ..session.seats import REMOTE
    remote_seats = {i for i, kind in enumerate(setup.seats) if kind == REMOTE}
    if args.remote is None:
        if remote_seats:
            raise PlayCommandError("resume: this game was played with other boards: give "
                                   "its --remote URL and --seat")
        return _remote_link(args, setup, None, out)     # refuses --seat etc. alone
    if not remote_seats:
        raise PlayCommandError("resume: this game was played at one board; --remote "
                               "cannot join it to a room")
    here = sorted(set(range(setup.players)) - remote_seats)
    if args.seat is not None and _remote_seats(args, setup.players) != set(here):
        raise PlayCommandError(f"--seat {args.seat}: this board played seat "
                               f"{','.join(str(s + 1) for s in here)} in this game")
    args.seat = args.seat or ",".join(str(s + 1) for s in here)
    return _remote_link(args, setup, store, out, actions=record.actions, fresh=False,
                        game_id=lambda: game_id)


def cmd_replay(args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    from ..session.replay import Replay
    out = out or sys.stdout
    if args.view and (args.port or args.sim):
        raise PlayCommandError("replay --view steps through the game in the window, not "
                               "on a board: leave out --port/--sim")
    with open_store(args, reading=f"game {args.id}") as store:
        record = stored_record(store, args.id)
        db_path = store.path
    replayed(record)
    if args.view:
        _need_display("replay --view")
    shown: List[Any] = []            # the replay (on the board or in the window) once made

    def step() -> int:
        return shown[0].step if args.view and shown else shown[0].ply if shown else 0
    with web_replaying(args, record, step, out, error=PlayCommandError) as page:
        if args.view:
            announce(page, out)
            return _replay_in_view(record, shown, db_path)

        def runner(board: "Board") -> "Replay":
            announce(page, out)
            shown[:] = [Replay(board, record, out=out)]
            return shown[0]
        return _run_on_board(args, record.game, record.seed, runner, out)


def cmd_view(args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    out = out or sys.stdout
    # without an id the window waits for a game that `play` is about to save there
    with open_store(args, reading=None if args.id is None else f"game {args.id}") as store:
        if args.id is not None:
            stored_record(store, args.id)              # a missing game: refused here
        path = store.path
    if args.web is not None:
        with web_serving(args, path, out, args.id, error=PlayCommandError) as page:
            announce(page, out)
            return _serve_until_stopped()
    _need_display("view")
    return _follow_in_window(path, args.id, out)


def _serve_until_stopped() -> int:
    """`view --web`: the server's threads do the work; this one waits for Ctrl-C."""
    stop = threading.Event()
    try:
        while not stop.wait(3600):
            pass
    except KeyboardInterrupt:
        pass
    return 0


def _follow_in_window(path: Path, game_id: Optional[int], out: TextIO) -> int:
    import tkinter as tk

    from ..gameview.window import follow
    root = tk.Tk()
    follower = follow(root, path, game_id, on_error=lambda text: print(text, file=out))
    try:
        root.mainloop()
    finally:
        follower.close()
    return 0


def _replay_in_view(record: "GameRecord", shown: List[Any], db_path: Path) -> int:
    import tkinter as tk

    from ..gameview.window import ReplayStepper, open_view
    from ..review.saved import saved_review

    _need_display("replay --view")
    root = tk.Tk()
    # the review's chance to win under the board, where `knockboard review` was run on it
    shown[:] = [ReplayStepper(open_view(root), record, saved_review(db_path, record))]
    shown[0].bind(root)
    root.mainloop()
    return 0


def _run_on_board(args: argparse.Namespace, game: str, seed: Optional[int], make_runner: MakeRunner,
                  out: TextIO, view: Optional[Path] = None) -> int:
    """Open the board the arguments name (a port, the one connected board, or the
    simulator) and run what `make_runner(board)` makes on it until it stops; with `view`
    (a store's path) the game view window follows the game beside it."""
    if args.sim:
        return _play_on_sim(game, seed, make_runner, out, view)
    if view is not None:
        return _run_beside_view(args.port, make_runner, view, out)
    _run_on_port(args.port, make_runner)
    return 0


def sim_available() -> bool:
    return importlib.util.find_spec("knockboard.sim") is not None


# how to play where the simulator's window cannot open
NO_WINDOW_WAYS = ("without one, play on a board (--port; `knockboard ports` finds it) or "
                  "serve the simulator with `knockboard sim --headless` and give --port the "
                  "port it prints; `knockboard demo --terminal` shows a game in the terminal")


def _play_on_sim(game: str, seed: Optional[int], make_runner: MakeRunner, out: TextIO,
                 view: Optional[Path] = None) -> int:
    """The simulator in this process, in its window. Where no window can open it is
    refused: a board that nothing can press would wait for ever."""
    if not sim_available():
        raise PlayCommandError("--sim: the simulator (knockboard.sim) is not part of this "
                               "installation; connect a board with --port")
    from ..sim.window import display_problem, run_window
    problem = display_problem()
    if problem is not None:
        raise PlayCommandError(f"--sim shows its board in a window, which cannot open here: "
                               f"{problem}; " + NO_WINDOW_WAYS)
    return _play_in_window(run_window, game, seed, make_runner, out, view)


def _run_on_port(path: Optional[str], make_runner: MakeRunner,
                 stop: Optional[Callable[[], bool]] = None) -> None:
    from ..device import Board, BoardError
    from ..device.board import BoardNotFound
    from ..session import SessionError
    try:
        board = Board.open(path)
    except BoardNotFound as err:
        raise PlayCommandError(f"{err}; without a board, --sim plays on the simulator") \
            from None
    except BoardError as err:
        raise PlayCommandError(str(err)) from None
    try:
        make_runner(board).run(until=stop)
    except SessionError as err:
        raise PlayCommandError(str(err)) from None
    finally:
        board.close()


class SessionThread:
    """The session in a thread beside a Tk window (Tk must own the main thread): stopped
    when the window closes, its error shown after that."""

    def __init__(self, run: Callable[[Callable[[], bool]], None]) -> None:
        self.stop = threading.Event()
        self.errors: List[Exception] = []
        self.thread = threading.Thread(target=self._run, args=(run,), name="knockboard-session",
                                       daemon=True)

    def _run(self, run: Callable[[Callable[[], bool]], None]) -> None:
        try:
            run(self.stop.is_set)
        except Exception as err:               # shown after the window closes
            self.errors.append(err)

    def start(self) -> None:
        self.thread.start()

    def finish(self, what: str) -> None:
        self.stop.set()
        # the caller closes the store next: let the session finish its last write first
        if self.thread.is_alive():
            self.thread.join(SESSION_STOP_SECONDS)
        if self.errors:
            raise PlayCommandError(f"{what}: {self.errors[0]}")


def _play_in_window(run_window: Callable[..., int], game: str, seed: Optional[int],
                    make_runner: MakeRunner, out: TextIO, view: Optional[Path] = None) -> int:
    sessions: List[SessionThread] = []
    followers: List["StoreFollower"] = []

    def host(port: "PtyPort", window: "SimWindow") -> None:
        if view is not None:
            followers.append(_view_beside(window.root, view, out))

        # the window draws the pieces from what the session sends the board (PIECES, as
        # to a simulator in another program); the session's thread never holds the window:
        # Tk's objects must be freed on Tk's thread
        session = SessionThread(lambda stop: _run_on_port(port.path, make_runner, stop))
        sessions.append(session)
        session.start()

        def close_when_done() -> None:
            # what ran on the board ended (MENU in a replay, OK in the board test, Quit in
            # the menu): the window ends with it, and so does the command
            if session.thread.is_alive():
                window.root.after(SESSION_WATCH_MS, close_when_done)
            else:
                window.close()
        close_when_done()

    try:
        from ..gameview.picture import PANEL_PX
        run_window(game, seed=seed, out=out, on_ready=host,
                   beside_px=PANEL_PX if view is not None else 0)
    finally:
        for follower in followers:
            follower.close()
        for session in sessions:
            session.finish("--sim")
    return 0


def _view_beside(root: "tk.Misc", view: Path, out: TextIO) -> "StoreFollower":
    """The game view in a window of its own right of the simulator's `root`, made small
    enough that the two fit side by side on the screen."""
    import tkinter as tk

    from ..gameview.picture import PANEL_PX
    from ..gameview.window import follow
    root.update_idletasks()
    left = root.winfo_x() + root.winfo_reqwidth() + VIEW_GAP_PX
    # room for the simulator's panel to grow a little once the host connects
    fit = max(VIEW_MIN_FIT_PX, min(VIEW_FIT_PX, root.winfo_screenwidth() - left - PANEL_PX
                                   - 3 * VIEW_GAP_PX))
    top = tk.Toplevel(root)
    top.geometry(f"+{left}+{root.winfo_y()}")

    def beside() -> None:                     # again once the simulator's window has its size
        top.geometry(f"+{root.winfo_x() + root.winfo_width() + VIEW_GAP_PX}+{root.winfo_y()}")
    root.after(VIEW_PLACE_MS, beside)
    return follow(top, view, on_error=lambda text: print(text, file=out), fit_px=fit)


def _run_beside_view(path: Optional[str], make_runner: MakeRunner, view: Path,
                     out: TextIO) -> int:
    """The session on the board at `path` in a thread; the game view window in this one,
    following the store at `view`. Closing the window ends the session; a session that ends
    closes the window."""
    import tkinter as tk

    from ..gameview.window import follow

    root = tk.Tk()
    follower = follow(root, view, on_error=lambda text: print(text, file=out))
    session = SessionThread(lambda stop: _run_on_port(path, make_runner, stop))

    def watch() -> None:
        if session.thread.is_alive():
            root.after(SESSION_WATCH_MS, watch)
        else:
            root.destroy()
    session.start()
    watch()
    try:
        root.mainloop()
    finally:
        follower.close()
        session.finish("--view")
    return 0
