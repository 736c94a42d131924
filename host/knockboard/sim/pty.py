"""A virtual board behind a pseudo-terminal, in real time: the host opens `port.path` with
pyserial exactly as it opens /dev/ttyACM0 (`knockboard play ... --port <path>`).

A driver thread runs the firmware's main loop against the wall clock: bytes from the
pty's master side go into the board's serial input, the firmware steps, and what it wrote
goes back out. Unplugging the virtual board (power_off) keeps the pty, like a port on a
USB hub: the host sees silence, gives the link up and reconnects once it is powered again.
"""

from __future__ import annotations

import os
import select
import threading
import tty
from typing import Optional

from .virtual import SimError, VirtualBoard

LOOP_S = 0.001  # one firmware pass per millisecond at most when idle, as the key scan wants


def open_raw_pty() -> tuple:
    """A new pseudo-terminal, raw both ways: (master fd, slave fd, the slave's path). The
    line discipline must not echo, translate CR or eat Ctrl-C before a host opens the port
    (pyserial sets raw mode again on open)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    tty.setraw(master)
    return master, slave, os.ttyname(slave)


def close_fds(*fds: Optional[int]) -> None:
    """Close what is open among `fds`; one already closed (or None) is no error."""
    for fd in fds:
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass


class PtyPort:
    def __init__(self, vb: VirtualBoard):
        if os.name != "posix":
            raise SimError("the simulator's serial port needs POSIX pseudo-terminals")
        if not vb.realtime:
            raise SimError("a pseudo-terminal needs a real-time virtual board "
                           "(VirtualBoard(..., realtime=True))")
        self.board = vb
        self.master, self._slave, self.path = open_raw_pty()
        os.set_blocking(self.master, False)
        self.dropped = 0  # bytes the firmware wrote while nobody drained the pty
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"sim-{vb.board_id}",
                                        daemon=True)
        self._thread.start()

    def _run(self) -> None:
        vb = self.board
        fd = self.master
        while not self._stop.is_set():
            try:
                # A frame longer than the firmware's per-pass read budget takes several
                # passes: run them back to back, as the Pico's loop does, not 1 ms apart.
                busy = vb.hal.pending_input() > 0
                ready, _, _ = select.select([fd], [], [], 0 if busy else LOOP_S)
                if ready:
                    vb.feed(os.read(fd, 4096))
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                if self._stop.is_set():
                    return
                raise
            vb.step()
            out = vb.take_output()
            if out:
                self._write(out)

    def _write(self, data: bytes) -> None:
        try:
            n = os.write(self.master, data)
        except BlockingIOError:
            n = 0  # no host drains the pty: the bytes are lost, as in a full USB buffer
        self.dropped += len(data) - n

    def wait(self, timeout: Optional[float] = None) -> bool:
        """Block until the port is closed (or `timeout` s pass); True if it was closed."""
        return self._stop.wait(timeout)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(2)
        close_fds(self.master, self._slave)

    def __enter__(self) -> "PtyPort":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def start_pty(board: str = "knockabout", *, seed: Optional[int] = None,
              pieces: bool = False, **config) -> PtyPort:
    """A real-time virtual `board` behind a new pseudo-terminal; `port.path` is the serial
    port for the host, `port.board` the VirtualBoard, `port.close()` ends both. `pieces`:
    the board takes the host's PIECES frames (for the window)."""
    return PtyPort(VirtualBoard(board, realtime=True, seed=seed, pieces=pieces, **config))
