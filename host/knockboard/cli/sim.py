"""`knockboard sim`: the simulator (knockboard/sim/) in a window or behind a serial port."""

from .args import CliError, seed


def cmd_sim(args):
    from ..sim import SimError, start_pty
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
    from ..sim.window import display_problem, run_window
    problem = display_problem()
    if problem:
        raise CliError(f"sim: {problem}; `knockboard sim --headless` runs the board behind a "
                       "serial port without a window")
    return run_window(args.board, seed=args.seed)


def add_sim_command(sub):
    from ..sim.firmware import board_ids
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
