"""The generated files: compared without their time stamps, written only where they changed."""

import os
import re

DATE = re.compile(r'^\s*\(date "[^"]*"\)\s*$', re.M)


def normalise(text):
    """A generated file without its time stamps, for comparing two generations."""
    return DATE.sub("", text)


def write(root, files):
    """Writes the files that changed (but for their date) under root; their paths."""
    written = []
    for rel, text in sorted(files.items()):
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        old = None
        if os.path.exists(path):
            with open(path) as f:
                old = f.read()
        if old is not None and normalise(old) == normalise(text):
            continue          # unchanged but for the date: keep the file as it is
        with open(path, "w") as f:
            f.write(text)
        written.append(rel)
    return written
