"""The protocol half of a serial shoe link, without I/O.

A session turns received bytes and the passing of time into events and bytes to
send. The serial link owns the port and the thread; the same session classes
decode recorded captures (`drivers.shoe.capture`) and run in tests without a port.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from drivers.shoe.errors import ShoeError
from drivers.shoe.events import ShoeEvent
from firmware_proto import Indicator


@dataclass(frozen=True, slots=True)
class Mark:
    """A delivery the session can take back: its event's index in `events`, the
    length of `tx` before its acknowledgement, and the session's state before
    it (opaque outside the session)."""
    event: int
    tx: int
    before: object


@dataclass(slots=True)
class SessionOutput:
    events: list[ShoeEvent] = field(default_factory=list)
    tx: bytearray = field(default_factory=bytearray)
    marks: list[Mark] = field(default_factory=list)


class ShoeSession(ABC):
    protocol: str
    supports_indicator: bool = False

    @abstractmethod
    def connected(self, now: float) -> SessionOutput:
        """The port has just been opened."""

    @abstractmethod
    def received(self, data: bytes, now: float) -> SessionOutput: ...

    @abstractmethod
    def tick(self, now: float) -> SessionOutput:
        """Called at least every `tick_interval` seconds, with or without data."""

    @abstractmethod
    def disconnected(self, reason: str) -> SessionOutput:
        """The port failed or was closed."""

    def take_back(self, out: SessionOutput, index: int, now: float) -> SessionOutput:
        """The consumer did not take ``out.events[index]``: what is left to do.

        Returns the events after it still to hand over and the whole of what to
        send instead of ``out.tx``. A protocol that acknowledges takes back the
        delivery and every later one of ``out``, so the shoe sends them again in
        order. This default is a protocol without acknowledgements (the Bee-Tek
        shoe's): the shoe never sends anything again, so the event is lost.
        """
        return SessionOutput(out.events[index + 1:], out.tx)

    def indicator(self, colour: Indicator, now: float) -> SessionOutput:
        raise UnsupportedCommand(f"the {self.protocol} shoe has no indicator")

    @abstractmethod
    def counters(self) -> dict[str, int]:
        """Health counters for the operator: bytes discarded, retransmissions, ..."""


class UnsupportedCommand(ShoeError):
    """The shoe's protocol cannot carry this command."""
