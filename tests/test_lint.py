"""ruff and mypy on the host program, with the settings in pyproject.toml: part of the test
command, so CI runs them."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*argv):
    return subprocess.run([sys.executable, "-m", *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


def test_ruff_finds_nothing_in_host():
    done = run("ruff", "check", "host")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing_in_host():
    done = run("mypy")
    assert done.returncode == 0, done.stdout + done.stderr
