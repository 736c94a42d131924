"""A QR code of the page's address, printed in the terminal for a phone to scan: an encoder
of ISO/IEC 18004 for what an address needs (byte mode, error correction level L, versions 1
to 5: up to 106 bytes, where an http:// address of an IPv4 host is at most 29), and its
drawing in half-block characters, two modules a character cell."""

from __future__ import annotations

# version -> (data codewords, error correction codewords) at level L: one block each
CAPACITY = {1: (19, 7), 2: (34, 10), 3: (55, 15), 4: (80, 20), 5: (108, 26)}
ALIGNMENT = {1: None, 2: 18, 3: 22, 4: 26, 5: 30}     # the one pattern's centre (row = col)
LEVEL_L = 1                                            # its format bits
QUIET = 2                                              # light modules round the code


class QrTooLong(ValueError):
    """Text this encoder cannot hold."""


def qr_matrix(text: str) -> list[list[bool]]:
    """The modules of `text`'s QR code, rows of True (dark) and False (light)."""
    if not text.isascii():
        # byte mode names no character set and decoders guess one: an address is ASCII
        raise QrTooLong("a QR code here holds ASCII text only")
    data = text.encode("ascii")
    version = next((v for v, (n, _) in CAPACITY.items() if len(data) + 2 <= n), None)
    if version is None:
        raise QrTooLong(f"{len(data)} bytes do not fit a version {max(CAPACITY)} QR code")
    codewords = _codewords(data, *CAPACITY[version])
    best = None
    for mask in range(8):
        code = _Code(version)
        code.place(codewords)
        code.apply_mask(mask)
        code.format_bits(mask)
        score = penalty(code.dark)
        if best is None or score < best[0]:
            best = (score, code.dark)
    assert best is not None
    return best[1]


def _codewords(data: bytes, capacity: int, ecc: int) -> list[int]:
    bits = [0, 1, 0, 0] + _bits(len(data), 8)            # byte mode, its count (8 bits)
    for byte in data:
        bits += _bits(byte, 8)
    bits += [0] * min(4, capacity * 8 - len(bits))        # the terminator
    bits += [0] * (-len(bits) % 8)
    out = [int("".join(map(str, bits[k:k + 8])), 2) for k in range(0, len(bits), 8)]
    pad = 0xEC
    while len(out) < capacity:
        out.append(pad)
        pad ^= 0xEC ^ 0x11
    return out + _reed_solomon(out, ecc)


def _bits(value: int, count: int) -> list[int]:
    return [(value >> k) & 1 for k in reversed(range(count))]


# GF(256) with the QR code's polynomial x^8 + x^4 + x^3 + x^2 + 1
_EXP = [0] * 512
_LOG = [0] * 256
_x = 1
for _k in range(255):
    _EXP[_k] = _x
    _LOG[_x] = _k
    _x <<= 1
    if _x & 0x100:
        _x ^= 0x11D
for _k in range(255, 512):
    _EXP[_k] = _EXP[_k - 255]


def _mul(a: int, b: int) -> int:
    return 0 if a == 0 or b == 0 else _EXP[_LOG[a] + _LOG[b]]


def _reed_solomon(data: list[int], count: int) -> list[int]:
    """The `count` error correction codewords: the remainder of data(x) * x^count divided
    by the generator (x - a^0)(x - a^1)...(x - a^(count-1))."""
    generator = [1]
    for k in range(count):
        nxt = [0] * (len(generator) + 1)
        for i, g in enumerate(generator):
            nxt[i] ^= g
            nxt[i + 1] ^= _mul(g, _EXP[k])
        generator = nxt
    rest = list(data) + [0] * count
    for i in range(len(data)):
        factor = rest[i]
        if factor:
            for j, g in enumerate(generator):
                rest[i + j] ^= _mul(g, factor)
    return rest[len(data):]


class _Code:
    """A matrix being built: the function patterns first, then the data, mask and format."""

    def __init__(self, version: int):
        self.size = size = 17 + 4 * version
        self.dark = [[False] * size for _ in range(size)]
        self.function = [[False] * size for _ in range(size)]
        for row, col in ((0, 0), (0, size - 7), (size - 7, 0)):
            self._finder(row, col)
        for k in range(8, size - 8):                     # the timing patterns
            self._set(6, k, k % 2 == 0)
            self._set(k, 6, k % 2 == 0)
        centre = ALIGNMENT[version]
        if centre is not None:
            for dr in range(-2, 3):
                for dc in range(-2, 3):
                    self._set(centre + dr, centre + dc, max(abs(dr), abs(dc)) != 1)
        self.format_bits(0)                              # reserves the format's modules

    def _set(self, row, col, dark):
        self.dark[row][col] = dark
        self.function[row][col] = True

    def _finder(self, top, left):
        for r in range(-1, 8):
            for c in range(-1, 8):
                row, col = top + r, left + c
                if 0 <= row < self.size and 0 <= col < self.size:
                    ring = max(abs(r - 3), abs(c - 3))
                    self._set(row, col, ring in (0, 1, 3))

    def format_bits(self, mask: int):
        data = LEVEL_L << 3 | mask
        rem = data
        for _ in range(10):
            rem = (rem << 1) ^ ((rem >> 9) * 0x537)
        bits = (data << 10 | rem) ^ 0x5412
        bit = [(bits >> k) & 1 == 1 for k in range(15)]
        size = self.size
        for k in range(6):
            self._set(k, 8, bit[k])
        self._set(7, 8, bit[6])
        self._set(8, 8, bit[7])
        self._set(8, 7, bit[8])
        for k in range(9, 15):
            self._set(8, 14 - k, bit[k])
        for k in range(8):
            self._set(8, size - 1 - k, bit[k])
        for k in range(8, 15):
            self._set(size - 15 + k, 8, bit[k])
        self._set(size - 8, 8, True)                     # the dark module

    def place(self, codewords):
        """The codewords' bits in the zigzag of two-module columns, right to left."""
        bits = [(byte >> (7 - k)) & 1 == 1 for byte in codewords for k in range(8)]
        size, i = self.size, 0
        right = size - 1
        while right >= 1:
            if right == 6:
                right = 5                                # the vertical timing pattern
            upward = ((right + 1) & 2) == 0
            for vert in range(size):
                row = size - 1 - vert if upward else vert
                for col in (right, right - 1):
                    if not self.function[row][col] and i < len(bits):
                        self.dark[row][col] = bits[i]
                        i += 1
            right -= 2

    def apply_mask(self, mask: int):
        test = MASKS[mask]
        for row in range(self.size):
            for col in range(self.size):
                if not self.function[row][col] and test(row, col):
                    self.dark[row][col] = not self.dark[row][col]


MASKS = (
    lambda r, c: (r + c) % 2 == 0,
    lambda r, c: r % 2 == 0,
    lambda r, c: c % 3 == 0,
    lambda r, c: (r + c) % 3 == 0,
    lambda r, c: (r // 2 + c // 3) % 2 == 0,
    lambda r, c: (r * c) % 2 + (r * c) % 3 == 0,
    lambda r, c: ((r * c) % 2 + (r * c) % 3) % 2 == 0,
    lambda r, c: ((r + c) % 2 + (r * c) % 3) % 2 == 0,
)
_FINDER_LIKE = ([True, False, True, True, True, False, True, False, False, False, False],
                [False, False, False, False, True, False, True, True, True, False, True])


def penalty(dark) -> int:
    """The standard's score of a masked matrix (lower is easier to scan): runs of one
    colour, 2x2 blocks, finder-like patterns, and the balance of dark and light."""
    size = len(dark)
    lines = [list(row) for row in dark] + [[dark[r][c] for r in range(size)]
                                           for c in range(size)]
    score = 0
    for line in lines:
        run = 1
        for k in range(1, size + 1):
            if k < size and line[k] == line[k - 1]:
                run += 1
                continue
            if run >= 5:
                score += run - 2
            run = 1
        for k in range(size - 10):
            if line[k:k + 11] in _FINDER_LIKE:
                score += 40
    for r in range(size - 1):
        for c in range(size - 1):
            if dark[r][c] == dark[r][c + 1] == dark[r + 1][c] == dark[r + 1][c + 1]:
                score += 3
    total = sum(map(sum, dark))
    score += 10 * (abs(total * 20 - size * size * 10) // (size * size))
    return score


def qr_text(matrix) -> list[str]:
    """The code as lines of half blocks, black on white whatever the terminal's colours
    (ANSI colours), with a quiet zone: two rows of modules a line."""
    size = len(matrix)
    padded = [[False] * (size + 2 * QUIET) for _ in range(QUIET)]
    padded += [[False] * QUIET + list(row) + [False] * QUIET for row in matrix]
    padded += [[False] * (size + 2 * QUIET) for _ in range(QUIET + size % 2)]
    lines = []
    for r in range(0, len(padded), 2):
        cells = "".join(" ▀▄█"[top + 2 * bottom] for top, bottom in zip(padded[r], padded[r + 1]))
        lines.append(f"\x1b[30;107m{cells}\x1b[0m")
    return lines
