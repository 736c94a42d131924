"""Where the files Knockboard reads at run time are: the firmware (firmware/, with
boards.json and pinmap.json) and the MicroPython image and boot ROM (rp2040-image/).

They live at the top of the repository, where the firmware's and the hardware's people work
on them. A built wheel or sdist carries them as package data, `knockboard/_data/firmware` and
`knockboard/_data/rp2040-image` (copied there by setup.py's build step), found through
importlib.resources; a checkout (an editable install, or tests run with host/ on the path)
has no `_data` and reads the top-level folders. Every module that reads these files asks here.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

FIRMWARE = "firmware"
RP2040_IMAGE = "rp2040-image"
RULES = "docs/rules"         # the games' rules pages (`knockboard rules` reads them)
# the folder inside the package that a built wheel carries them in (setup.py writes it)
PACKAGE_DATA = "_data"


class DataMissing(RuntimeError):
    """The installed package lacks a folder it needs (a broken or partial install)."""


def _checkout_root() -> Path:
    # host/knockboard/ -> the repository root
    return Path(str(resources.files("knockboard"))).resolve().parents[1]


def data_dir(name: str) -> Path:
    """The folder `name` (FIRMWARE, RP2040_IMAGE or RULES) on the file system: the package's own
    copy in an installed wheel, else the checkout's top-level folder. The firmware is put on
    sys.path and mpy-cross reads its files, so a real folder is needed (pip never installs a
    wheel zipped)."""
    packaged = resources.files("knockboard") / PACKAGE_DATA / name
    if packaged.is_dir():
        return Path(str(packaged))
    checkout = _checkout_root() / name
    if checkout.is_dir():
        return checkout
    raise DataMissing(f"Knockboard's {name}/ is missing from this installation "
                      f"(looked in {packaged} and {checkout}): reinstall Knockboard")


def firmware_dir() -> Path:
    return data_dir(FIRMWARE)


def image_dir() -> Path:
    return data_dir(RP2040_IMAGE)


def rules_page(game: str) -> str:
    """docs/rules/<game>.md, the rules as implemented."""
    return (data_dir(RULES) / f"{game}.md").read_text(encoding="utf-8")


def firmware_json(name: str):
    """firmware/boards.json or firmware/pinmap.json, parsed."""
    return json.loads((firmware_dir() / name).read_text())


def firmware_version() -> str:
    """The VERSION of firmware/version.py (what the board reports in its handshake)."""
    text = (firmware_dir() / "version.py").read_text()
    m = re.search(r'^VERSION = "([^"]+)"', text, re.M)
    if not m:
        raise DataMissing("firmware/version.py has no VERSION")
    return m.group(1)


def board_names() -> list[str]:
    """The boards the firmware knows (the keys of firmware/boards.json), sorted."""
    return sorted(firmware_json("boards.json"))
