"""Every other board (the controller, the other cell boards and Knock-Off's tiles) placed,
routed and written again, byte for byte: the committed boards are what the code makes from
the layouts and netlists (remake.py)."""

import pytest

import remake


@pytest.mark.parametrize("name", [n for n in remake.board_names() if n != remake.LONGEST])
def test_every_board_made_again_is_the_committed_one(kicad, tmp_path, name):
    assert remake.differences(name, tmp_path) == []
