import os

import pytest

import screens


@pytest.fixture(scope="session")
def display():
    """A virtual X screen for the window tests: they must run in CI (CI=true), and are
    skipped elsewhere only when Xvfb, Tk or Pillow is missing."""
    why = screens.xvfb_missing()
    if why:
        if os.environ.get("CI"):
            pytest.fail(f"the window tests must run in CI: {why}")
        pytest.skip(why)
    with screens.xvfb() as name:
        yield name
