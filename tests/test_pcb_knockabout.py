"""KNOCKabout's cell board placed, routed and written again, byte for byte: the longest
board to route (~2.5 CPU-minutes), in a file of its own so that the test workers run it
beside tests/test_pcb.py (tests/pcb_remake.py)."""

import pcb_remake
from pcb_remake import kicad  # noqa: F401 (a fixture)


def test_knockabouts_board_made_again_is_the_committed_one(kicad, tmp_path):  # noqa: F811
    assert pcb_remake.differences(pcb_remake.LONGEST, tmp_path) == []
