"""The emulated Knockboard (board.mjs under Node.js) driven from Python: its USB serial port
behind a pseudo-terminal for the unmodified host, and the parts around the chip (keys,
buttons, LED chain, OLED, buzzer) reached through the emulator's JSON lines."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import threading
import time
from typing import Callable, Optional

from ... import resources
from ..pty import close_fds, open_raw_pty

HERE = os.path.dirname(os.path.abspath(__file__))
BOARD_MJS = os.path.join(HERE, "board.mjs")
BOOT_ROM = str(resources.image_dir() / "bootrom-rp2040-b1.bin")
PINMAP = str(resources.firmware_dir() / "pinmap.json")
# The emulator runs some 20-30 million instructions a wall-clock second: at 32 MHz the CPU
# about keeps pace with real time, so the host's real-second timeouts see a board that
# answers in time (they hold down to a third of real time).
REALTIME_MHZ = 32
# On a loaded machine the emulator falls far behind the wall clock (a twentieth of real time
# was seen with 8 busy processes on 2 cores), so a bound on what the firmware does is taken
# in emulated time (`within`, `clock()`); wall-clock bounds are only a safety net against a
# hung emulator, this generous.
WALL_NET = 600.0
# The emulated clock (with clock_us) standing still this many wall seconds: the emulator hangs.
STALL_S = 60.0


class EmulatorMissing(RuntimeError):
    """Node.js or the npm package rp2040js is not installed."""


def _rp2040js_installed() -> bool:
    # where Node looks for board.mjs's `import 'rp2040js'`: node_modules in its folder or
    # any folder above it
    folder = HERE
    while True:
        if os.path.isfile(os.path.join(folder, "node_modules", "rp2040js", "package.json")):
            return True
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent


def node() -> str:
    """The Node.js that runs board.mjs; EmulatorMissing says what to install."""
    path = shutil.which("node")
    if path is None or not _rp2040js_installed():
        what = "Node.js" if path is None else "the npm package rp2040js"
        raise EmulatorMissing(f"the emulated RP2040 needs Node.js and the npm package "
                              f"rp2040js, and {what} is missing: install Node.js, then run "
                              f"`npm ci` in the Knockboard repository")
    return path


def _read_away(fd: int) -> None:
    """Reads what waits on `fd` without blocking, and drops it."""
    try:
        while select.select([fd], [], [], 0)[0] and os.read(fd, 65536):
            pass
    except OSError:
        pass


class EmulatedBoard:
    def __init__(self, uf2: str, rows: int, cols: int, cells: int, *, cpu_mhz: int = 125,
                 free_run: bool = False, hold: tuple[str, ...] = (),
                 max_ms: Optional[int] = None, clock_us: Optional[int] = None,
                 trace: bool = False):
        cmd = [node(), BOARD_MJS, "--uf2", uf2, "--rom", BOOT_ROM, "--pinmap", PINMAP,
               "--rows", str(rows), "--cols", str(cols), "--cells", str(cells),
               "--cpu-mhz", str(cpu_mhz)]
        for name in hold:
            cmd += ["--hold", name]
        if free_run:
            cmd.append("--free-run")
        if max_ms is not None:
            cmd += ["--max-ms", str(max_ms)]
        if clock_us is not None:
            cmd += ["--clock-us", str(clock_us)]
        if trace:  # {"ev": "host-bytes"} and {"ev": "cdc-out"} events, with their times
            cmd.append("--trace")
        self.trace = trace
        self.clock_us = clock_us
        self.now_ns = 0  # the emulated time of the latest event
        self._moved = time.monotonic()  # when now_ns last moved, on the wall clock
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=HERE)
        self.events: list[dict] = []
        self.serial = bytearray()  # everything the board wrote to USB
        self._cond = threading.Condition()
        self._lock = threading.Lock()
        self.on_serial: Optional[Callable[[bytes], None]] = None
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.master: Optional[int] = None
        self._slave: Optional[int] = None
        self._pump_thread: Optional[threading.Thread] = None
        self._stop = threading.Event()

    # ---- the emulator's side ----
    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            msg = json.loads(line)
            if msg.get("t", 0) > self.now_ns:
                self.now_ns = msg["t"]
                self._moved = time.monotonic()
            if msg.get("ev") == "clock":
                with self._cond:  # wakes the waits bounded in emulated time
                    self._cond.notify_all()
                continue
            if msg.get("ev") == "cdc":
                data = bytes.fromhex(msg["hex"])
                if self.trace:
                    with self._cond:
                        self.events.append({"ev": "cdc-out", "t": msg["t"], "n": len(data)})
                sink = self.on_serial  # close() may clear it meanwhile
                if sink is not None:
                    sink(data)
                with self._cond:
                    self.serial += data
                    self._cond.notify_all()
                continue
            with self._cond:
                self.events.append(msg)
                self._cond.notify_all()
        with self._cond:
            self.events.append({"ev": "exit"})
            self._cond.notify_all()

    def _send(self, **msg) -> None:
        assert self.proc.stdin is not None
        with self._lock:
            self.proc.stdin.write((json.dumps(msg) + "\n").encode())
            self.proc.stdin.flush()

    def wait(self, pred: Callable[[dict], bool], timeout: float, start: int = 0, *,
             within: Optional[float] = None) -> dict:
        """The first event from index `start` on that satisfies pred, within `timeout` wall
        seconds and, if given, `within` emulated seconds from now (which needs clock_us)."""
        over = self._deadlines(timeout, within)
        with self._cond:
            while True:
                for ev in self.events[start:]:
                    if pred(ev):
                        return ev
                    if ev["ev"] == "exit":
                        raise AssertionError("the emulator exited: " + self.stderr())
                late = over()
                if late:
                    raise AssertionError(f"no such event in {late}; events: "
                                         f"{[e['ev'] for e in self.events][-20:]}")
                self._cond.wait(1.0)

    def _deadlines(self, timeout: float, within: Optional[float]) -> Callable[[], str]:
        """A check of a wait's bounds: "" while they hold, else which one ran out."""
        wall_end = time.monotonic() + timeout
        if within is not None:
            assert self.clock_us, "a bound in emulated time needs the clock events (clock_us)"
            chip_end = self.now_ns + within * 1e9

        def over() -> str:
            if within is not None and self.now_ns >= chip_end:
                return f"{within:g} s of emulated time"
            if time.monotonic() >= wall_end:
                return f"{timeout:g} wall-clock seconds"
            return ""
        return over

    def wait_serial(self, text: bytes, timeout: float, start: int = 0, *,
                    within: Optional[float] = None) -> int:
        """Waits until `text` appears in the USB output after offset `start`; its end. The
        bounds as in wait()."""
        over = self._deadlines(timeout, within)
        with self._cond:
            while True:
                i = self.serial.find(text, start)
                if i >= 0:
                    return i + len(text)
                late = over()
                if late:
                    raise AssertionError(f"{text!r} not seen in {late}; got "
                                         f"{bytes(self.serial[start:])[-300:]!r}")
                self._cond.wait(1.0)

    def clock(self) -> float:
        """The emulated time in seconds (to within clock_us): a host's clock that runs at
        the emulated chip's pace, so its timeouts hold however slowly the emulator runs.
        With clock_us, AssertionError once it has stood still for STALL_S wall seconds
        (a host waiting on a hung emulator would wait for ever)."""
        if self.clock_us and time.monotonic() - self._moved > STALL_S:
            raise AssertionError(f"the emulated clock has not moved for {STALL_S:g} s: "
                                 f"the emulator hangs {self.stderr()}")
        return self.now_ns / 1e9

    def stderr(self) -> str:
        if self.proc.poll() is None:
            return ""
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode(errors="replace")[-2000:]

    def write(self, data: bytes) -> None:
        self._send(op="cdc", hex=data.hex())

    def key(self, cell: int, down: bool) -> None:
        self._send(op="key", cell=cell, down=down)

    def control(self, index: int, down: bool) -> None:
        self._send(op="control", index=index, down=down)

    def schedule(self, at: list) -> None:
        """Key changes at emulated times: [[us after now, cell, down], ...] (a bounce)."""
        self._send(op="keys", at=at)

    def glitch(self, cell: int, reads: int = 1) -> None:
        """The cell reads closed at the next `reads` scans of its row only ({"ev":
        "glitch"} once they have seen it)."""
        self._send(op="glitch", cell=cell, reads=reads)

    def supply(self, usb: bool = True, jack: bool = False, timeout: float = 30) -> dict:
        """Plugs or pulls USB VBUS and the 5 V jack as the firmware senses them (GP24,
        GP15); its event, with the emulated time it took effect."""
        n = len(self.events)
        self._send(op="supply", usb=usb, jack=jack)
        return self.wait(lambda e: e["ev"] == "supply", timeout, n)

    def fault(self, what: str, timeout: float = 30, **detail: int) -> dict:
        """Injects a fault (board.mjs: "led-sm", "oled-bus", "swap-cols" with the column
        lines a and b, or "dead-led" with the cell whose LED stops the chain); its event,
        with the emulated time it took effect."""
        n = len(self.events)
        self._send(op="fault", what=what, **detail)
        return self.wait(lambda e: e["ev"] == "fault", timeout, n)

    def query(self, what: str, timeout: float = 30) -> dict:
        n = len(self.events)
        self._send(op=what)
        return self.wait(lambda e: e["ev"] == what, timeout, n)

    # ---- the USB serial port as a pseudo-terminal ----
    def open_pty(self) -> str:
        """A pseudo-terminal bridged to the board's USB serial port: the path a host opens
        like /dev/ttyACM0."""
        self.master, self._slave, path = open_raw_pty()
        master = self.master

        def to_host(data: bytes) -> None:
            try:
                os.write(master, data)
            except OSError:
                pass  # nobody has the port open: lost, like a full USB buffer

        self.on_serial = to_host
        self._pump_thread = threading.Thread(target=self._pump, daemon=True)
        self._pump_thread.start()
        return path

    def _pump(self) -> None:
        assert self.master is not None
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            if data:
                try:
                    self.write(data)
                except OSError:
                    return  # the emulator has ended: nobody takes the host's bytes

    def close(self) -> None:
        self._stop.set()
        self.on_serial = None
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        # Both threads use the pty's fd numbers, and a closed number is the next one the
        # process opens (a test's next pipe): they must be done before the fds close, or
        # the pump reads another pipe's bytes and the reader writes the board's into it.
        # A reader may be blocked writing into a pty whose host stopped reading: what the
        # host left unread is read away here, so the write returns and the reader ends.
        deadline = time.monotonic() + 10
        while self._reader.is_alive() and time.monotonic() < deadline:
            if self._slave is not None:
                _read_away(self._slave)
            self._reader.join(0.05)
        if self._pump_thread is not None:
            self._pump_thread.join(10)
        close_fds(self.master, self._slave)

    def __enter__(self) -> "EmulatedBoard":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def raw_exec(eb: EmulatedBoard, code: str, timeout: float, feed: tuple = (),
             feed_after: bytes = b"loop-start") -> str:
    """Runs `code` in MicroPython's raw REPL (as mpremote does) and returns what it printed;
    `feed` is written to the board's USB once the output shows `feed_after`. An exception
    on the board raises AssertionError with its traceback."""
    start = len(eb.serial)
    eb.write(b"\r\x03\x03\x01")
    eb.wait_serial(b"raw REPL; CTRL-B to exit\r\n>", timeout, start)
    begin = len(eb.serial)
    eb.write(code.encode() + b"\x04")
    out_start = eb.wait_serial(b"OK", timeout, begin)
    if feed:
        eb.wait_serial(feed_after, timeout, out_start)
        for data in feed:
            eb.write(data)
    out_end = eb.wait_serial(b"\x04", timeout, out_start) - 1
    err_end = eb.wait_serial(b"\x04", timeout, out_end + 1) - 1
    error = bytes(eb.serial[out_end + 1:err_end]).decode(errors="replace")
    if error.strip():
        raise AssertionError("on the board: " + error)
    return bytes(eb.serial[out_start:out_end]).decode(errors="replace")
