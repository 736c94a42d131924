import pytest

from knockboard.device.uf2 import board_uf2


def uf2_file(tmp_path_factory, board):
    """Exactly what `knockboard uf2 --board BOARD` writes: the file the emulated board
    boots."""
    path = tmp_path_factory.mktemp("rp2040") / f"{board}.uf2"
    path.write_bytes(board_uf2(board))
    return str(path)


@pytest.fixture(scope="session")
def knockabout_uf2(tmp_path_factory):
    return uf2_file(tmp_path_factory, "knockabout")


@pytest.fixture(scope="session")
def ko_uf2(tmp_path_factory):
    return uf2_file(tmp_path_factory, "ko")
