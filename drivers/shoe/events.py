"""What a shoe link tells the station: typed events, one class per kind.

Cards are the station's two-character form, rank then suit ("AS", "TD", "7H").
`shoe_index`, `insertion` and `shoe_time_ms` are the shoe's own numbering and
clock, None when the protocol does not carry them (the Bee-Tek ASCII shoe). With
the boot id of the `ShoeOnline` before them, `insertion` and `shoe_index` name a
card for ever: the index restarts with each shoe inserted, the insertion number
with each power-up, the boot id never repeats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ShoeStateName = Literal["inserted", "removed", "empty", "cut_card"]


@dataclass(frozen=True, slots=True)
class CardDrawn:
    card: str
    burn: bool = False
    shoe_index: int | None = None
    shoe_time_ms: int | None = None
    insertion: int | None = None


@dataclass(frozen=True, slots=True)
class CardUnread:
    """A card passed the scanner and could not be read. Never guess it."""

    reason: str
    burn: bool = False
    shoe_index: int | None = None
    shoe_time_ms: int | None = None
    insertion: int | None = None


@dataclass(frozen=True, slots=True)
class ShoeState:
    state: ShoeStateName
    shoe_time_ms: int | None = None


@dataclass(frozen=True, slots=True)
class ShoeOnline:
    protocol: str
    vendor: str = ""
    model: str = ""
    serial_number: str = ""
    firmware_version: str = ""
    # The shoe's boot identity (framed protocol): with a card's insertion and
    # shoe_index it names that card uniquely, so a station that restarted
    # between journaling a card and acknowledging it can recognise the shoe's
    # retransmission.
    boot_id: int | None = None


@dataclass(frozen=True, slots=True)
class ShoeOffline:
    reason: str


@dataclass(frozen=True, slots=True)
class ShoeAlarm:
    """Something a croupier or technician must look at; the link carries on."""

    code: str
    text: str


ShoeEvent = CardDrawn | CardUnread | ShoeState | ShoeOnline | ShoeOffline | ShoeAlarm
