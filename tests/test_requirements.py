"""The pinned test tools and the dependency range's lower end stay true to pyproject.toml.

requirements/test.txt (uv's universal lock with hashes: the README's test command installs
exactly it) must pin every runtime and test dependency within its declared range, each with
hashes; requirements/runtime-lowest.txt (what .ci/dependency_range.py installs for the lowest
end) must pin every runtime dependency at the lowest version its range allows. Both files are
written by uv (docs/development.md says how); this catches one left stale after an edit of
pyproject.toml."""

import re
import sys
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

if sys.version_info >= (3, 11):
    import tomllib
else:                                   # pragma: no cover - the lock installs tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
RUNTIME = [Requirement(r) for r in PROJECT["dependencies"]]
TEST = [Requirement(r) for r in PROJECT["optional-dependencies"]["test"]]


def pins(path):
    """{name: (version, hashes)} of a compiled requirements file: the pins
    whose environment marker holds for this interpreter (a universal lock pins some packages
    twice, for different Pythons)."""
    text = (ROOT / path).read_text()
    found = {}
    for entry in re.split(r"\n(?=[A-Za-z0-9])", text):
        line = entry.split("\n", 1)[0].rstrip(" \\")
        if not line or line.startswith("#"):
            continue
        requirement = Requirement(line)
        if requirement.marker and not requirement.marker.evaluate():
            continue
        version, = (spec.version for spec in requirement.specifier)
        hashes = re.findall(r"--hash=sha256:([0-9a-f]{64})", entry)
        name = canonicalize_name(requirement.name)
        assert name not in found, f"{path}: {name} pinned twice for this Python"
        found[name] = (Version(version), hashes)
    return found


def applies(requirement):
    return requirement.marker is None or requirement.marker.evaluate(default_environment())


def out_of_range(requirements, locked):
    """What a lock {name: (version, hashes)} gets wrong about `requirements`."""
    wrong = []
    for requirement in filter(applies, requirements):
        name = canonicalize_name(requirement.name)
        if name not in locked:
            wrong.append(f"{name} is not pinned")
            continue
        version, hashes = locked[name]
        if not requirement.specifier.contains(version, prereleases=True):
            wrong.append(f"{name} {version} is outside {requirement.specifier}")
        if not hashes:
            wrong.append(f"{name} has no hash")
    return wrong


def test_the_lock_pins_each_dependency_within_its_range_with_hashes():
    wrong = out_of_range(RUNTIME + TEST, pins("requirements/test.txt"))
    assert not wrong, f"requirements/test.txt: {wrong}; refresh it (docs/development.md)"


def test_every_pin_of_the_lock_has_a_hash():
    unhashed = [name for name, (_, hashes) in pins("requirements/test.txt").items()
                if not hashes]
    assert not unhashed


def test_a_stale_or_missing_pin_is_caught():
    locked = pins("requirements/test.txt")
    stale = dict(locked, pytest=(Version("6.2.5"), locked["pytest"][1]))
    assert out_of_range(TEST, stale) == ["pytest 6.2.5 is outside >=7"]
    unhashed = dict(locked, pyserial=(locked["pyserial"][0], []))
    assert out_of_range(RUNTIME, unhashed) == ["pyserial has no hash"]
    del unhashed["pyserial"]
    assert out_of_range(RUNTIME, unhashed) == ["pyserial is not pinned"]


def lower_bound(requirement):
    """The lowest version a requirement's range allows: its == pin or its >= bound."""
    bounds = [Version(s.version) for s in requirement.specifier if s.operator in ("==", ">=")]
    assert len(bounds) == 1, f"{requirement}: no single lower bound to test"
    return bounds[0]


@pytest.mark.parametrize("requirement", RUNTIME, ids=str)
def test_the_lowest_set_pins_each_runtime_dependency_at_its_lower_bound(requirement):
    lowest = pins("requirements/runtime-lowest.txt")
    name = canonicalize_name(requirement.name)
    assert name in lowest, f"{name} is not in requirements/runtime-lowest.txt"
    assert lowest[name][0] == lower_bound(requirement), \
        f"requirements/runtime-lowest.txt pins {name} {lowest[name][0]}, " \
        f"not {requirement}'s lowest"


def test_a_range_without_a_lower_bound_is_refused():
    assert lower_bound(Requirement("shtab>=1.7")) == Version("1.7")
    with pytest.raises(AssertionError):
        lower_bound(Requirement("shtab"))


def test_ci_runs_the_readmes_test_command_verbatim_in_a_fresh_venv():
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)```", readme[readme.index("## Quick start"):], re.S)
    test_command = blocks[2].strip()                   # the venv, the demo, the tests
    assert "requirements/test.txt" in test_command and test_command.endswith("pytest")
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert ci[-1] == test_command
    assert ci.index(". .venv/bin/activate") < len(ci) - 1
