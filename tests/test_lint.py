"""ruff and mypy on the host program, ruff on the hardware generator, the tests and the
benchmarks, radon's complexity grades on the host program, the firmware and the hardware
generator, with the settings in pyproject.toml: part of the test command, so CI runs them."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


# the folders ruff holds to pyproject's rules
RUFF_CHECKED = ("host", "hardware", "tests", "benchmarks")


def run(*argv, stdin=None):
    return subprocess.run([sys.executable, "-m", *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, input=stdin)


def test_ruff_finds_nothing_in_host_hardware_tests_or_benchmarks():
    done = run("ruff", "check", *RUFF_CHECKED)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_holds_tests_and_benchmarks_to_the_rules_of_host():
    # a per-file-ignore or exclude for tests/ or benchmarks/ would keep the check above
    # green while the rules no longer reach them: one bad file, named as if in each folder,
    # must draw the same findings (an unused import and variable, `== None`, trailing
    # whitespace, a line over 100); --force-exclude, as ruff skips an excluded file only
    # with it (or with force-exclude set in pyproject)
    bad = ("import os\n\n\ndef f(x):\n    unused = 1\n    return x == None  \n\n\n"
           f"LONG = \"{'x' * 100}\"\n")

    def codes(folder):
        done = run("ruff", "check", "--force-exclude", "--output-format", "json",
                   "--stdin-filename", f"{folder}/lint_probe.py", "-", stdin=bad)
        return sorted(finding["code"] for finding in json.loads(done.stdout))

    assert codes("host") == ["E501", "E711", "F401", "F841", "W291"]
    for folder in RUFF_CHECKED[1:]:
        assert codes(folder) == codes("host"), folder


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
