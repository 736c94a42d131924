"""Runs the pcbnew scripts of this folder under Debian's /usr/bin/python3 (the project's
Python has no pcbnew): the one way the rest of hardware/ reaches KiCad."""

import os
import subprocess

KICAD_PYTHON = "/usr/bin/python3"


HERE = os.path.dirname(os.path.abspath(__file__))


class PcbError(RuntimeError):
    pass


def kicad(*args, timeout=600):
    """Run hardware/kicad/board_file.py under Debian's Python (pcbnew); its last output line."""
    r = subprocess.run([KICAD_PYTHON, os.path.join(HERE, "board_file.py"), *args],
                       capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise PcbError(f"board_file.py {args[0]} failed: {r.stderr.strip().splitlines()[-1:]}")
    return r.stdout.strip().splitlines()[-1]
