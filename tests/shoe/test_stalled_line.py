"""A shoe that stops reading does not stall whoever sets its indicator.

A real PTY stands for the USB serial device; the test plays the shoe on its
master side: it answers the station's RESET with a HELLO, then reads nothing
more while the line's buffer is full, so every write to the port waits for the
port's write timeout. The station calls `set_indicator` from its event loop: it
must return at once, and the latest colour must reach the shoe once the line
drains.
"""

from __future__ import annotations

import os
import queue
import select
import time
import tty
from collections.abc import Iterator

import firmware_proto as fp
from drivers.shoe import ShoeEvent, ShoeOnline, open_shoe

WAIT_S = 20.0  # a guard against hanging, never a measurement
# Far below the port's 1 s write timeout, far above a slot's assignment.
RETURNS_AT_ONCE_S = 0.1


def _station_messages(master: int, decoder: fp.FrameDecoder) -> Iterator[fp.Message]:
    """What the station writes, message by message, until WAIT_S runs out."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        readable, _, _ = select.select([master], [], [], 0.05)
        if not readable:
            continue
        for item in decoder.feed(os.read(master, 4096)):
            if isinstance(item, fp.Frame):
                yield fp.decode_message(item)
    raise AssertionError("the station stopped writing")


def _fill(slave: int) -> None:
    """Fill the station-to-shoe direction of the line, as a shoe that reads nothing does."""
    writer = os.open(os.ttyname(slave), os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY)
    try:
        while True:
            os.write(writer, b"\x00" * 4096)
    except BlockingIOError:
        pass
    finally:
        os.close(writer)


def test_set_indicator_returns_at_once_while_the_line_is_stalled() -> None:
    master, slave = os.openpty()
    tty.setraw(slave)  # raw before anyone writes, as the simulator's PTY
    events: queue.Queue[ShoeEvent] = queue.Queue()
    # A long heartbeat timeout: this shoe sends none, and must stay online.
    link = open_shoe("framed", port=os.ttyname(slave), on_event=events, heartbeat_timeout=60.0)
    try:
        link.start()
        decoder = fp.FrameDecoder()
        reset = next(m for m in _station_messages(master, decoder) if isinstance(m, fp.Reset))
        os.write(master, fp.encode_message(fp.Hello(
            fp.PROTOCOL_VERSION, 1, fp.ReliableSender().oldest_unacked,
            "Test", "STALL", "STALL1", "t-1", reset.challenge)))
        assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)

        _fill(slave)
        # The last colour differs from all before: only it can say it was sent last.
        colours = [fp.Indicator.GREEN, fp.Indicator.RED] * 3 + [fp.Indicator.OFF]
        for colour in colours:
            started = time.monotonic()
            link.set_indicator(colour)
            assert time.monotonic() - started < RETURNS_AT_ONCE_S
            time.sleep(0.05)  # a few of the link's turns: it is writing, and waiting

        # The line drains: the last colour asked for reaches the shoe.
        last = next(m for m in _station_messages(master, decoder)
                    if isinstance(m, fp.SetIndicator) and m.colour == colours[-1])
        assert last.colour == fp.Indicator.OFF
    finally:
        link.close()
        os.close(master)
        os.close(slave)
