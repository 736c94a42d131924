"""The overlay registration marks: where they are on each game's cell board, for the PCB, the
printed overlay and the printed frame alike, so the three layers stack in register.

The PCB places them (hardware/placement/cell_board_layout.py: three per board or tile, near its
corners, where no cell, part or mounting hole is; a fiducial with a 5 mm silkscreen cross).
Everything else reads them from here, and here they come from that same placement: the plans of
hardware/pcbs.py's boards, made from the committed netlists the PCBs are made from, with each tile's
marks moved back to the layout's coordinates (the overlay's, and the ones the .kicad_pcb files use).
So a mark moves on the overlay and the frame when it moves on the PCB.

On the overlay a mark is a cross-hair with a PIN_HOLE circle at its centre; the frame has a
PIN_HOLE hole through it there. A piece of 1.75 mm filament pushed through the overlay's
circle into the frame's hole lines the sheet up with the frame, and the PCB's fiducial at the
bottom of that hole shows the frame sits on the board where it should."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from ..inputs.pinmap import ROOT

PIN_HOLE = 1.9          # a hole a 1.75 mm filament piece (or a pin) passes through
CROSS = 2.5             # half the cross-hair's length, as the PCB's silkscreen cross


class Mark(NamedTuple):
    board: str          # the PCB (or tile) that carries it: "cellboard-knockoff-tile2"
    number: int         # its number on that board (FID1..FID3 on the PCB)
    x: float            # in the layout's millimetres (the overlay's, and the PCB file's)
    y: float


@lru_cache(maxsize=None)
def _every(root: str) -> dict:
    from .. import pcbs  # pcb imports build, which draws the overlays from here
    out: dict = {}
    for name, _, _, make in pcbs.boards(root):
        if not name.startswith("cellboard-"):
            continue
        plan = make()
        ox, oy = plan.origin
        out.setdefault(name.split("-")[1], []).extend(
            Mark(name, k, round(x + ox, 4), round(y + oy, 4))
            for k, (x, y) in enumerate(plan.marks, 1))
    return out


def marks(game: str, root: str = ROOT) -> tuple:
    """Every registration mark of game's cell board (all its tiles), as placed on its PCB."""
    return tuple(_every(root).get(game, ()))


def forget() -> None:
    """Read the netlists again (the build calls this after writing new ones)."""
    _every.cache_clear()
