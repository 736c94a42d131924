# Which supply feeds the LEDs, and the LED current budget that goes with it. The controller
# tells the firmware itself (hardware/schematic/controller.py): GP15 reads the 5 V jack's protected
# output (high only while the jack passes its 4.3-5.7 V window and feeds the LED rail; the
# USB switch is then off), the Pico's GP24 reads USB VBUS. So a board flashed with any budget
# never draws the jack's budget from a USB port: the budget follows the supply, and a
# board.json led_budget_ma can only lower it.
from micropython import const

from kbtime import ticks_diff

NONE = const(0)  # neither seen: a HAL that cannot tell; treated like USB (the safe budget)
USB = const(1)
JACK = const(2)
# hal.supply() bits
USB_BIT = const(1)
JACK_BIT = const(2)
POLL_MS = const(10)  # a pulled jack: the USB switch's enable delay is ~200 ms, so the
# budget is down long before USB can feed the rail


# The supply feeding the LED rail from hal.supply()'s bits: the jack whenever it is up (it
# wins: Q3 holds the USB switch off), else USB, else NONE. (Comments, not docstrings: in a
# source install every docstring stays in the heap, and the firmware's is counted.)
def which(bits):
    if bits & JACK_BIT:
        return JACK
    if bits & USB_BIT:
        return USB
    return NONE


# The LED budget on `supply`: the jack's on the jack, USB's otherwise (an unknown supply
# gets the smaller); `cap_ma` (board.json, or None) can only lower it.
def budget_ma(supply, usb_ma, jack_ma, cap_ma):
    b = jack_ma if supply == JACK else usb_ma
    if cap_ma is not None and cap_ma < b:
        return cap_ma
    return b


# Reads the supply every POLL_MS and keeps the limiter's budget on it. poll() is True when
# the budget changed, so the scene can be limited again at once.
class SupplyWatch:

    def __init__(self, hal, cfg, limiter, now):
        self.hal = hal
        self.usb_ma = cfg.usb_budget_ma
        self.jack_ma = cfg.jack_budget_ma
        self.cap_ma = cfg.budget_cap_ma
        self.limiter = limiter
        self.supply = -1
        self.last = now
        self.read()

    def read(self):
        s = which(self.hal.supply())
        if s == self.supply:
            return False
        self.supply = s
        b = budget_ma(s, self.usb_ma, self.jack_ma, self.cap_ma)
        changed = b != self.limiter.budget
        self.limiter.budget = b
        return changed

    def poll(self, now):
        if ticks_diff(now, self.last) < POLL_MS:
            return False
        self.last = now
        return self.read()
