import os

from hypothesis import HealthCheck, settings

# CI gets more examples than a developer's quick run, and the same ones every run
# (derandomize: drawn from each test's own source), so whether a submission lands never
# depends on a draw; a developer's runs draw anew each time and go on finding new cases.
settings.register_profile("ci", max_examples=200, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _private_game_database(tmp_path, monkeypatch):
    # A test that plays or lists games must never touch the user's own game database.
    monkeypatch.setenv("KNOCKBOARD_DB", str(tmp_path / "knockboard-test.sqlite3"))


@pytest.fixture(scope="session")
def display():
    """One virtual X screen a test worker keeps for all its window tests (sim, remote, web):
    Tk keeps its tie to a screen after its window is gone, and an X server stopped under it
    ends the whole process, so no test file may start and stop a screen of its own. Window
    tests must run in CI (CI=true); elsewhere they are skipped only when Xvfb, Tk or Pillow
    is missing."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent / "sim"))
    import screens
    why = screens.xvfb_missing()
    if why:
        if os.environ.get("CI"):
            pytest.fail(f"the window tests must run in CI: {why}")
        pytest.skip(why)
    with screens.xvfb() as name:
        yield name


@pytest.fixture(scope="session")
def kicad():
    """KiCad's pcbnew under Debian's Python (the PCB tests): missing, a test fails in CI and
    is skipped elsewhere."""
    import subprocess

    from hardware.kicad import run
    ok = os.path.exists(run.KICAD_PYTHON) and subprocess.run(
        [run.KICAD_PYTHON, "-c", "import pcbnew"], capture_output=True).returncode == 0
    if not ok:
        msg = "KiCad's pcbnew missing: apt-get install kicad kicad-footprints"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
