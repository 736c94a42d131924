"""`knockboard play GAME`: play on a board (a real one, a pty, or the simulator)."""

import importlib.util
import sys
import threading

from .games import GameError, game_names, get_game


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
    play.add_argument("--players", type=int, metavar="N",
                      help="number of players (K.O. and Knock-Off: 2-4)")
    play.add_argument("--bots", metavar="SEATS", default="",
                      help="seats the computer plays: 2, 2,3, 2=random, all (default none)")
    play.add_argument("--seed", type=int, default=None, help="dice and computer seed")
    play.add_argument("--physical-dice", action="store_true",
                      help="roll real dice and enter the values on the board")
    play.add_argument("--option", action="append", metavar="KEY=VALUE",
                      help="a game option, e.g. setup=quick (repeatable)")
    play.set_defaults(func=lambda args: cmd_play(args, parse_options))


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
    from .device import BoardError
    from .session import Session, SessionError
    out = out or sys.stdout
    setup = make_setup(args, parse_options)
    if args.sim:
        return _play_on_sim(setup, out)
    from .device import Board
    try:
        board = Board.open(args.port)
    except BoardError as err:
        raise PlayCommandError(f"play: {err}") from None
    try:
        session = Session(board, setup, out=out)
        session.run()
    except SessionError as err:
        raise PlayCommandError(f"play: {err}") from None
    finally:
        board.close()
    return 0


def sim_available():
    return importlib.util.find_spec("knockboard.sim") is not None


def _play_on_sim(setup, out):
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
        return _play_in_window(window, setup, out)
    try:
        port = start_pty(setup.game, seed=setup.seed)
    except SimError as err:
        raise PlayCommandError(f"play --sim: {err}") from None
    print(f"knockboard play: simulated {port.board.name} board on {port.path} (no window "
          "here: scripts press its cells through knockboard.sim)", file=out, flush=True)
    try:
        _run_on_port(port.path, setup, out)
    finally:
        port.close()
    return 0


def _run_on_port(path, setup, out, stop=None):
    from .device import Board, BoardError
    from .session import Session, SessionError
    try:
        board = Board.open(path)
    except BoardError as err:
        raise PlayCommandError(f"play: {err}") from None
    try:
        session = Session(board, setup, out=out)
        session.run(until=stop)
    except SessionError as err:
        raise PlayCommandError(f"play: {err}") from None
    finally:
        board.close()


def _play_in_window(run_window, setup, out):
    stop = threading.Event()
    errors = []

    def host(port, window):
        def run():
            try:
                _run_on_port(port.path, setup, out, stop.is_set)
            except Exception as err:           # shown after the window closes
                errors.append(err)
        threading.Thread(target=run, name="knockboard-session", daemon=True).start()

    try:
        run_window(setup.game, seed=setup.seed, out=out, on_ready=host)
    finally:
        stop.set()
    if errors:
        raise PlayCommandError(f"play --sim: {errors[0]}")
    return 0
