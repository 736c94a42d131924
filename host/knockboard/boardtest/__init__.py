"""The guided board test (`knockboard boardtest`, and "Board test" in the board's menu):
each cell lit in turn, its key awaited, and what is wrong named in a maker's words.

`wiring.py` says where each cell's parts and lines are, `guide.py` is the test itself (a
state machine fed with the board's events), `findings.py` turns what it saw into faults
to fix, `runner.py` runs it on a connected board."""

from .findings import Finding, diagnose
from .guide import BoardTest
from .wiring import Wiring

__all__ = ["BoardTest", "Finding", "Wiring", "diagnose"]
