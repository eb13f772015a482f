"""The MQTT payloads of ``dealer_station/payloads.py`` with their open parts
typed: a round event per ``type`` (a union discriminated on ``type``), the
round state's views, the stats per game, and the WebSocket feed's frames.

Each typed model subclasses the runtime's, so an envelope field added there
is here too; only ``type``, ``source``, ``data`` and the views are narrowed.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, RootModel, create_model

from dealer_station.contracts.event_data import EVENT_DATA
from dealer_station.contracts.views import (
    ActiveAlarm,
    BaccaratRoads,
    Next,
    RouletteStats,
    Shoe,
    Stamp,
    TableView,
)
from dealer_station.contracts.vocabulary import EventType, Source
from dealer_station.payloads import (
    RESULT,
    ROUND_EVENT,
    ROUND_STATE,
    STATE,
    STATS,
    Availability,
    RoundEvent,
    RoundState,
    Stats,
    TableOpening,
    device_topic,
)


def _event_model(kind: EventType) -> type[RoundEvent]:
    name = "".join(part.title() for part in kind.value.split("_")) + "Event"
    literal: Any = Literal[kind.value]
    model: type[RoundEvent] = create_model(
        name,
        __base__=RoundEvent,
        type=(literal, ...),
        source=(Source, Field(description=RoundEvent.model_fields["source"].description)),
        data=(EVENT_DATA[kind], ...),
    )
    return model


EVENT_MODELS: dict[EventType, type[RoundEvent]] = {kind: _event_model(kind) for kind in EventType}


class TypedRoundEvent(RootModel[Any]):
    """A round event (``round/event``, ``result``): one model per ``type``."""

    root: Annotated[
        # A Union of the generated models: built at run time from EVENT_DATA.
        Union[tuple(EVENT_MODELS.values())],  # type: ignore[valid-type]  # noqa: UP007
        Field(discriminator="type"),
    ]


class TypedRoundState(RoundState):
    next: Next  # type: ignore[assignment]
    shoe: Shoe | None = None  # type: ignore[assignment]
    view: TableView | None = Field(None, description="cards, totals and bets")  # type: ignore[assignment]
    alarms: list[ActiveAlarm] = Field(default_factory=list, description="to act on")  # type: ignore[assignment]


class BaccaratStats(Stats):
    game: Literal["baccarat"]
    stats: BaccaratRoads  # type: ignore[assignment]


class RouletteStatsPayload(Stats):
    game: Literal["roulette"]
    stats: RouletteStats  # type: ignore[assignment]


class TypedStats(RootModel[BaccaratStats | RouletteStatsPayload]):
    """``stats``: baccarat's roads or roulette's statistics."""

    root: Annotated[BaccaratStats | RouletteStatsPayload, Field(discriminator="game")]


# -- the WebSocket feed (api/feed.py) -------------------------------------------------------


class StationStatus(BaseModel):
    """The feed's own heartbeat, every ``HEARTBEAT_SECONDS``: the broker link."""

    model_config = ConfigDict(extra="forbid", json_schema_serialization_defaults_required=True)

    v: Literal[1] = 1
    table: str
    at: Stamp
    broker: Literal["online", "offline"]
    backlog: Annotated[
        int | None, Field(description="round events not yet acknowledged by the broker")
    ]


STATION = "station"

# What each of the feed's topics carries: the MQTT topic's payload, byte for
# byte (the table's retained topics and its round events), and the feed's own
# ``station``.
FRAME_PAYLOADS: dict[str, type[BaseModel]] = {
    device_topic("shoe"): Availability,
    device_topic("camera"): Availability,
    device_topic("wheel_sensor"): Availability,
    ROUND_STATE: TypedRoundState,
    STATE: TableOpening,
    ROUND_EVENT: TypedRoundEvent,
    RESULT: TypedRoundEvent,
    STATS: TypedStats,
    STATION: StationStatus,
}


def _frame_model(topic: str, payload: type[BaseModel]) -> type[BaseModel]:
    name = "".join(p.title() for p in topic.replace("/", "_").split("_")) + "Frame"
    literal: Any = Literal[topic]
    model: type[BaseModel] = create_model(
        name,
        __config__=ConfigDict(extra="forbid"),
        topic=(literal, ...),
        payload=(payload, ...),
    )
    return model


class FeedFrame(RootModel[Any]):
    """One WebSocket message of ``/tables/{table}/live``: ``{"topic", "payload"}``."""

    root: Annotated[
        Union[tuple(_frame_model(t, p) for t, p in FRAME_PAYLOADS.items())],  # type: ignore[valid-type]  # noqa: UP007
        Field(discriminator="topic"),
    ]
