# The simulated hardware layer: app.Device calls these methods where on the Pico it calls
# hal_rp2.HalRp2; here they are plain buffers. The simulator and the firmware tests share
# this one class, and the tests also run it inside the MicroPython VM (copied there as
# /tests/simhal.py), so it is written in the subset both Pythons run: no typing, no
# dataclasses, no f-strings.

MAX_TONES = 512  # the tone log is trimmed past this, so an unread long session stays small


class SimHal:
    def __init__(self, cfg, t0=0):
        self.cfg = cfg
        self.now = t0
        self.rx = bytearray()  # bytes from the host, not yet read by the firmware
        self.rx_pos = 0
        self.tx = bytearray()  # bytes the firmware wrote, not yet taken by the host side
        self.keys = [0] * (cfg.rows + 1)  # raw matrix rows, then the control row
        self.leds = bytearray(3 * cfg.cells)  # GRB, as the WS2812 chain gets it
        self.led_writes = 0
        self.screen = bytearray(1024)  # the OLED: 128x64, SSD1306 page layout (MONO_VLSB)
        self.screen_writes = 0
        self.tones = []  # (time ms, frequency Hz; 0 = silent) per change of the buzzer
        self.tone_hz = 0
        self.fed = 0
        self.released = False
        # the supply the firmware reads (firmware/supply.py bits: 1 USB VBUS, 2 the 5 V
        # jack): a simulated board hangs on a USB cable
        self.supply_bits = 1
        # wiring faults a test injects between the switches/LEDs and the firmware (an
        # object with keys(rows, cfg) -> rows read and leds(grb) -> grb shown, such as
        # knockboard.sim.faults.Faults); None: the board as designed
        self.faults = None

    # -- time and serial --
    def ticks_ms(self):
        return self.now

    def read_into(self, buf):
        # what the host has sent, up to len(buf); like hal_rp2, it stops after a Ctrl-C
        rx = self.rx
        n = 0
        while n < len(buf) and self.rx_pos < len(rx):
            b = rx[self.rx_pos]
            self.rx_pos += 1
            buf[n] = b
            n += 1
            if b == 3:
                break
        if n and self.rx_pos == len(rx):
            self.rx = bytearray()
            self.rx_pos = 0
        return n

    def pending_input(self):
        return len(self.rx) - self.rx_pos

    def write(self, mv):
        self.tx.extend(mv)

    def take_tx(self):
        out = bytes(self.tx)
        self.tx = bytearray()
        return out

    # -- keys: the simulated switches, and the scan the firmware runs over them --
    def scan(self, raw):
        keys = self.keys if self.faults is None else self.faults.keys(self.keys, self.cfg)
        for i in range(len(keys)):
            raw[i] = keys[i]

    def press(self, cell, down=True):
        r, c = divmod(cell, self.cfg.cols)
        if down:
            self.keys[r] |= 1 << c
        else:
            self.keys[r] &= ~(1 << c)

    def control(self, i, down=True):
        r = self.cfg.rows
        if down:
            self.keys[r] |= 1 << i
        else:
            self.keys[r] &= ~(1 << i)

    def supply(self):
        return self.supply_bits

    def plug(self, usb=True, jack=False):
        """Connects or removes the simulated supplies."""
        self.supply_bits = (1 if usb else 0) | (2 if jack else 0)

    # -- outputs --
    def leds_ready(self):
        return True  # the simulated chain takes a frame at once

    def show_leds(self, grb):
        self.leds[:] = grb if self.faults is None else self.faults.leds(grb)
        self.led_writes += 1

    def show_display(self, buf):
        self.screen[:] = buf
        self.screen_writes += 1

    def tone(self, f):
        self.tone_hz = f
        self.tones.append((self.now, f))
        if len(self.tones) > MAX_TONES:
            del self.tones[:MAX_TONES // 2]

    def feed(self):
        self.fed += 1

    def idle(self):
        self.now += 1

    def release(self):
        self.released = True
