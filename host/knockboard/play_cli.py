"""`knockboard play GAME`: play on a board (a real one, a pty, or the simulator)."""

import importlib.util
import sys
import threading

from .cli_args import db_file, game_id, positive_int, seed
from .games import GameError, game_names, get_game
from .records_cli import open_store, replayed, stored_record


# how long a closed window waits for the session thread to stop before the store is closed
SESSION_STOP_SECONDS = 5.0


class PlayCommandError(Exception):
    """Shown by the CLI as one line, exit status 2."""


def add_play_command(sub, parse_options):
    play = sub.add_parser(
        "play", help="play a game on the board (or on the simulator)",
        description="Play GAME on a Knockboard: the board lights the legal moves, shows "
                    "knock chains and dice, and runs the computer players; MENU on the "
                    "board starts new games, changes seats, undoes moves. See "
                    "docs/playing.md.")
    play.add_argument("game", choices=game_names(), metavar="GAME",
                      help="one of: " + ", ".join(game_names()))
    where = play.add_mutually_exclusive_group()
    where.add_argument("--port", help="the board's serial port (a pty of the simulator "
                                      "too); default: the one connected board")
    where.add_argument("--sim", action="store_true",
                       help="play on the simulator, started in this process")
    play.add_argument("--players", type=positive_int, metavar="N",
                      help="number of players (K.O. and Knock-Off: 2-4)")
    play.add_argument("--bots", metavar="SEATS", default="",
                      help="seats the computer plays: 2, 2,3, 2=random, all (default none)")
    play.add_argument("--seed", type=seed, default=None, help="dice and computer seed")
    play.add_argument("--physical-dice", action="store_true",
                      help="roll real dice and enter the values on the board")
    play.add_argument("--option", action="append", metavar="KEY=VALUE",
                      help="a game option, e.g. setup=quick (repeatable)")
    _add_store_arguments(play)
    play.add_argument("--no-save", action="store_true", help="do not save this game")
    play.set_defaults(func=lambda args: cmd_play(args, parse_options))

    resume = sub.add_parser(
        "resume", help="go on with a saved game on the board",
        description="Continue the last unfinished saved game (or game ID) on the board: "
                    "the LEDs first show where the pieces must stand; OK goes on.")
    resume.add_argument("id", nargs="?", type=game_id, metavar="ID")
    _add_board_arguments(resume)
    _add_store_arguments(resume)
    resume.set_defaults(func=cmd_resume)

    replay = sub.add_parser(
        "replay", help="step through a saved game on the board",
        description="Show a saved game on the board step by step: OK forward, BACK back, "
                    "MENU ends.")
    replay.add_argument("id", type=game_id, metavar="ID")
    _add_board_arguments(replay)
    _add_store_arguments(replay)
    replay.set_defaults(func=cmd_replay)


def _add_board_arguments(parser):
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--port", help="the board's serial port (default: the one "
                                      "connected board)")
    where.add_argument("--sim", action="store_true", help="use the simulator instead")


def _add_store_arguments(parser):
    parser.add_argument("--db", type=db_file, metavar="FILE",
                        help="game database (default: $KNOCKBOARD_DB, else the user data "
                             "folder)")




def make_setup(args, parse_options):
    from .session import SeatError, Setup, parse_bots
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
    return Setup(args.game, options, seats, args.physical_dice, args.seed)


def cmd_play(args, parse_options, out=None):
    from .session import RecordSaver, Session
    out = out or sys.stdout
    setup = make_setup(args, parse_options)
    store = None if args.no_save else open_store(args)
    saver = RecordSaver(store) if store else None

    def session(board):
        return Session(board, setup, out=out, saver=saver)
    try:
        return _run_on_board(args, setup.game, setup.seed, session, out)
    finally:
        if saver and saver.game_id:
            print(f"knockboard: saved as game {saver.game_id} in {store.path}", file=out)
        if store:
            store.close()


def cmd_resume(args, out=None):
    from .session import RecordSaver, Session, Setup
    out = out or sys.stdout
    with open_store(args) as store:
        game_id = args.id if args.id is not None else store.last_unfinished()
        if game_id is None:
            raise PlayCommandError(f"resume: no unfinished game in {store.path}")
        record = stored_record(store, game_id)
        if record.status != "playing":
            raise PlayCommandError(f"resume: game {game_id} is {record.status} "
                                   f"({record.result or 'no result'}); nothing to resume")
        replayed(record)
        seats = [p.get("bot") or "human" for p in record.players]
        setup = Setup(record.game, dict(record.options), seats,
                      record.dice == "physical", record.seed)
        saver = RecordSaver(store, game_id)

        def session(board):
            # said once the board answers: a resume refused for want of a board prints
            # its one line on stderr and nothing else
            print(f"knockboard: resuming game {game_id} ({record.game}) after "
                  f"{len(record.actions)} actions", file=out)
            return Session(board, setup, out=out, actions=record.actions, saver=saver,
                           resumed=True)
        return _run_on_board(args, record.game, record.seed, session, out)


def cmd_replay(args, out=None):
    from .session.replay import Replay
    out = out or sys.stdout
    with open_store(args) as store:
        record = stored_record(store, args.id)
    replayed(record)
    return _run_on_board(args, record.game, record.seed,
                         lambda board: Replay(board, record, out=out), out)


def _run_on_board(args, game, seed, make_runner, out):
    """Open the board the arguments name (a port, the one connected board, or the
    simulator) and run what `make_runner(board)` makes on it until it stops."""
    if args.sim:
        return _play_on_sim(game, seed, make_runner, out)
    _run_on_port(args.port, make_runner)
    return 0


def sim_available():
    return importlib.util.find_spec("knockboard.sim") is not None


def _play_on_sim(game, seed, make_runner, out):
    """The simulator in this process: its window when one can open, else headless behind a
    pseudo-terminal (then presses come from a script on that port's VirtualBoard)."""
    if not sim_available():
        raise PlayCommandError("play --sim: the simulator (knockboard.sim) is not part of "
                               "this installation; connect a board with --port")
    from .sim import SimError, start_pty
    window = None
    if importlib.util.find_spec("knockboard.sim.window") is not None:
        from .sim.window import display_problem, run_window
        if display_problem() is None:
            window = run_window
    if window is not None:
        return _play_in_window(window, game, seed, make_runner, out)
    try:
        port = start_pty(game, seed=seed)
    except SimError as err:
        raise PlayCommandError(f"play --sim: {err}") from None
    print(f"knockboard play: simulated {port.board.name} board on {port.path} (no window "
          "here: scripts press its cells through knockboard.sim)", file=out, flush=True)
    try:
        _run_on_port(port.path, make_runner)
    finally:
        port.close()
    return 0


def _run_on_port(path, make_runner, stop=None):
    from .device import Board, BoardError
    from .session import SessionError
    try:
        board = Board.open(path)
    except BoardError as err:
        raise PlayCommandError(f"play: {err}") from None
    try:
        make_runner(board).run(until=stop)
    except SessionError as err:
        raise PlayCommandError(f"play: {err}") from None
    finally:
        board.close()


def _play_in_window(run_window, game, seed, make_runner, out):
    stop = threading.Event()
    errors = []

    threads = []

    def host(port, window):
        def run():
            try:
                _run_on_port(port.path, make_runner, stop.is_set)
            except Exception as err:           # shown after the window closes
                errors.append(err)
        thread = threading.Thread(target=run, name="knockboard-session", daemon=True)
        threads.append(thread)
        thread.start()

    try:
        run_window(game, seed=seed, out=out, on_ready=host)
    finally:
        stop.set()
        # the caller closes the store next: let the session finish its last write first
        for thread in threads:
            thread.join(SESSION_STOP_SECONDS)
    if errors:
        raise PlayCommandError(f"play --sim: {errors[0]}")
    return 0
