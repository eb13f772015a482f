"""CRC-16/CCITT-FALSE, the frame check of the shoe protocol.

Polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR; the check
value of b"123456789" is 0x29B1. The standard library's ``binascii.crc_hqx`` is
that CRC when seeded with 0xFFFF, and it runs in C, which matters on a Pi.
"""

from __future__ import annotations

import binascii

CRC_INIT = 0xFFFF
CRC_POLY = 0x1021


def crc16_ccitt_false(data: bytes | bytearray | memoryview) -> int:
    return binascii.crc_hqx(data, CRC_INIT)
