"""`knockboard uf2`: the file parsed back block by block (format, family, addresses), the
MicroPython image in it byte for byte, and its filesystem mounted with littlefs-python the
way MicroPython v1.27 on RPI_PICO mounts it, holding the compiled firmware and board.json."""

import json
import os
import struct

import pytest

from knockboard import cli
from knockboard.device import flash as F
from knockboard.device import uf2 as U

FLASH = 0x10000000


def parse_uf2(data):
    """{flash address: 256-byte payload}, checking every block's framing on the way."""
    assert len(data) % 512 == 0
    blocks = [data[i:i + 512] for i in range(0, len(data), 512)]
    payloads = {}
    for n, b in enumerate(blocks):
        m0, m1, flags, addr, size, no, total, family = struct.unpack_from("<8I", b)
        assert (m0, m1, struct.unpack_from("<I", b, 508)[0]) == (
            0x0A324655, 0x9E5D5157, 0x0AB16F30)
        assert flags == 0x2000 and family == 0xE48BFF56  # family id present: RP2040
        assert size == 256 and addr % 256 == 0 and (no, total) == (n, len(blocks))
        assert FLASH <= addr and addr + size <= FLASH + 2 * 1024 * 1024
        assert addr not in payloads
        payloads[addr] = b[32:32 + size]
    return payloads


def region(payloads, offset, size):
    return b"".join(payloads[FLASH + offset + i] for i in range(0, size, 256))


@pytest.fixture(scope="module")
def knockabout_uf2(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("uf2") / "ka.uf2")
    assert cli.main(["uf2", "--board", "knockabout", "-o", path, "--budget-ma", "900"]) == 0
    with open(path, "rb") as f:
        return f.read()


def test_the_uf2_holds_the_committed_image_then_the_filesystem(knockabout_uf2):
    payloads = parse_uf2(knockabout_uf2)
    with open(U.IMAGE, "rb") as f:
        image = f.read()
    assert region(payloads, 0, len(image) // 256 * 256) == image[:len(image) // 256 * 256]
    # where MicroPython v1.27 RPI_PICO keeps its filesystem: the last 1408 KiB of 2 MiB
    assert U.FS_OFFSET == 0xA0000 and U.FS_BLOCKS == 352
    fs_addrs = [a for a in payloads if a >= FLASH + U.FS_OFFSET]
    assert len(fs_addrs) * 256 == 1408 * 1024
    assert max(a for a in payloads if a < FLASH + U.FS_OFFSET) < FLASH + len(image)


def test_its_filesystem_mounts_and_holds_the_firmware(knockabout_uf2):
    from littlefs import LittleFS
    payloads = parse_uf2(knockabout_uf2)
    fs = LittleFS(block_size=4096, block_count=352, prog_size=256, read_size=32,
                  lookahead_size=32, mount=False)
    fs.context.buffer[:] = region(payloads, U.FS_OFFSET, U.FS_BYTES)
    fs.mount()
    names = set(fs.listdir("/"))
    modules = {n[:-3] for n in os.listdir(F.FIRMWARE_DIR)
               if n.endswith(".py") and n not in ("main.py", "fbcompat.py")}
    assert names == {m + ".mpy" for m in modules} | {"main.py", "boards.json", "pinmap.json",
                                                      "board.json"}
    with fs.open("board.json") as f:
        assert json.load(f) == {"board": "knockabout", "led_budget_ma": 900}
    with fs.open("main.py", "rb") as f, open(os.path.join(F.FIRMWARE_DIR, "main.py"), "rb") as g:
        assert f.read() == g.read()
    with fs.open("app.mpy", "rb") as f:
        head = f.read(4)
    assert head[0:2] == b"M\x06"  # compiled: .mpy v6, what MicroPython 1.27 loads


def test_default_name_and_message(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["uf2", "--board", "ko"]) == 0
    name = f"knockboard-ko-{F.firmware_version()}.uf2"
    assert os.listdir(tmp_path) == [name]
    out = capsys.readouterr().out
    assert out.startswith(name + ": ") and "RPI-RP2" in out


@pytest.mark.parametrize("argv,msg", [
    (["uf2"], "the following arguments are required: --board"),
    (["uf2", "--board", "chess"], "unknown board 'chess'"),
    (["uf2", "--board", "ko", "--budget-ma", "0"], "'0' must be positive"),
    (["uf2", "--board", "ko", "-o", "/nonexistent-dir/x.uf2"],
     "the folder /nonexistent-dir does not exist"),
])
def test_bad_arguments_exit_2_with_one_line_and_write_nothing(argv, msg, capsys, tmp_path,
                                                              monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert msg in err and len(err.strip().splitlines()) == 1
    assert os.listdir(tmp_path) == []
