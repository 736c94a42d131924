"""The firmware's own core modules, loaded from `firmware/` (the files flashed to the Pico)
for the simulator, and the board configurations they are built with.

The firmware imports its modules by plain names (`import protocol`, `from keys import ...`).
Putting firmware/ on sys.path for good would shadow or be shadowed by any other top-level
`protocol`, `board` or `display` module in the host process, so the core is imported once
with firmware/ (and its CPython shims) on the path and then taken out of sys.modules again:
the simulator holds its own references, nothing else sees the names.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
from types import SimpleNamespace

from .. import resources
from ..device.flash import FIRMWARE_DIR

SHIM_DIR = os.path.join(FIRMWARE_DIR, "shim")
# What the device loop needs; the rest (protocol, keys, scene, ...) comes along as theirs.
_ENTRY = ("app", "board", "keys", "scene", "sound")

_lock = threading.Lock()
_core: SimpleNamespace | None = None


class FirmwareMissing(RuntimeError):
    """The installation's firmware/ lacks the modules the simulator runs."""


def _module_names() -> set[str]:
    names = set()
    for folder in (FIRMWARE_DIR, SHIM_DIR):
        for f in os.listdir(folder):
            if f.endswith(".py"):
                names.add(f[:-3])
    return names


def load() -> SimpleNamespace:
    """The firmware core as a namespace of modules (`.app`, `.board`, `.keys`, `.scene`,
    `.sound`), imported from firmware/ once per process."""
    global _core
    with _lock:
        if _core is not None:
            return _core
        if not os.path.isfile(os.path.join(FIRMWARE_DIR, "app.py")):
            raise FirmwareMissing(f"the simulator runs the firmware in {FIRMWARE_DIR}, which "
                                  "is missing: reinstall Knockboard")
        names = _module_names()
        saved = {n: sys.modules.pop(n) for n in names if n in sys.modules}
        saved_path = list(sys.path)
        sys.path[:0] = [FIRMWARE_DIR, SHIM_DIR]
        try:
            mods = {n: importlib.import_module(n) for n in _ENTRY}
        finally:
            sys.path[:] = saved_path
            for n in names:
                sys.modules.pop(n, None)
            sys.modules.update(saved)
        _core = SimpleNamespace(**mods)
        return _core


_read_json = resources.firmware_json
board_ids = resources.board_names


def make_config(board_id: str = "knockabout", **local):
    """The firmware's own Config for `board_id`, as board.json on a Pico would give it;
    `local` holds further board.json keys (led_budget_ma, debounce_ms, queue_size).
    ValueError with the firmware's message for an unknown board or a bad value."""
    core = load()
    local["board"] = board_id
    try:
        return core.board.make(_read_json("boards.json"), _read_json("pinmap.json"), local)
    except core.board.ConfigError as err:
        raise ValueError(str(err)) from None
