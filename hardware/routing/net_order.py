"""The order each board's nets were routed in when its last build ended: the nets that
route.route put first after a pass that failed (`first`), and those that failed in the
pass before the last (`last`, routed before all others). A build starts from it, so a
board whose inputs did not change routes in one pass instead of again failing its way
there (the controller took 8 passes, KNOCKabout's cell board 2: about two thirds of the
boards' routing time).

It is an input of the board like its netlist (hardware/inputs_hash.py hashes it): the
pass it starts is the same pass, net for net, as the build's last, so the board comes out
the same. A build that needed more passes writes the order it ended with here and routes
once more from it (hardware/pcbs.py, build_all)."""

import json
import os
from typing import Dict, List

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "net_order.json")
EMPTY: Dict[str, List[str]] = {"first": [], "last": []}


def read(path=None):
    """{board: {"first": [net], "last": [net]}} (of `path`, default PATH); {} without the
    file."""
    path = path or PATH
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


def of(board, path=None):
    """The board's order ({"first": [...], "last": [...]}), empty for a board not in it."""
    order = read(path).get(board, EMPTY)
    return {"first": list(order["first"]), "last": list(order["last"])}


def text(board, path=None):
    """The board's order as the inputs hash reads it."""
    return json.dumps(of(board, path), sort_keys=True)


def write(board, order, path=None):
    """Keep `order` as the board's, the file's boards sorted, one a line."""
    path = path or PATH
    orders = read(path)
    orders[board] = {"first": sorted(order["first"]), "last": sorted(order["last"])}
    with open(path, "w") as f:
        f.write("{\n" + ",\n".join(f"  {json.dumps(b)}: {json.dumps(orders[b], sort_keys=True)}"
                                   for b in sorted(orders)) + "\n}\n")
