"""The card shoe: one link interface, backends by protocol name (`BACKENDS`), simulators.

    from drivers.shoe import open_shoe, Indicator
    with open_shoe("framed", port="/dev/dealer-shoe", on_event=events.put) as shoe:
        shoe.set_indicator(Indicator.GREEN)

See `drivers.shoe.link` for the contract and docs/shoe.md for the whole picture.
"""

from drivers.shoe.backends import BACKENDS, ShoeBackend, ShoeCan, UnknownBackend, open_shoe
from drivers.shoe.errors import ShoeError
from drivers.shoe.events import (
    CardDrawn,
    CardUnread,
    ShoeAlarm,
    ShoeEvent,
    ShoeOffline,
    ShoeOnline,
    ShoeState,
)
from drivers.shoe.link import EventRefused, EventSink, ShoeLink
from drivers.shoe.session import UnsupportedCommand
from firmware_proto import Indicator

__all__ = [
    "BACKENDS",
    "CardDrawn",
    "CardUnread",
    "EventRefused",
    "EventSink",
    "Indicator",
    "ShoeAlarm",
    "ShoeBackend",
    "ShoeCan",
    "ShoeError",
    "ShoeEvent",
    "ShoeLink",
    "ShoeOffline",
    "ShoeOnline",
    "ShoeState",
    "UnknownBackend",
    "UnsupportedCommand",
    "open_shoe",
]
