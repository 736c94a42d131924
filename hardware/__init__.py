"""Knockboard hardware as code: the controller schematic (SKiDL), the per-game cell boards,
their netlists, BOM, ERC report, rendered schematics, printable overlays and power budget.

Regenerate every committed output with ``python3 -m hardware.build`` (see docs/build.md)."""
