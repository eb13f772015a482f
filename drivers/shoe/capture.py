"""Recorded serial captures: reading them and decoding them into events.

Two formats are read:

- raw: the bytes the station received from the shoe, nothing else (what the
  simulator records, or ``cat /dev/dealer-shoe > file``);
- pyserial's ``spy://`` hexdump (``spy:///dev/dealer-shoe?file=capture.txt``):
  RX lines are what the station received, TX lines what it sent.

Decoding runs the received bytes through the same session class as the live
driver, with the clock stopped, so a capture reads as the station read it; only
the challenge of each HELLO is not checked, since the RESETs it answered are not
in the capture.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from drivers.shoe.backends import BACKENDS, WIRED
from drivers.shoe.errors import ShoeError
from drivers.shoe.events import ShoeEvent
from drivers.shoe.session import ShoeSession

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


@dataclass(frozen=True, slots=True)
class DecodedCapture:
    events: list[ShoeEvent]
    counters: dict[str, int]


class BadCapture(ShoeError, ValueError):
    pass


def read_capture(path: Path) -> Capture:
    data = path.read_bytes()
    text = _ANSI.sub(b"", data)
    if _looks_like_spy(text):
        return _parse_spy(text.decode("ascii"))
    return Capture("raw", data, b"")


def decode_capture(capture: Capture, protocol: str = BACKENDS.default) -> DecodedCapture:
    session = new_session(protocol)
    session.connected(0.0)
    out = session.received(capture.received, 0.0)
    return DecodedCapture(out.events, session.counters())


def new_session(protocol: str) -> ShoeSession:
    decoder = BACKENDS[protocol].decoder if protocol in BACKENDS else None
    if decoder is None:
        raise BadCapture(f"unknown protocol {protocol!r}; known: {', '.join(WIRED)}")
    return decoder()


def _looks_like_spy(text: bytes) -> bool:
    try:
        lines = text.decode("ascii").splitlines()
    except UnicodeDecodeError:
        return False
    return bool(lines) and any(_SPY_LINE.match(line) for line in lines[:50])


def _parse_spy(text: str) -> Capture:
    received, sent = bytearray(), bytearray()
    for number, line in enumerate(text.splitlines(), 1):
        match = _SPY_LINE.match(line)
        if match is None:
            continue  # control lines (RTS, DTR, flushes) and "RX <empty>"
        cells = _HEX_BYTE.findall(match[2][:_SPY_HEX_WIDTH])
        if not cells:
            raise BadCapture(f"line {number}: no bytes in a {match[1]} row")
        target = received if match[1] == "RX" else sent
        target += bytes(int(cell, 16) for cell in cells)
    return Capture("spy", bytes(received), bytes(sent))
