"""The simulator: the firmware's own core modules (firmware/, the files flashed to the Pico)
on simulated hardware, driven by a script (VirtualBoard), reached by a host through an
in-process transport (tests) or a pseudo-terminal (`knockboard play --port <pty>`), and
drawn in a Tk window (`knockboard sim`)."""

from .clock import RealClock, SimClock
from .hal import SimHal
from .pty import PtyPort, start_pty
from .transport import SimTransport
from .virtual import CellLight, Oled, SimError, VirtualBoard

__all__ = ["CellLight", "Oled", "PtyPort", "RealClock", "SimClock", "SimError", "SimHal",
           "SimTransport", "VirtualBoard", "start_pty"]
