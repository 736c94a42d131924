#!/bin/sh
# Builds the MicroPython image and the RP2040 boot ROM committed beside this script, from
# source, at the commits README.md records. CI never runs this (it has no network): it only
# checks the committed files' SHA-256s against README.md.
#
#   rp2040-image/build.sh WORKDIR [SOURCES]
#
# SOURCES is where the repositories are cloned from: a directory holding
# <owner>+<name>/repo git directories (a local mirror), or by default GitHub itself.
# The rp2 port also builds lib/mbedtls (hashlib, cryptolib, tls), so it is cloned too.
# Needs: git, make, cmake, gcc-arm-none-eabi, libnewlib-arm-none-eabi, a host C compiler.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 WORKDIR [SOURCES]" >&2; exit 2; }
work=$1
sources=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
jobs=${JOBS:-2}

MICROPYTHON=78ff170de9e32c79db6e64d3e33d2bd60002bdcd  # tag v1.27.0
PICO_SDK=9a4113fbbae65ee82d8cd6537963bc3d3b14bcca     # lib/pico-sdk at v1.27.0
TINYUSB=aa0fc2e08f1c2dd6f026a431e8989357fbb4c5bf      # lib/tinyusb at v1.27.0
MP_LIB=6ae440a8a144233e6e703f6759b7e7a0afaa37a4       # lib/micropython-lib at v1.27.0
MBEDTLS=107ea89daaefb9867ea9121002fbbdf926780e98      # lib/mbedtls at v1.27.0 (v3.6.2)
RP2040JS=f9becba867f6d7afbf99551270cc9a2e841742eb     # wokwi/rp2040js: demo/bootrom.ts (B1)
BOOTROM=ad55537bf35e332503b950d6951c41bcb8a7954f      # raspberrypi/pico-bootrom-rp2040 tag b1

origin() {  # owner/name -> clone URL
    if [ -n "$sources" ]; then echo "$sources/$(echo "$1" | tr / +)/repo"
    else echo "https://github.com/$1.git"; fi
}

checkout() {  # owner/name commit dir
    [ -d "$3/.git" ] || git clone -q --no-checkout "$(origin "$1")" "$3"
    # Some mirrors leave out the SDK's register description files (*.svd); the build never
    # reads them.
    git -C "$3" sparse-checkout set --no-cone '/*' '!*.svd'
    git -C "$3" checkout -q "$2" 2>/dev/null || git -C "$3" checkout -q -f "$2" || true
    # ...and some leave out large test data; marking what is absent keeps the version string
    # free of "-dirty".
    git -C "$3" ls-files --deleted -z | xargs -0 -r git -C "$3" update-index --skip-worktree
    [ "$(git -C "$3" rev-parse HEAD)" = "$2" ] || { echo "$3: not at $2" >&2; exit 1; }
}

mkdir -p "$work"
mp=$work/micropython
checkout micropython/micropython $MICROPYTHON "$mp"
checkout raspberrypi/pico-sdk $PICO_SDK "$mp/lib/pico-sdk"
checkout hathach/tinyusb $TINYUSB "$mp/lib/tinyusb"
checkout micropython/micropython-lib $MP_LIB "$mp/lib/micropython-lib"
checkout Mbed-TLS/mbedtls $MBEDTLS "$mp/lib/mbedtls"

# The image's banner carries the release's date, not the build's, so rebuilds are identical.
SOURCE_DATE_EPOCH=$(git -C "$mp" log -1 --format=%ct)
export SOURCE_DATE_EPOCH
make -C "$mp/mpy-cross" -j"$jobs"
# picotool only converts to UF2 for an RP2040 (it signs RP2350 images); knockboard writes
# the UF2 itself, so the build needs no picotool (which the SDK would fetch from GitHub).
CMAKE_ARGS=-DPICO_NO_PICOTOOL=1 make -C "$mp/ports/rp2" BOARD=RPI_PICO -j"$jobs"
cp "$mp/ports/rp2/build-RPI_PICO/firmware.bin" "$here/micropython-v1.27.0-RPI_PICO.bin"
cp "$mp/LICENSE" "$here/LICENSE-micropython"

# The boot ROM: the B1 image rp2040js publishes as 32-bit words (built from pico-bootrom B1).
# Rebuilding B1/B2 from pico-bootrom with Debian's GCC 12 overflows the 16 KB ROM by about
# 200 bytes (the chip's ROM was built with GCC 9.3.1), so the published image is taken.
checkout wokwi/rp2040js $RP2040JS "$work/rp2040js"
checkout raspberrypi/pico-bootrom-rp2040 $BOOTROM "$work/pico-bootrom"
python3 - "$work/rp2040js/demo/bootrom.ts" "$here/bootrom-rp2040-b1.bin" <<'PY'
import re, struct, sys
text = open(sys.argv[1]).read().split("new Uint32Array([", 1)[1].split("])", 1)[0]
words = [int(w, 16) for w in re.findall(r"0x[0-9a-fA-F]{8}", text)]
assert len(words) == 4096, len(words)
open(sys.argv[2], "wb").write(struct.pack("<4096I", *words))
PY
cp "$work/pico-bootrom/LICENSE.TXT" "$here/LICENSE-pico-bootrom"
(cd "$here" && sha256sum micropython-v1.27.0-RPI_PICO.bin bootrom-rp2040-b1.bin)
