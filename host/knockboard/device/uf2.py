"""`knockboard uf2`: one file that installs everything on a Pico. Dropped on the RPI-RP2
drive, it writes the committed MicroPython image (rp2040-image/) and a littlefs filesystem
holding the compiled firmware and the board's configuration, where MicroPython v1.27's
RPI_PICO build mounts its filesystem."""

from __future__ import annotations

import os
import struct
import tempfile
from typing import Iterator, Optional

from .. import resources
from .flash import FlashError, build_board_files, firmware_version

# rp2040-image/, wherever this installation keeps it (knockboard.resources)
IMAGE_DIR = str(resources.image_dir())
IMAGE = os.path.join(IMAGE_DIR, "micropython-v1.27.0-RPI_PICO.bin")

FLASH_BASE = 0x10000000  # XIP address of flash offset 0
FLASH_BYTES = 2 * 1024 * 1024  # the Pico's W25Q16
# ports/rp2: the filesystem is the last MICROPY_HW_FLASH_STORAGE_BYTES (1408 KiB on
# RPI_PICO) of flash, littlefs v2 with 4 KiB blocks, mounted by _boot.py with progsize=256
# and the VfsLfs2 defaults readsize=32, lookahead=32.
FS_BYTES = 1408 * 1024
FS_OFFSET = FLASH_BYTES - FS_BYTES
FS_BLOCK = 4096
FS_BLOCKS = FS_BYTES // FS_BLOCK
FS_PROG = 256
FS_READ = 32
FS_LOOKAHEAD = 32
FS_DISK_VERSION = 0x00020001  # MicroPython's lib/littlefs (v2.11) writes and reads v2.1

UF2_MAGIC0 = 0x0A324655
UF2_MAGIC1 = 0x9E5D5157
UF2_MAGIC_END = 0x0AB16F30
UF2_FLAG_FAMILY = 0x00002000
RP2040_FAMILY = 0xE48BFF56
UF2_PAYLOAD = 256  # the RP2040 boot ROM takes 256-byte payloads only


def new_filesystem():
    """A blank littlefs laid out as MicroPython on the Pico expects it."""
    try:
        from littlefs import LittleFS
    except ImportError:
        raise FlashError("littlefs-python, a dependency of Knockboard, is not installed: "
                         "python3 -m pip install 'littlefs-python==0.19.0'") from None
    return LittleFS(block_size=FS_BLOCK, block_count=FS_BLOCKS, prog_size=FS_PROG,
                    read_size=FS_READ, lookahead_size=FS_LOOKAHEAD,
                    disk_version=FS_DISK_VERSION)


def filesystem_image(files: list[str]) -> bytes:
    """The whole filesystem region with `files` at its root: writing all of it leaves no
    file of an older install behind (a stale module.py would shadow module.mpy)."""
    fs = new_filesystem()
    for path in files:
        with open(path, "rb") as src, fs.open(os.path.basename(path), "wb") as dst:
            dst.write(src.read())
    data = bytes(fs.context.buffer)
    if len(data) != FS_BYTES:
        raise FlashError(f"littlefs image is {len(data)} bytes, expected {FS_BYTES}")
    return data


def micropython_image(path: str = IMAGE) -> bytes:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as err:
        raise FlashError(f"MicroPython image {path}: {err.strerror}") from None
    if len(data) > FS_OFFSET:
        raise FlashError(f"MicroPython image {path} overlaps the filesystem")
    return data


def uf2_blocks(regions: list[tuple[int, bytes]]) -> Iterator[bytes]:
    """UF2 blocks for (flash offset, data) regions, each split into 256-byte payloads."""
    chunks = []
    for offset, data in regions:
        if offset % UF2_PAYLOAD:
            raise FlashError(f"UF2 region at {offset:#x} is not 256-byte aligned")
        for i in range(0, len(data), UF2_PAYLOAD):
            chunks.append((FLASH_BASE + offset + i, data[i:i + UF2_PAYLOAD]))
    for n, (addr, payload) in enumerate(chunks):
        body = payload.ljust(476, b"\0")
        yield struct.pack("<8I", UF2_MAGIC0, UF2_MAGIC1, UF2_FLAG_FAMILY, addr, UF2_PAYLOAD,
                          n, len(chunks), RP2040_FAMILY) + body \
            + struct.pack("<I", UF2_MAGIC_END)


def board_uf2(board: str, budget_ma: Optional[int] = None, image: str = IMAGE) -> bytes:
    """The UF2 that installs MicroPython and the firmware configured for `board`."""
    mp = micropython_image(image)
    with tempfile.TemporaryDirectory(prefix="knockboard-uf2-") as build:
        fs = filesystem_image(build_board_files(os.path.join(build, "fw"), board, budget_ma))
    # pad the image to whole payloads so no block straddles the end of the file
    mp += b"\xff" * (-len(mp) % UF2_PAYLOAD)
    return b"".join(uf2_blocks([(0, mp), (FS_OFFSET, fs)]))


def write_board_uf2(board: str, out: Optional[str] = None,
                    budget_ma: Optional[int] = None) -> str:
    """Writes the board's UF2 to `out` (default knockboard-BOARD-VERSION.uf2 here)."""
    path = out or f"knockboard-{board}-{firmware_version()}.uf2"
    data = board_uf2(board, budget_ma)
    tmp = path + ".part"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError as err:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise FlashError(f"cannot write {path}: {err.strerror}") from None
    return path
