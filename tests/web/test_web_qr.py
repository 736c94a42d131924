"""The QR code `--web` prints for a phone: read back by zbar (Debian's zbarimg), a decoder
Knockboard did not write, from the matrix and from the very characters printed."""

import os
import shutil
import subprocess

import pytest

from knockboard.web.qr import QrTooLong, qr_matrix, qr_text
from knockboard.web.serve import announce

SCALE, QUIET = 6, 4


@pytest.fixture(scope="module")
def zbarimg():
    path = shutil.which("zbarimg")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("zbarimg is missing (Debian's zbar-tools; .ci/run installs it)")
        pytest.skip("zbarimg is missing (Debian's zbar-tools)")
    return path


def decoded(zbarimg, matrix, tmp_path):
    from PIL import Image
    n = len(matrix)
    image = Image.new("L", ((n + 2 * QUIET) * SCALE,) * 2, 255)
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            if dark:
                x, y = (c + QUIET) * SCALE, (r + QUIET) * SCALE
                image.paste(0, (x, y, x + SCALE, y + SCALE))
    path = tmp_path / "qr.png"
    image.save(path)
    done = subprocess.run([zbarimg, "--quiet", "--raw", str(path)], capture_output=True,
                          text=True, timeout=30)
    return done.stdout.rstrip("\n")


def from_text(lines):
    """The modules the printed half blocks show (two rows a line), quiet zone included."""
    rows = []
    for line in lines:
        cells = line.removeprefix("\x1b[30;107m").removesuffix("\x1b[0m")
        rows.append([ch in "▀█" for ch in cells])
        rows.append([ch in "▄█" for ch in cells])
    return rows


@pytest.mark.parametrize("url", ["http://192.168.1.20:8080/", "http://10.0.0.7:0/",
                                 "http://255.255.255.255:65535/", "a", "x" * 106])
def test_the_code_reads_back_as_the_address(zbarimg, tmp_path, url):
    matrix = qr_matrix(url)
    assert len(matrix) in (21, 25, 29, 33, 37)
    assert decoded(zbarimg, matrix, tmp_path) == url


def test_the_printed_characters_read_back_as_the_address(zbarimg, tmp_path):
    url = "http://192.168.178.41:8080/"
    assert decoded(zbarimg, from_text(qr_text(qr_matrix(url))), tmp_path) == url


@pytest.mark.parametrize("text", ["x" * 107, "é"])
def test_a_text_too_long_or_not_ascii_is_refused(text):
    with pytest.raises(QrTooLong):
        qr_matrix(text)


class _Terminal:
    def __init__(self, tty):
        self.text, self.tty = "", tty

    def write(self, text):
        self.text += text

    def flush(self):
        pass

    def isatty(self):
        return self.tty


def test_a_terminal_gets_the_code_of_an_address_a_phone_can_reach(zbarimg, tmp_path):
    terminal = _Terminal(tty=True)
    announce("192.168.1.20", 8080, terminal)
    lines = terminal.text.splitlines()
    assert lines[0] == "knockboard: the game in a browser: http://192.168.1.20:8080/"
    assert decoded(zbarimg, from_text(lines[1:]), tmp_path) == "http://192.168.1.20:8080/"
    for host, tty in (("127.0.0.1", True), ("192.168.1.20", False)):
        quiet = _Terminal(tty)
        announce(host, 8080, quiet)          # loopback: no phone reaches it; a pipe: no code
        assert quiet.text == f"knockboard: the game in a browser: http://{host}:8080/\n"
