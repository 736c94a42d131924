"""The parts: the catalogue of every part designed for, with its pins read from KiCad 6's
symbols (or a datasheet's table), its package's dimensions, its footprint and its LCSC
number; the footprints' pads as geometry; drawings of the parts KiCad lacks."""
