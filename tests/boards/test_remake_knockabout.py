"""KNOCKabout's cell board placed, routed and written again, byte for byte: the longest
board to route (~0.8 CPU-minutes), in a file of its own (remake.py says why)."""

import remake


def test_knockabouts_board_made_again_is_the_committed_one(kicad, tmp_path):
    assert remake.differences(remake.LONGEST, tmp_path) == []
