"""The real firmware image on an emulated RP2040: board.mjs runs rp2040js (npm) under
Node.js with the committed boot ROM and a board's UF2, and models the parts around the
chip; EmulatedBoard drives it from Python and bridges its USB serial port to a
pseudo-terminal (`knockboard sim --rp2040`, tests/rp2040/, benchmarks/rp2040.py)."""

from .emulated import (BOARD_MJS, PINMAP, REALTIME_MHZ, WALL_NET, EmulatedBoard,
                       EmulatorMissing, node, raw_exec)

__all__ = ["BOARD_MJS", "PINMAP", "REALTIME_MHZ", "WALL_NET", "EmulatedBoard",
           "EmulatorMissing", "node", "raw_exec"]
