"""Button mashing on each game's board: random presses of cells and controls, long holds,
several keys at once. The session never crashes, the engine only moves by legal actions,
every refused press is flashed and buzzed, every buzz is played, and every debounced key
event of the board reaches the session once. tests/soak/mashing.py does 10,000 events a
game."""

import pytest

from mash import mash
from rig import GAMES


@pytest.mark.parametrize("game", sorted(GAMES))
def test_mashing_never_breaks_the_game(game):
    rig, c = mash(game, 1500, seed=21)
    assert c["events queued by the board"] == c["events received by the host"]
    assert c["errors asked"] == c["errors buzzed"] >= c["refused"]
    assert c["refused"] > 50 and c["accepted"] > 50 and c["judged independently"] > 50
    assert c["actions played"] > 20
