"""Knockboard: the host side of a smart board for dice-driven knock games."""

__version__ = "0.1.0"
