"""`knockboard sim --rp2040 --headless`: a board's UF2 on the emulated RP2040 behind a
pseudo-terminal, and its one-line errors."""

import os
import re
import signal
import subprocess
import sys
import time

from knockboard.cli import main
from knockboard.device.board import Board
from knockboard.device.flash import firmware_version
from knockboard.sim.rp2040 import emulated

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_the_emulated_board_serves_its_firmware_on_a_pty_until_ctrl_c():
    proc = subprocess.Popen(
        [sys.executable, "-m", "knockboard.cli", "sim", "--rp2040", "--headless", "--board",
         "ko"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": os.path.join(ROOT, "host")})
    try:
        line = proc.stdout.readline()
        m = re.match(r"knockboard sim: .+ board, its UF2 on an emulated RP2040, on (\S+) "
                     r"\(host: knockboard play \.\.\. --port \1\); Ctrl-C ends it$",
                     line.strip())
        if not m:
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=30)
            raise AssertionError(f"first line {line!r}, exit {proc.returncode}: {out}{err}")
        with Board.open(m.group(1), handshake_timeout=30) as board:
            assert (board.info.board, board.info.cells, board.info.firmware) == (
                "ko", 81, firmware_version())
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err


def test_a_closed_emulator_leaves_no_thread_on_its_pty(ko_uf2):
    # The pty's fd numbers are the next ones this process opens once they close (a test's
    # next pipe): a thread still reading or writing them would take that pipe's bytes, as
    # it once took `knockboard sim`'s first line from the test above.
    with emulated.EmulatedBoard(ko_uf2, 9, 9, 81, cpu_mhz=emulated.REALTIME_MHZ) as eb:
        eb.open_pty()
        eb.wait(lambda e: e["ev"] == "usb", 60)
        threads = [eb._reader, eb._pump_thread]
    assert [t.is_alive() for t in threads] == [False, False]


def test_closing_while_the_host_has_stopped_reading_leaves_no_thread(ko_uf2):
    # A host that opened the port and then stopped reading (hung, or suspended with
    # Ctrl-Z): the board's output fills the pty and the reader blocks writing into it.
    # Closing must still end the reader before the pty's fds close (the test above),
    # where it once waited 10 s and then left the reader blocked on the old fd.
    with emulated.EmulatedBoard(ko_uf2, 9, 9, 81, cpu_mhz=emulated.REALTIME_MHZ) as eb:
        eb.open_pty()
        eb.wait(lambda e: e["ev"] == "usb", 60)
        eb.write(b"\r\x03\x03")                # stop the firmware: the REPL is free
        eb.wait_serial(b">>> ", 60)
        flood = 1200 * 252
        eb.write(b"for i in range(1200): print('x' * 250)\r\r")
        # The board's output, as the reader passes it on, stops growing well short of the
        # flood: the reader is blocked on the full pty (bounded: 120 s of wall clock).
        grown, still = len(eb.serial), time.monotonic()
        end = still + 120
        while time.monotonic() < end and time.monotonic() - still < 3:
            time.sleep(0.2)
            if len(eb.serial) != grown:
                grown, still = len(eb.serial), time.monotonic()
        assert grown < flood / 2, grown
        threads = [eb._reader, eb._pump_thread]
    assert [t.is_alive() for t in threads] == [False, False]


def one_line_error(capsys, *args):
    assert main(["sim", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, err
    return err


def test_rp2040_mode_errors_are_one_line(capsys, monkeypatch):
    assert "--headless" in one_line_error(capsys, "--rp2040")
    assert "--seed" in one_line_error(capsys, "--rp2040", "--headless", "--seed", "3")
    monkeypatch.setattr(emulated, "_rp2040js_installed", lambda: False)
    err = one_line_error(capsys, "--rp2040", "--headless")
    assert "rp2040js is missing" in err and "npm ci" in err
    monkeypatch.setattr(emulated.shutil, "which", lambda name: None)
    err = one_line_error(capsys, "--rp2040", "--headless")
    assert "Node.js is missing" in err and "npm ci" in err
