"""Recorded wheel sensor captures decoded into events.

A capture is what the station received from the wheel: raw bytes (what the
simulator records, or ``cat /dev/dealer-wheel > file``) or a pyserial spy://
hexdump (drivers/serial_capture.py). It is decoded by the live link's session
with the clock stopped: every line counts as heard at once, so no silence ever
puts the wheel offline while a capture is read.
"""

from __future__ import annotations

from pathlib import Path

from drivers import serial_capture
from drivers.serial_capture import Capture
from drivers.wheel.backends import SENSORS
from drivers.wheel.errors import WheelError
from drivers.wheel.events import WheelEvent

DecodedCapture = serial_capture.DecodedCapture[WheelEvent]


class BadCapture(WheelError, serial_capture.BadCapture):
    pass


def read_capture(path: Path) -> Capture:
    return serial_capture.read_capture(path, BadCapture)


def decode_capture(capture: Capture, protocol: str = SENSORS.default) -> DecodedCapture:
    if protocol not in SENSORS:
        raise BadCapture(f"unknown protocol {protocol!r}; known: {', '.join(SENSORS)}")
    session = SENSORS[protocol].decoder()
    session.connected(0.0)
    out = session.received(capture.received, 0.0)
    return DecodedCapture(out.events, session.counters())
