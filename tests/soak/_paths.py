"""Soak scripts run from anywhere: the repository's host package and the reliability
helpers first on sys.path (these scripts are not collected by pytest: no test_ prefix)."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for sub in ("host", os.path.join("tests", "reliability"), os.path.join("tests", "session"),
            "tests"):
    path = os.path.join(ROOT, sub)
    if path not in sys.path:
        sys.path.insert(0, path)
