"""Finding boards: a Raspberry Pi Pico running MicroPython enumerates as USB 2E8A:0005."""

from __future__ import annotations

from dataclasses import dataclass

PICO_MICROPYTHON = (0x2E8A, 0x0005)


@dataclass(frozen=True)
class PortInfo:
    device: str
    description: str
    serial_number: str | None
    vid: int | None
    pid: int | None

    @property
    def is_pico(self) -> bool:
        return (self.vid, self.pid) == PICO_MICROPYTHON


def list_ports(all_ports: bool = False) -> list[PortInfo]:
    """Candidate boards (every serial port with all_ports), sorted by device name."""
    from serial.tools import list_ports as lp

    found = [PortInfo(p.device, p.description or "", p.serial_number, p.vid, p.pid)
             for p in lp.comports()]
    if not all_ports:
        found = [p for p in found if p.is_pico]
    return sorted(found, key=lambda p: p.device)


class PortNotFound(LookupError):
    pass


def find_board(serial_number: str | None = None) -> PortInfo:
    """The one connected Pico (or the one with this USB serial number)."""
    boards = list_ports()
    if serial_number is not None:
        boards = [b for b in boards if b.serial_number == serial_number]
    if not boards:
        which = f" with USB serial number {serial_number}" if serial_number else ""
        raise PortNotFound(f"no Knockboard found{which} (looked for a Raspberry Pi Pico "
                           "running MicroPython, USB 2E8A:0005): plug it in, or give --port "
                           "(`knockboard ports --all` lists the serial ports)")
    if len(boards) > 1:
        raise PortNotFound("several boards connected (" + ", ".join(b.device for b in boards)
                           + "); choose one with --port")
    return boards[0]
