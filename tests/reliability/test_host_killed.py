"""`knockboard play --port <pty>` SIGKILLed at random points of scripted games against the
simulator, then `knockboard resume --port <pty>`: the resumed game equals the game played
without interruption (real processes, real pseudo-terminal, real time).
tests/soak/host_killed.py does 100 kills and prints the figures."""

import os
import random

import pytest

from killed import kill_and_resume

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs POSIX ptys and signals")


@pytest.mark.parametrize("game", ["knockabout", "knockoff"])
def test_killed_host_resumes_the_very_same_game(game, tmp_path):
    f = kill_and_resume(game, 3, random.Random(game), tmp_path / "games.sqlite3")
    assert f["kills"] >= 2 and f["resumes"] >= f["kills"]
