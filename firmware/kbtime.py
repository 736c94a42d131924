# MicroPython's wrapping millisecond ticks; CPython (tests, simulator) gets the same
# semantics, including the 2**30 wrap, so wrap bugs show up off the device too.
try:
    from time import ticks_ms, ticks_diff, ticks_add  # noqa: F401
except ImportError:
    import time as _t

    _PERIOD = 1 << 30
    _HALF = 1 << 29

    def ticks_ms():  # type: ignore[misc]
        return int(_t.monotonic() * 1000) & (_PERIOD - 1)  # type: ignore[attr-defined]

    def ticks_diff(a, b):  # type: ignore[misc]
        return ((a - b + _HALF) & (_PERIOD - 1)) - _HALF

    def ticks_add(a, d):  # type: ignore[misc]
        return (a + d) & (_PERIOD - 1)
