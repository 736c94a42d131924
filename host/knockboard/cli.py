"""The `knockboard` command."""

import argparse
import sys
import time

from . import __version__
from .cli_args import db_file, output_file, positive_int, seconds, seed
from .games import GameError, game_names, get_game
from .play_cli import PlayCommandError, add_play_command
from .records_cli import RecordsCommandError, add_record_commands, open_store


class CliError(Exception):
    """A bad command line; main() prints it as one line and exits with status 2."""


class _Parser(argparse.ArgumentParser):
    # argparse prints usage + error and exits 2 itself; keep that but as a single line so
    # every bad input of this command reads the same way.
    def error(self, message):
        raise CliError(f"{self.prog}: {message}")


def _parse_options(pairs):
    options = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise CliError(f"--option {pair!r}: expected KEY=VALUE")
        options[key] = _convert(value)
    return options


def _convert(value):
    try:
        return int(value)
    except ValueError:
        return value


def _position_after(args):
    """The state that `--position`/`--option` and the MOVEs of `args` name."""
    game = get_game(args.game, **_parse_options(args.option))
    state = game.from_position(args.position) if args.position is not None \
        else game.analysis_start()
    for number, text in enumerate(args.moves, 1):
        try:
            state.apply_text(text)
        except GameError as err:
            raise GameError(f"move {number} {text!r}: {err}") from None
    return state


def cmd_analyze(args):
    """Apply moves to a position; print the resulting position and the legal actions."""
    state = _position_after(args)
    lines = [state.to_position()]
    lines.extend(sorted(state.legal_action_strings()))
    print("\n".join(lines))
    return 0


def cmd_hint(args):
    """The strong bot's move for the player to act, and what its search saw."""
    from .bots import StrongBot
    from .bots.heuristics import is_mixed_decision
    state = _position_after(args)
    if state.is_terminal() or state.is_chance_node():
        raise CliError("hint: nobody is to decide here: " +
                       ("the game is over" if state.is_terminal() else "a die roll is due"))
    try:
        bot = StrongBot(seed=args.seed, budget=args.budget, iterations=args.iterations)
    except ValueError as err:
        raise CliError(f"hint: {err}") from None
    started = time.perf_counter()
    action = bot.suggest(state)
    seconds = time.perf_counter() - started
    stats = bot.last_stats
    mover = state.game.player_name(state.current_player())
    lines = [state.action_to_string(action),
             f"strong bot for {mover}: {stats['iterations']} iterations, {seconds:.2f} s"]
    if is_mixed_decision(state):
        lines.append("a mixed decision: the move is drawn at random, weighted by the search "
                     f"(seed {args.seed})")
    for candidate, visits, value in stats.get("candidates", ())[:args.top]:
        lines.append(f"  {state.action_to_string(candidate):<16} {visits:>7} visits  "
                     f"value {value:+.3f}")
    print("\n".join(lines))
    return 0


def cmd_demo(args):
    if not args.terminal:
        from .sim.window import display_problem
        if display_problem() is None:
            from .board_demo import run_window_demo
            store = None if args.no_save else open_store(args)
            try:
                return run_window_demo(seed=args.seed,
                                       delay=0.8 if args.delay is None else args.delay,
                                       store=store)
            finally:
                if store is not None:
                    store.close()
    from .demo import run_demo
    return run_demo(seed=args.seed, delay=args.delay, out=sys.stdout)


def cmd_arena(args):
    from .arena import arena_command
    try:
        arena_command(args.game, args.bots, args.games, args.seed, args.budget,
                      args.iterations, _parse_options(args.option), sys.stdout,
                      sys.stderr if args.progress else None, args.max_moves)
    except ValueError as err:
        raise CliError(f"arena: {err}") from None
    return 0


def cmd_ports(args):
    from .device.ports import list_ports
    ports = list_ports(all_ports=args.all)
    if not ports:
        what = "serial ports" if args.all else \
            "Knockboards (Raspberry Pi Pico with MicroPython, USB 2E8A:0005)"
        print(f"knockboard: no {what} found", file=sys.stderr)
        return 1
    for p in ports:
        usb = f"{p.vid:04X}:{p.pid:04X}" if p.vid is not None else "-"
        print(f"{p.device}\t{usb}\t{p.serial_number or '-'}\t{p.description}")
    return 0


def cmd_flash(args):
    from .device.flash import FlashError, flash
    from .device.ports import PortNotFound, find_board
    port = args.port
    if args.budget_ma is not None:
        _check_budget(args.board, args.budget_ma)
    try:
        if port is None and not args.dry_run:
            port = find_board().device
        flash(port, args.board, budget_ma=args.budget_ma, verify=not args.no_verify,
              dry_run=args.dry_run)
    except (FlashError, PortNotFound) as err:
        raise CliError(str(err)) from None
    return 0


def cmd_uf2(args):
    from .device.flash import FlashError
    from .device.uf2 import write_board_uf2
    if args.budget_ma is not None:
        _check_budget(args.board, args.budget_ma, "uf2")
    try:
        path = write_board_uf2(args.board, args.output, budget_ma=args.budget_ma)
    except FlashError as err:
        raise CliError(str(err)) from None
    print(f"{path}: MicroPython 1.27.0 and the {args.board} firmware; hold BOOTSEL while "
          "plugging the Pico in and copy this file to the RPI-RP2 drive")
    return 0


def _check_budget(board, budget_ma, command="flash"):
    """Refuse a budget the firmware would refuse at boot, leaving the board unusable."""
    import importlib.util
    if importlib.util.find_spec("knockboard.sim") is None:
        return
    from .sim.firmware import make_config
    try:
        make_config(board, led_budget_ma=budget_ma)
    except ValueError as err:
        raise CliError(f"{command}: --budget-ma {budget_ma}: {err}") from None


def _add_device_commands(sub):
    ports = sub.add_parser("ports", help="list connected boards (USB serial ports)")
    ports.add_argument("--all", action="store_true", help="list every serial port")
    ports.set_defaults(func=cmd_ports)

    from .device.flash import board_names
    flash = sub.add_parser(
        "flash", help="compile the firmware (mpy-cross) and install it (mpremote)",
        description="Compiles firmware/ with mpy-cross, copies it and a board.json naming "
                    "BOARD to the Pico with mpremote, resets it and checks the version the "
                    "board then reports. Works while the old firmware runs.")
    flash.add_argument("--board", required=True, choices=board_names(), metavar="BOARD",
                       help="one of: " + ", ".join(board_names()))
    flash.add_argument("--port", help="serial port (default: the one connected Pico)")
    flash.add_argument("--budget-ma", type=positive_int, metavar="MA",
                       help="LED current budget in mA (default 400, for USB power)")
    flash.add_argument("--no-verify", action="store_true",
                       help="do not wait for the board to report its version")
    flash.add_argument("--dry-run", action="store_true",
                       help="build only; show what would be copied")
    flash.set_defaults(func=cmd_flash)

    uf2 = sub.add_parser(
        "uf2", help="write one UF2 file that installs MicroPython and the firmware",
        description="Writes a UF2 holding MicroPython 1.27.0 and a filesystem with the "
                    "compiled firmware and a board.json naming BOARD. Copied to the Pico's "
                    "RPI-RP2 drive (hold BOOTSEL while plugging it in), it installs "
                    "everything; it replaces every file on the board.")
    uf2.add_argument("--board", required=True, choices=board_names(), metavar="BOARD",
                     help="one of: " + ", ".join(board_names()))
    uf2.add_argument("-o", "--output", type=output_file, metavar="FILE",
                     help="where to write it (default knockboard-BOARD-VERSION.uf2)")
    uf2.add_argument("--budget-ma", type=positive_int, metavar="MA",
                     help="LED current budget in mA (default 400, for USB power)")
    uf2.set_defaults(func=cmd_uf2)


# ---- `knockboard sim` (the simulator, knockboard/sim/) ------------------------------------

def cmd_sim(args):
    from .sim import SimError, start_pty
    if args.headless:
        try:
            port = start_pty(args.board, seed=args.seed)
        except SimError as err:
            raise CliError(f"sim: {err}") from None
        print(f"knockboard sim: {port.board.name} board on {port.path} "
              f"(host: knockboard play ... --port {port.path}); Ctrl-C ends it", flush=True)
        try:
            port.wait()
        except KeyboardInterrupt:
            pass
        finally:
            port.close()
        return 0
    from .sim.window import display_problem, run_window
    problem = display_problem()
    if problem:
        raise CliError(f"sim: {problem}; `knockboard sim --headless` runs the board behind a "
                       "serial port without a window")
    return run_window(args.board, seed=args.seed)


def _add_sim_command(sub):
    from .sim.firmware import board_ids
    sim = sub.add_parser(
        "sim", help="the desktop simulator: the firmware on a virtual board, in a window",
        description="Runs the firmware's own core modules on a virtual board drawn in a "
                    "window (click cells, OK/BACK/MENU) and prints the serial port a host "
                    "connects to: knockboard play ... --port <that path>.")
    sim.add_argument("--board", default="knockabout", choices=board_ids(), metavar="BOARD",
                     help="one of: " + ", ".join(board_ids()) + " (default knockabout)")
    sim.add_argument("--seed", type=seed, default=None,
                     help="the firmware's random seed (standalone dice, boot id)")
    sim.add_argument("--headless", action="store_true",
                     help="no window: serve the board on the serial port until Ctrl-C")
    sim.set_defaults(func=cmd_sim)


def _add_game_argument(parser):
    parser.add_argument("game", choices=game_names(), metavar="GAME",
                        help="one of: " + ", ".join(game_names()))


def _add_position_arguments(parser):
    _add_game_argument(parser)
    parser.add_argument("--position", metavar="TEXT",
                        help="start position (default: the game's standard start)")
    parser.add_argument("--option", action="append", metavar="KEY=VALUE",
                        help="a game option, e.g. players=3 (repeatable)")
    parser.add_argument("moves", nargs="*", metavar="MOVE")


# the strong bot's thinking time a move: an hour is already far past any use
BUDGET = seconds(0, 3600, zero=False)


def build_parser():
    parser = _Parser(prog="knockboard",
                     description="Knockboard: a smart board for dice-driven knock games.")
    parser.add_argument("--version", action="version", version=f"knockboard {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    analyze = sub.add_parser(
        "analyze", help="apply moves to a position, print it and the legal actions",
        description="Apply MOVEs (chance outcomes included) to a position and print the "
                    "resulting position on the first line, then the legal actions or chance "
                    "outcomes one per line, sorted.")
    _add_position_arguments(analyze)
    analyze.set_defaults(func=cmd_analyze)

    hint = sub.add_parser(
        "hint", help="the strong computer player's move for a position",
        description="Apply MOVEs to a position as `analyze` does, then print the strong "
                    "bot's move for the player to act (first line, in the game's notation), "
                    "its search's size and time, and its most visited candidate moves.")
    _add_position_arguments(hint)
    hint.add_argument("--budget", type=BUDGET, default=1.0, metavar="SECONDS",
                      help="search time (default 1; a cap when --iterations is given)")
    hint.add_argument("--iterations", type=positive_int, default=None, metavar="N",
                      help="search iterations: the move then depends on the seed only")
    hint.add_argument("--seed", type=seed, default=0, metavar="S", help="default 0")
    hint.add_argument("--top", type=positive_int, default=5, metavar="N",
                      help="candidate moves to list (default 5)")
    hint.set_defaults(func=cmd_hint)

    demo = sub.add_parser("demo", help="watch a computer-vs-computer KNOCKabout game")
    demo.add_argument("--seed", type=seed, default=None, help="dice and bot seed")
    demo.add_argument("--delay", type=seconds(0, 60), default=None,
                      help="seconds between moves (default 0.8 in the simulator window, "
                           "0.4 on a terminal, else 0)")
    demo.add_argument("--terminal", action="store_true",
                      help="print the game in the terminal even where a window could open")
    demo.add_argument("--db", type=db_file, metavar="FILE",
                      help="where the window's game is saved (default: $KNOCKBOARD_DB, else "
                           "the user data folder); the terminal demo saves nothing")
    demo.add_argument("--no-save", action="store_true", help="do not save the game")
    demo.set_defaults(func=cmd_demo)
    arena = sub.add_parser(
        "arena", help="bots play each other: win rates with 95%% confidence intervals",
        description="Play seat-rotated games between bots (random, greedy, strong) with the "
                    "same dice for every rotation; print each bot's win rate with its 95% "
                    "Wilson interval and its average time per move.")
    _add_game_argument(arena)
    arena.add_argument("--bots", required=True, metavar="A,B[,C,D]",
                       help="one bot per player, in seat order of the first game")
    arena.add_argument("--games", type=positive_int, default=20, metavar="N",
                       help="default 20")
    arena.add_argument("--seed", type=seed, default=0, metavar="S", help="default 0")
    arena.add_argument("--budget", type=BUDGET, default=1.0, metavar="SECONDS",
                       help="the strong bot's time per move (default 1; a cap when "
                            "--iterations is given)")
    arena.add_argument("--iterations", type=positive_int, default=None, metavar="N",
                       help="the strong bot's search iterations per move: results then "
                            "depend on the seed only")
    arena.add_argument("--option", action="append", metavar="KEY=VALUE",
                       help="a game option, e.g. players=4 (default: one player per bot)")
    arena.add_argument("--max-moves", type=positive_int, default=2000, metavar="N",
                       help="stop a game after N moves as unfinished (default 2000)")
    arena.add_argument("--progress", action="store_true", help="report progress on stderr")
    arena.set_defaults(func=cmd_arena)
    _add_device_commands(sub)
    _add_sim_command(sub)
    add_record_commands(sub)
    add_play_command(sub, _parse_options)
    parser.subcommands = sub.choices
    return parser


def main(argv=None):
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args, rest = parser.parse_known_args(argv)
        if rest:
            # Positional MOVEs may follow options (`analyze G --position P M1 M2`), which
            # plain argparse cannot mix; re-parse the subcommand's own words intermixed.
            sub = parser.subcommands[args.command]
            args = sub.parse_intermixed_args(argv[argv.index(args.command) + 1:])
            args.command = sub.prog.split()[-1]
        return args.func(args)
    except (CliError, GameError, RecordsCommandError, PlayCommandError) as err:
        print(f"knockboard: {err}" if not str(err).startswith("knockboard") else str(err),
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `knockboard analyze ... | head` closed the pipe early: not an error of ours.
        sys.stderr.close()
        return 0
    except OSError as err:
        # the last line only: a file or device that failed after its arguments were checked
        # (removed, filled up, unplugged) is the user's world, not a bug to show as one
        where = f"{err.filename}: " if err.filename else ""
        print(f"knockboard: {where}{err.strerror or err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
