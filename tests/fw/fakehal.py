# A HAL made of plain buffers, for the firmware core tests on CPython and MicroPython.


class FakeHal:
    def __init__(self, cfg, t0=0):
        self.cfg = cfg
        self.now = t0
        self.rx = bytearray()
        self.rx_pos = 0
        self.tx = bytearray()
        self.keys = [0] * (cfg.rows + 1)
        self.leds = bytearray(3 * cfg.cells)
        self.led_writes = 0
        self.screen = bytearray(1024)
        self.screen_writes = 0
        self.tones = []
        self.fed = 0
        self.released = False

    def ticks_ms(self):
        return self.now

    def read_byte(self):
        if self.rx_pos < len(self.rx):
            b = self.rx[self.rx_pos]
            self.rx_pos += 1
            if self.rx_pos == len(self.rx):
                self.rx = bytearray()
                self.rx_pos = 0
            return b
        return -1

    def pending_input(self):
        return len(self.rx) - self.rx_pos

    def write(self, mv):
        self.tx.extend(mv)

    def take_tx(self):
        out = bytes(self.tx)
        self.tx = bytearray()
        return out

    def scan(self, raw):
        for i in range(len(self.keys)):
            raw[i] = self.keys[i]

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

    def show_leds(self, grb):
        self.leds[:] = grb
        self.led_writes += 1

    def show_display(self, buf):
        self.screen[:] = buf
        self.screen_writes += 1

    def tone(self, f):
        self.tones.append((self.now, f))

    def feed(self):
        self.fed += 1

    def idle(self):
        self.now += 1

    def release(self):
        self.released = True
