"""A board placed, routed and written again (pcb.make into a scratch folder) and compared
byte for byte with the committed one, its BOM and CPL: the test command regenerates every
board (~2 CPU-minutes, benchmarks/route_boards.py). KNOCKabout's alone takes ~0.8 of them, so
it has a test file of its own; this folder is collected first and the suite keeps the
collection's order (`--no-loadscope-reorder` in pyproject.toml), so the two test workers
start with the two files side by side instead of ending with them."""

import os

from hardware import pcbs

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PCB = os.path.join(ROOT, "hardware", "pcb")
LONGEST = "cellboard-knockabout"


def board_names():
    return [b[0] for b in pcbs.boards(ROOT)]


def differences(name, tmp_path):
    """The files of board `name` that a new build makes differently from the committed, and
    its net order (hardware/routing/net_order.json) if that no longer routes it in one pass."""
    (text, extra, plan_maker), = [b[1:] for b in pcbs.boards(ROOT) if b[0] == name]
    plan = pcbs.make(name, text, plan_maker, pcbs.inputs_hash(name, text, extra),
                     str(tmp_path), str(tmp_path / "renders"), log=lambda *_: None)
    differ = [] if plan.passes == 1 else [f"net order: {plan.passes} passes, one from "
                                          f"{plan.route_order}"]
    for suffix in (".kicad_pcb", "-bom.csv", "-cpl.csv"):
        with open(os.path.join(PCB, name + suffix), "rb") as committed:
            if (tmp_path / (name + suffix)).read_bytes() != committed.read():
                differ.append(name + suffix)
    return differ
