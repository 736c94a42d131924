"""ruff and mypy on the host program, ruff on the hardware generator, radon's complexity
grades on the host program, the firmware and the hardware generator, with the settings in
pyproject.toml: part of the test command, so CI runs them."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*argv):
    return subprocess.run([sys.executable, "-m", *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


def test_ruff_finds_nothing_in_host_or_hardware():
    done = run("ruff", "check", "host", "hardware")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing_in_host():
    done = run("mypy")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_engines_session_store_bots_and_remote_have_every_def_annotated():
    # mypy checks a def's body only when the def is annotated: these packages must be
    if sys.version_info >= (3, 11):
        import tomllib
    else:                                   # pragma: no cover - the lock installs tomli there
        import tomli as tomllib
    overrides = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["overrides"]
    strict = {m for o in overrides if o.get("disallow_untyped_defs") for m in o["module"]}
    assert {"knockboard.games", "knockboard.games.*", "knockboard.session.*",
            "knockboard.cli", "knockboard.cli.*",
            "knockboard.store.*", "knockboard.bots.*", "knockboard.remote",
            "knockboard.remote.*"} <= strict


def test_no_function_in_host_firmware_or_hardware_is_more_complex_than_grade_c():
    # radon grades a function's cyclomatic complexity; D and worse (above 20 branches) were
    # the position parsers and validators that cost every change, and in hardware/ the
    # router's search and the drawing and check functions that grew a branch per part
    done = run("radon", "cc", "--min", "D", "host", "firmware", "hardware")
    assert done.returncode == 0 and done.stdout.strip() == "", done.stdout + done.stderr
