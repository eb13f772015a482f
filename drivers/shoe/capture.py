"""Recorded shoe captures: reading them (drivers/serial_capture.py: raw bytes or
a pyserial spy:// hexdump) and decoding them into events.

Decoding runs the received bytes through the same session class as the live
driver, with the clock stopped, so a capture reads as the station read it; only
the challenge of each HELLO is not checked, since the RESETs it answered are not
in the capture.
"""

from __future__ import annotations

from pathlib import Path

from drivers import serial_capture
from drivers.serial_capture import Capture
from drivers.shoe.backends import BACKENDS, WIRED
from drivers.shoe.errors import ShoeError
from drivers.shoe.events import ShoeEvent
from drivers.shoe.session import ShoeSession

DecodedCapture = serial_capture.DecodedCapture[ShoeEvent]


class BadCapture(ShoeError, serial_capture.BadCapture):
    pass


def read_capture(path: Path) -> Capture:
    return serial_capture.read_capture(path, BadCapture)


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
