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
def browser():
    _needed(browser_missing())
    chromium = Browser(1280, 800)
    try:
        yield chromium
    finally:
        chromium.close()
