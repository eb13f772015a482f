"""``GET /readyz``: can the station do its job now, and if not, why.

``/healthz`` answers 200 while the process answers (a liveness probe); ``/readyz``
answers 503 while any table cannot take a card and get it to the studio: while
it is still being rebuilt from the journal (``replaying``), while its broker
link is down (``broker_down``) or while one of its devices is offline
(``device_offline``, naming it). A table still replaying is reported as that
alone: its links start once it is rebuilt.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from dealer_station.api.bodies import example
from dealer_station.payloads import DeviceState

if TYPE_CHECKING:
    # The station imports this package to serve it: no import cycle at run time.
    from dealer_station.station import Station

Reason = Literal["replaying", "broker_down", "device_offline"]


class NotReady(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: Reason
    table: str
    device: str | None = Field(None, description="the device offline, for device_offline")


class Readiness(BaseModel):
    model_config = example(
        {
            "ready": False,
            "reasons": [
                {"reason": "broker_down", "table": "bac-1", "device": None},
                {"reason": "device_offline", "table": "bac-1", "device": "shoe"},
            ],
        }
    )

    ready: bool
    reasons: list[NotReady] = Field(description="empty when ready")


@dataclass(frozen=True)
class TableLinks:
    """A table's start and links as they are now."""

    recovered: bool
    broker: bool
    devices: Mapping[str, DeviceState]


def table_links(station: Station) -> dict[str, TableLinks]:
    links = {}
    for table, actor in station.actors.items():
        publisher = station.publishers.get(table)
        devices = {device: state for device, (state, _) in actor.devices.items()}
        broker = publisher is not None and publisher.connected
        links[table] = TableLinks(actor.recovered, broker, devices)
    return links


def readiness(tables: Mapping[str, TableLinks]) -> Readiness:
    reasons: list[NotReady] = []
    for table, links in tables.items():
        if not links.recovered:
            reasons.append(NotReady(reason="replaying", table=table))
            continue
        if not links.broker:
            reasons.append(NotReady(reason="broker_down", table=table))
        reasons += [
            NotReady(reason="device_offline", table=table, device=device)
            for device, state in sorted(links.devices.items())
            if state != "online"
        ]
    return Readiness(ready=not reasons, reasons=reasons)
