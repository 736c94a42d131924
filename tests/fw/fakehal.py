# The tests' HAL is the simulator's: one implementation, host/knockboard/sim/hal.py. On
# CPython it comes from the package; the MicroPython VM gets the same file as
# /tests/simhal.py (tests/mpvm.py copies it there).
try:
    from knockboard.sim.hal import SimHal as FakeHal  # noqa: F401
except ImportError:
    from simhal import SimHal as FakeHal  # noqa: F401
