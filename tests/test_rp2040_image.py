"""The committed MicroPython image and boot ROM are the files rp2040-image/README.md
describes: a changed binary without a changed record (or the reverse) fails here."""

import hashlib
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMAGE_DIR = os.path.join(ROOT, "rp2040-image")


def recorded_hashes():
    with open(os.path.join(IMAGE_DIR, "README.md")) as f:
        return dict(re.findall(r"^\| `([^`]+\.bin)` \| `([0-9a-f]{64})` \|", f.read(), re.M))


def test_every_committed_binary_has_its_recorded_sha256():
    recorded = recorded_hashes()
    present = sorted(n for n in os.listdir(IMAGE_DIR) if n.endswith(".bin"))
    assert sorted(recorded) == present == ["bootrom-rp2040-b1.bin",
                                           "micropython-v1.27.0-RPI_PICO.bin"]
    for name, digest in recorded.items():
        with open(os.path.join(IMAGE_DIR, name), "rb") as f:
            assert hashlib.sha256(f.read()).hexdigest() == digest, name


def test_the_binaries_are_what_they_claim():
    with open(os.path.join(IMAGE_DIR, "micropython-v1.27.0-RPI_PICO.bin"), "rb") as f:
        image = f.read()
    assert b"MicroPython v1.27.0 on 2025-12-09" in image and b"-dirty" not in image
    assert b"Raspberry Pi Pico" in image
    with open(os.path.join(IMAGE_DIR, "bootrom-rp2040-b1.bin"), "rb") as f:
        rom = f.read()
    # 16 KiB; the ROM's "Mu" magic and version byte 1 (B1) at 0x10
    assert len(rom) == 16384 and rom[0x10:0x13] == b"Mu\x01"


def test_the_build_script_pins_the_commits_the_readme_records():
    with open(os.path.join(IMAGE_DIR, "README.md")) as f:
        readme = set(re.findall(r"`([0-9a-f]{40})`", f.read()))
    with open(os.path.join(IMAGE_DIR, "build.sh")) as f:
        script = set(re.findall(r"=([0-9a-f]{40})", f.read()))
    assert script and script == readme
