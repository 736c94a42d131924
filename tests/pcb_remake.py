"""A board placed, routed and written again (pcb.make into a scratch folder) and compared
byte for byte with the committed one, its BOM and CPL: the test command regenerates every
board. KNOCKabout's alone takes ~2.5 CPU-minutes of the ~5, so it has its own test file
(tests/test_pcb_knockabout.py), which the test workers run beside tests/test_pcb.py."""

import os
import subprocess

import pytest

from hardware import pcb

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PCB = os.path.join(ROOT, "hardware", "pcb")
LONGEST = "cellboard-knockabout"


@pytest.fixture(scope="module")
def kicad():
    """KiCad's pcbnew under Debian's Python, or the test fails in CI (skips elsewhere)."""
    ok = os.path.exists(pcb.KICAD_PYTHON) and subprocess.run(
        [pcb.KICAD_PYTHON, "-c", "import pcbnew"], capture_output=True).returncode == 0
    if not ok:
        msg = "KiCad's pcbnew missing: apt-get install kicad kicad-footprints"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)


def board_names():
    return [b[0] for b in pcb.boards(ROOT)]


def differences(name, tmp_path):
    """The files of board `name` that a new build makes differently from the committed."""
    (text, extra, plan_maker), = [b[1:] for b in pcb.boards(ROOT) if b[0] == name]
    pcb.make(name, text, plan_maker, pcb.inputs_hash(name, text, extra), str(tmp_path),
             str(tmp_path / "renders"), log=lambda *_: None)
    differ = []
    for suffix in (".kicad_pcb", "-bom.csv", "-cpl.csv"):
        with open(os.path.join(PCB, name + suffix), "rb") as committed:
            if (tmp_path / (name + suffix)).read_bytes() != committed.read():
                differ.append(name + suffix)
    return differ
