"""The games' layouts as the hardware sees them: knockboard's game registry (this
checkout's), each game's cells, its LED chain's length, and firmware/boards.json."""

import json
import math
import os

from .pinmap import ROOT

BOARDS = os.path.join(ROOT, "firmware", "boards.json")


def load_boards(path=BOARDS):
    with open(path) as f:
        return json.load(f)


def registry():
    """knockboard's game registry, where every game's parts are registered: this
    checkout's, whatever copy of knockboard is installed."""
    import sys
    host = os.path.join(ROOT, "host")
    if host not in sys.path:
        sys.path.insert(0, host)
    from knockboard import registry as reg
    return reg


def get_layout(game):
    registry()
    from knockboard.layouts import get_layout as gl
    return gl(game)


def game_names():
    return registry().names()


def cells(game, boards=None):
    """[(cell index, space, row, col, x mm, y mm)] in LED chain order."""
    b = (boards or load_boards())[game]
    lay = get_layout(game)
    if len(lay.cells) != b["cells"]:
        raise ValueError(f"{game}: layout has {len(lay.cells)} cells, boards.json {b['cells']}")
    return [(c.index, c.space, c.index // b["cols"], c.index % b["cols"], c.x, c.y)
            for c in lay.cells]


def chain_length_mm(game, boards=None):
    """The LED chain's length from cell to cell: the path the +5V and GND rails follow."""
    cs = cells(game, boards)
    return sum(math.dist(a[4:6], b[4:6]) for a, b in zip(cs, cs[1:]))
