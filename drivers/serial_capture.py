"""Recorded serial captures, of any device: raw bytes or pyserial's spy:// hexdump.

- raw: the bytes the station received from the device, nothing else (what a
  simulator records, or ``cat /dev/dealer-shoe > file``);
- pyserial's ``spy://`` hexdump (``spy:///dev/dealer-shoe?file=capture.txt``):
  RX lines are what the station received, TX lines what it sent.

Each device's ``capture`` module decodes the received bytes with its sessions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, Literal, TypeVar

from drivers.errors import DriverError

CaptureFormat = Literal["raw", "spy"]

_ANSI = re.compile(rb"\x1b\[[0-9;]*m")
_SPY_LINE = re.compile(r"^\d+\.\d{3} (RX|TX)\s+[0-9A-F]{4}  (.*)$")
_HEX_BYTE = re.compile(r"[0-9A-F]{2}")
# A hexdump row is 16 "XX " cells plus one gap: 49 characters, then the ASCII column.
_SPY_HEX_WIDTH = 49


@dataclass(frozen=True, slots=True)
class Capture:
    format: CaptureFormat
    received: bytes
    sent: bytes


E = TypeVar("E")


# Not slotted: a slotted generic dataclass cannot be built through its alias
# (`DecodedCapture[ShoeEvent](...)`).
@dataclass(frozen=True)
class DecodedCapture(Generic[E]):
    events: list[E]
    counters: dict[str, int]


class BadCapture(DriverError, ValueError):
    """A capture that cannot be read; each device's decoder raises its own subclass."""


def read_capture(path: Path, refusal: type[BadCapture] = BadCapture) -> Capture:
    """The capture in `path`; a damaged hexdump raises `refusal` (the device's own)."""
    data = path.read_bytes()
    text = _ANSI.sub(b"", data)
    if _looks_like_spy(text):
        return _parse_spy(text.decode("ascii"), refusal)
    return Capture("raw", data, b"")


def _looks_like_spy(text: bytes) -> bool:
    try:
        lines = text.decode("ascii").splitlines()
    except UnicodeDecodeError:
        return False
    return bool(lines) and any(_SPY_LINE.match(line) for line in lines[:50])


def _parse_spy(text: str, refusal: type[BadCapture]) -> Capture:
    received, sent = bytearray(), bytearray()
    for number, line in enumerate(text.splitlines(), 1):
        match = _SPY_LINE.match(line)
        if match is None:
            continue  # control lines (RTS, DTR, flushes) and "RX <empty>"
        cells = _HEX_BYTE.findall(match[2][:_SPY_HEX_WIDTH])
        if not cells:
            raise refusal(f"line {number}: no bytes in a {match[1]} row")
        target = received if match[1] == "RX" else sent
        target += bytes(int(cell, 16) for cell in cells)
    return Capture("spy", bytes(received), bytes(sent))
