# CPython stand-in for MicroPython's `micropython` module, so the firmware core imports
# unchanged in tests and the simulator. Never copied to the board (the real one is built in).


def const(x):
    return x


def native(f):
    return f


viper = native


def kbd_intr(chr):
    pass


def mem_info(*args):
    pass
