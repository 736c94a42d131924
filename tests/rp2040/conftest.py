import pytest

from knockboard.device.uf2 import board_uf2


@pytest.fixture(scope="session")
def knockabout_uf2(tmp_path_factory):
    """Exactly what `knockboard uf2 --board knockabout` writes: the file the emulated board
    boots."""
    path = tmp_path_factory.mktemp("rp2040") / "knockabout.uf2"
    path.write_bytes(board_uf2("knockabout"))
    return str(path)
