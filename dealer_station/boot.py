"""The station's boot: a random id and the time of each start.

The boot id tells one run of the station from the next on every availability
payload and on ``info`` (docs/mqtt.md, "Sessions"); nothing is stored, so a
restart always has a new one.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime

from dealer_station.clock import utc_now


def new_boot_id() -> str:
    return uuid.uuid4().hex


@dataclass(frozen=True)
class Boot:
    id: str = field(default_factory=new_boot_id)
    started: datetime = field(default_factory=utc_now)
