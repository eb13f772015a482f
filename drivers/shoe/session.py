"""The protocol half of a serial shoe link, without I/O.

A session turns received bytes and the passing of time into events and bytes to
send. The serial link owns the port and the thread; the same session classes
decode recorded captures (`drivers.shoe.capture`) and run in tests without a port.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from drivers.shoe.events import ShoeEvent
from firmware_proto import Indicator


@dataclass(slots=True)
class SessionOutput:
    events: list[ShoeEvent] = field(default_factory=list)
    tx: bytearray = field(default_factory=bytearray)

    def extend(self, other: SessionOutput) -> None:
        self.events.extend(other.events)
        self.tx += other.tx


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

    def indicator(self, colour: Indicator, now: float) -> SessionOutput:
        raise UnsupportedCommand(f"the {self.protocol} shoe has no indicator")

    @abstractmethod
    def counters(self) -> dict[str, int]:
        """Health counters for the operator: bytes discarded, retransmissions, ..."""


class UnsupportedCommand(Exception):
    """The shoe's protocol cannot carry this command."""
