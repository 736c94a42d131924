"""Wiring faults of a badly built cell board, for the simulator (`VirtualBoard.inject`): what
the firmware then reads from the key matrix and what the LED chain then shows.  Each fault
is modelled on the circuit of hardware/schematic/cell_board.py and the controller (74HC595
rows driven high and low, one at a time; columns pulled up; one diode per key, anode to the
key):

- `dark_chain_from`: the WS2812 chain broken at that LED (dead LED, open DIN/DOUT, no power):
  it and every later LED stay dark;
- `dark_leds`: LEDs that pass the data on but give no light;
- `dead_keys`: keys that never conduct (open joint; a missing or reversed diode, which on
  this matrix never conducts);
- `swapped_cols` / `swapped_rows`: two lines crossed between the keys and the controller;
- `bridged_cols`: two column lines touching (a solder bridge): either reads low, both do;
- `grounded_cols`: column lines shorted to GND: they read low on every row."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass
class Faults:
    dark_chain_from: Optional[int] = None
    dark_leds: frozenset = frozenset()
    dead_keys: frozenset = frozenset()
    swapped_cols: tuple = ()       # pairs (a, b)
    swapped_rows: tuple = ()
    bridged_cols: tuple = ()
    grounded_cols: frozenset = frozenset()

    def leds(self, grb) -> bytes:
        out = bytearray(grb)
        for led in self.dark_leds:
            out[3 * led:3 * led + 3] = bytes(3)
        if self.dark_chain_from is not None:
            start = 3 * self.dark_chain_from
            out[start:] = bytes(len(out) - start)
        return bytes(out)

    def keys(self, rows: list, cfg) -> list:
        """The raw rows the firmware reads, given the switches held (`rows`, as built)."""
        n = cfg.rows
        held = [(r, c) for r in range(n) for c in range(16) if rows[r] >> c & 1
                and r * cfg.cols + c not in self.dead_keys]
        cols, rws = _mapping(self.swapped_cols), _mapping(self.swapped_rows)
        out = [0] * n + [rows[n]]
        for r, c in held:
            out[rws.get(r, r)] |= 1 << cols.get(c, c)
        for r in range(n):
            for a, b in self.bridged_cols:
                if out[r] >> a & 1 or out[r] >> b & 1:
                    out[r] |= 1 << a | 1 << b
            for c in self.grounded_cols:
                out[r] |= 1 << c
        return out


def _mapping(pairs: tuple) -> dict:
    out = {}
    for a, b in pairs:
        out[a], out[b] = b, a
    return out
