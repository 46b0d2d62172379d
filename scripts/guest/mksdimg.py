#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mksdimg.py IMG [MIB]: write an SD card image for QEMU's sd-card (a power
of two in size, 8 MiB by default) whose every 512-byte sector is different
(its number, then pseudo-random bytes), and print its CRC-32 in hex, the
value the guest compares with (selftests/mmc/sd.h: sd_data_matches)."""
import random
import sys
import zlib


def main():
    path = sys.argv[1]
    mib = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    if mib <= 0 or mib & (mib - 1):
        sys.exit(f"mksdimg.py: {mib} MiB is not a power of two (QEMU's sd-card needs one)")
    rng = random.Random(0x5d)
    crc = 0
    with open(path, "wb") as f:
        for sector in range(mib * 2048):
            data = sector.to_bytes(8, "little") + rng.randbytes(504)
            crc = zlib.crc32(data, crc)
            f.write(data)
    print(f"{crc:08x}")


if __name__ == "__main__":
    main()
