"""`knockboard sim`: the simulator (knockboard/sim/) in a window or behind a serial port,
or (--rp2040) the board's real firmware image on an emulated RP2040 behind a serial port."""

import argparse
import os
import signal
import tempfile
import time
from contextlib import contextmanager
from types import FrameType
from typing import Iterator, NoReturn, Optional

from .args import CliError, SubParsers, add_board_argument, seed

# what ends a simulator serving a port: Ctrl-C, and a service manager's or a script's stop
ENDING_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _stop(signum: int, frame: Optional[FrameType]) -> NoReturn:
    raise KeyboardInterrupt


@contextmanager
def ended_by_signals() -> Iterator[None]:
    """SIGINT and SIGTERM end what runs inside (as KeyboardInterrupt) whatever handling this
    process inherited: a background job of a shell or a script starts with SIGINT ignored,
    and Python's default leaves SIGTERM to kill the process without closing anything."""
    previous = {sig: signal.signal(sig, _stop) for sig in ENDING_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def cmd_sim(args: argparse.Namespace) -> int:
    if args.rp2040:
        return sim_rp2040(args)
    from ..sim import SimError, start_pty
    if args.headless:
        try:
            port = start_pty(args.board, seed=args.seed)
        except SimError as err:
            raise CliError(f"sim: {err}") from None
        try:
            # before the port is announced: whoever reads it may stop us at once
            with ended_by_signals():
                print(f"knockboard sim: {port.board.name} board on {port.path} (host: "
                      f"knockboard play ... --port {port.path}); Ctrl-C ends it", flush=True)
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


def sim_rp2040(args: argparse.Namespace) -> int:
    if not args.headless:
        raise CliError("sim: --rp2040 serves the emulated board on a serial port only: add "
                       "--headless (the window runs the firmware in-process)")
    if args.seed is not None:
        raise CliError("sim: --seed seeds the in-process firmware; the emulated RP2040 runs "
                       "the real image, which seeds itself")
    from ..sim.rp2040 import EmulatorMissing, node
    try:
        node()
    except EmulatorMissing as err:
        raise CliError(f"sim: {err}") from None
    try:
        with ended_by_signals():
            return _serve_emulated(args.board)
    except KeyboardInterrupt:
        return 0


def _serve_emulated(board: str) -> NoReturn:
    from ..device.uf2 import board_uf2
    from ..sim.firmware import make_config
    from ..sim.rp2040 import REALTIME_MHZ, EmulatedBoard
    cfg = make_config(board)
    with tempfile.TemporaryDirectory() as tmp:
        uf2 = os.path.join(tmp, f"{board}.uf2")
        with open(uf2, "wb") as f:
            f.write(board_uf2(board))  # exactly what `knockboard uf2` writes
        with EmulatedBoard(uf2, cfg.rows, cfg.cols, cfg.cells, cpu_mhz=REALTIME_MHZ) as eb:
            path = eb.open_pty()
            try:
                eb.wait(lambda e: e["ev"] == "usb", 120)
            except AssertionError as err:
                why = " ".join(str(err).split())[-300:]  # one line, even with Node's stderr
                raise CliError(f"sim: the emulated RP2040 did not come up: {why}") from None
            print(f"knockboard sim: {cfg.name} board, its UF2 on an emulated RP2040, on {path} "
                  f"(host: knockboard play ... --port {path}); Ctrl-C ends it", flush=True)
            while eb.proc.poll() is None:
                time.sleep(0.2)
            raise CliError("sim: the emulator stopped: " + " ".join(eb.stderr().split())[-300:])


def add_sim_command(sub: SubParsers) -> None:
    from ..sim.firmware import board_ids
    sim = sub.add_parser(
        "sim", help="the desktop simulator: the firmware on a virtual board, in a window",
        description="Runs the firmware's own core modules on a virtual board drawn in a "
                    "window (click cells, OK/BACK/MENU) and prints the serial port a host "
                    "connects to: knockboard play ... --port <that path>.")
    add_board_argument(sim, board_ids(), default="knockabout",
                       help="one of: " + ", ".join(board_ids()) + " (default knockabout)")
    sim.add_argument("--seed", type=seed, default=None,
                     help="the firmware's random seed (standalone dice, boot id)")
    sim.add_argument("--headless", action="store_true",
                     help="no window: serve the board on the serial port until Ctrl-C")
    sim.add_argument("--rp2040", action="store_true",
                     help="with --headless: the board's UF2 (knockboard uf2) on an emulated "
                          "RP2040 instead of the firmware in-process; needs Node.js and the "
                          "npm package rp2040js (npm ci)")
    sim.set_defaults(func=cmd_sim)
