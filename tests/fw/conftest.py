# pytest (CPython) only: put the firmware, its CPython shims and these helpers on sys.path,
# the way tests/mpvm.py does inside the MicroPython VM.
import fwpaths  # noqa: F401
