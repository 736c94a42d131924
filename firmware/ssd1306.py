# Minimal SSD1306 128x64 I2C driver: init and page-wise writes of a MONO_VLSB buffer, so
# the main loop can push one 128-byte page per pass instead of blocking ~25 ms for a screen.
from micropython import const

_INIT = (
    0xAE,        # display off
    0x20, 0x00,  # horizontal addressing
    0x40,        # start line 0
    0xA1,        # column 127 -> SEG0
    0xA8, 0x3F,  # 64 rows
    0xC8,        # COM scan from the bottom
    0xD3, 0x00,  # no vertical offset
    0xDA, 0x12,  # alternative COM pins (128x64 modules)
    0xD5, 0x80,  # clock divide
    0xD9, 0xF1,  # precharge (internal charge pump)
    0xDB, 0x30,  # VCOMH
    0x81, 0xCF,  # contrast
    0xA4,        # show RAM
    0xA6,        # not inverted
    0x8D, 0x14,  # charge pump on
    0xAF,        # display on
)
PAGES = const(8)


class SSD1306:
    def __init__(self, i2c, addr=0x3C):
        self.i2c = i2c
        self.addr = addr
        self.cmd = bytearray(2)
        self.win = bytearray(b"\x00\x21\x00\x7f\x22\x00\x00")
        self.ctl = b"\x40"
        for c in _INIT:
            self.command(c)

    def command(self, c):
        self.cmd[0] = 0x00  # Co=0, D/C=0: command
        self.cmd[1] = c
        self.i2c.writeto(self.addr, self.cmd)

    def write_page(self, buf, page):
        w = self.win
        w[5] = page
        w[6] = page
        self.i2c.writeto(self.addr, w)
        self.i2c.writevto(self.addr, (self.ctl, memoryview(buf)[page * 128:page * 128 + 128]))

    def power(self, on):
        self.command(0xAF if on else 0xAE)
