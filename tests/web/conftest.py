import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sim"))

from browser import Browser, browser_missing  # noqa: E402


def _needed(why):
    """Missing in CI: a failure, not a skip (.ci/run installs them)."""
    if why:
        if os.environ.get("CI"):
            pytest.fail(f"the browser tests must run in CI: {why}")
        pytest.skip(why)



@pytest.fixture
def browser(make_browser):
    return make_browser()


@pytest.fixture
def make_browser():
    """Headless Chromium windows (1280 x 800), `flags`: more of its command-line flags; all
    closed after the test."""
    _needed(browser_missing())
    made = []

    def make(flags=()):
        made.append(Browser(1280, 800, flags))
        return made[-1]
    try:
        yield make
    finally:
        for chromium in made:
            chromium.close()
