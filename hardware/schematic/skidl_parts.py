"""SKiDL, quietly: no log, ERC or library files in the working directory, no console chatter; ERC
messages are collected for the report. Parts come from the catalogue in
hardware/parts/catalogue.py."""

import contextlib
import io
import logging
import os
import re
import sys

with contextlib.redirect_stderr(io.StringIO()):   # "KICAD*_SYMBOL_DIR is missing": not needed
    from skidl import KICAD8, POWER, SKIDL, TEMPLATE, Circuit, Net, Part, Pin
    from skidl import circuit as skidl_circuit, node as skidl_node, scriptinfo
    from skidl.logger import erc_logger, rt_logger

from ..parts.catalogue import CATALOGUE

SKIDL_DIR = os.path.dirname(scriptinfo.__file__)


def skidl_trace():
    """What SKiDL's own `get_skidl_trace` gives (where a part or net was made: (file, line)
    of each calling frame outside SKiDL, oldest first), from the frames themselves. SKiDL's
    takes `inspect.stack()`, which reads each frame's source lines from its file only to
    throw them away: about 6 of the 19 s that `hardware.build --no-pcb` took."""
    frames = []
    frame = sys._getframe(1)
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    return [(os.path.abspath(f.f_code.co_filename), str(f.f_lineno)) for f in reversed(frames)
            if not f.f_code.co_filename.startswith(SKIDL_DIR)]


skidl_circuit.get_skidl_trace = skidl_trace        # (the names SKiDL 3 calls it by)
skidl_node.get_skidl_trace = skidl_trace


def _stop_file_output(logger):
    """Close SKiDL's log files and remove them. They are named alike in the working folder for
    every process, so another one importing SKiDL there (a second test worker, a second build)
    may have removed the file already: that is not an error."""
    for handler in list(logger.log_file_handlers):
        handler.close()
        if handler.filename:
            with contextlib.suppress(FileNotFoundError):
                os.remove(handler.filename)
        handler.filename = None
        logger.removeHandler(handler)


for _logger in (erc_logger, rt_logger):
    _stop_file_output(_logger)
    for _h in list(_logger.handlers):
        if isinstance(_h, logging.StreamHandler):
            _logger.removeHandler(_h)

_TEMPLATES: dict = {}


def template(key):
    if key not in _TEMPLATES:
        d = CATALOGUE[key]
        pins = [Pin(num=num, name=name, func=getattr(Pin.types, func))
                for num, name, func in d.pins]
        _TEMPLATES[key] = Part(tool=SKIDL, name=d.name, ref_prefix=d.prefix, dest=TEMPLATE,
                               footprint=d.footprint, description=d.description,
                               datasheet=d.datasheet, pins=pins)
    return _TEMPLATES[key]


def part(key, ref, block, value=None, **fields):
    """One part from the catalogue with a fixed reference (also its tag, so the netlist's
    time stamps are stable) and the fields KiCad and the BOM read."""
    d = CATALOGUE[key]
    p = template(key)(value=value or d.value, ref=ref, tag=ref)
    p.fields["Manufacturer"] = d.manufacturer
    p.fields["MPN"] = d.mpn
    p.fields["Block"] = block
    p.fields["Catalogue"] = key
    for k, v in fields.items():
        p.fields[k] = str(v)
    return p


def supply(name):
    """A net driven by a supply (KiCad's PWR_FLAG): the jack, USB VBUS, a regulator output
    or a supply reached through a diode or a fuse."""
    n = Net(name)
    n.drive = POWER
    return n


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.lines = []

    def emit(self, record):
        self.lines.append(f"{record.levelname}: {record.getMessage()}")


def run_erc(circuit):
    """SKiDL's ERC on `circuit`; returns (errors, warnings, lines of the report)."""
    h = _Collect()
    erc_logger.addHandler(h)
    try:
        circuit.ERC()
    finally:
        erc_logger.removeHandler(h)
    lines = [ln for ln in h.lines if " found while running ERC" not in ln]
    errors = sum(1 for ln in lines if ln.startswith(("ERROR", "CRITICAL")))
    warnings = sum(1 for ln in lines if ln.startswith("WARNING"))
    return errors, warnings, lines


def netlist_text(circuit, source):
    """The KiCad (version E/KiCad 8) netlist of `circuit` as text. The source line names the
    generator instead of the running script, so the file does not depend on how it was run."""
    circuit.no_files = True
    with contextlib.redirect_stderr(io.StringIO()):   # "Missing tag" on the root node: harmless
        text = str(circuit.generate_netlist(tool=KICAD8, do_backup=False, track_src=False))
    text = re.sub(r'\(source "[^"]*"\)', f'(source "{source}")', text)
    return text if text.endswith("\n") else text + "\n"


def new_circuit():
    c = Circuit()
    c.no_files = True
    return c
