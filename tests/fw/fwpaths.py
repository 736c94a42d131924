# Where the firmware and the shared data live: the repository on CPython, fixed paths in
# the MicroPython VM (tests/mpvm.py copies them there).
import sys

if sys.implementation.name == "micropython":
    FW = "/fw/"
    DATA = "/data/"
    MICROPYTHON = True
else:
    import os

    _root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    FW = os.path.join(_root, "firmware") + os.sep
    DATA = os.path.join(_root, "docs") + os.sep
    MICROPYTHON = False
    for _p in (FW, FW + "shim", os.path.dirname(os.path.abspath(__file__))):
        if _p not in sys.path:
            sys.path.insert(0, _p)


def load_json(name):
    import json
    with open(DATA + name) as f:
        return json.load(f)


def unhex(s):
    return bytes(int(s[i:i + 2], 16) for i in range(0, len(s), 2))


def make_cfg(board="knockabout", **local):
    import board as B
    with open(FW + "boards.json") as f:
        import json
        boards = json.load(f)
    with open(FW + "pinmap.json") as f:
        pins = json.load(f)
    local["board"] = board
    return B.make(boards, pins, local)
