"""The MQTT contract: topics and JSON payloads, one model each.

Topics live under ``<prefix>/<studio>/<table>/`` (docs/mqtt.md):

==================  ========  ======  ===============================================
topic               retained  QoS     payload
==================  ========  ======  ===============================================
``status``          yes       1       ``Availability``: online, or offline (last will)
``device/shoe``     yes       1       ``Availability`` of the shoe
``device/camera``   yes       1       ``Availability`` of the wheel camera
``round/state``     yes       1       ``RoundState``: the table now
``state``           yes       1       ``TableOpening``: open, closing, closed
``round/event``     no        1       ``RoundEvent``: cards, decisions, results, alarms
``result``          yes       1       ``RoundEvent`` of the last ``round_settled``
``stats``           yes       1       ``Stats``: baccarat roads, roulette statistics
``journal/digest``  yes       1       ``JournalDigest``: the journal's chain head, daily
``integrity``       yes       1       ``Integrity``: the integrity monitor's last report
==================  ========  ======  ===============================================

and one station's topic, ``<prefix>/<studio>/<station>/info``: ``Info``, retained.

Every payload carries the schema version ``v`` and the table id. Round events
carry a per-table sequence number ``seq`` and a stable ``id``
(``<studio>/<table>/<seq>``): a message published twice (after a reconnect or a
crash) has the same id and the same bytes, so consumers drop duplicates by id.
``dealer-station schema`` prints the JSON Schema of each model, with its open
parts typed (``dealer_station/contracts/``); ``contracts/`` holds them committed.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field


class Payload(BaseModel):
    # The schema says what consumers receive: every field, defaults included.
    model_config = ConfigDict(extra="forbid", json_schema_serialization_defaults_required=True)

    v: Literal[1] = 1
    table: str
    at: str = Field(
        description="UTC time, ISO 8601 with milliseconds",
        json_schema_extra={"format": "date-time"},
    )


# The schema version every payload carries as ``v`` (and MQTT 5 as a user property).
SCHEMA_VERSION: int = Payload.model_fields["v"].default

# A device's or a station's availability.
DeviceState = Literal["online", "offline"]


class Availability(Payload):
    """On ``status``, the table's link; on ``device/<name>``, a device. Its
    session pairs a link's ``online`` with its ``offline`` (Sparkplug B's bdSeq):
    a last will whose ``boot`` or ``connection`` differs from the latest
    ``online`` is an old connection's, late, and says nothing of the new one."""

    state: DeviceState
    detail: str = ""
    boot: str = Field(
        description="the station's boot id: a new random id each time the station starts"
    )
    connection: int | None = Field(
        description="on status: the link's connection in this boot, from 1; the last will "
        "carries its connection's number and, as at, the time it was made (the session's "
        "start); null on a device's topic"
    )


class RoundEvent(Payload):
    id: str = Field(description="stable message id: <studio>/<table>/<seq>")
    seq: int = Field(description="per-table sequence number, from 1, without gaps")
    round: str | None
    type: str = Field(
        description="card_dealt, decision, bet_placed, bets_closed, round_settled, "
        "round_void, rejected, alarm, device, ... (docs/mqtt.md)"
    )
    source: str = Field(
        description="shoe, camera, wheel_sensor, console, api, pit_boss, timer, croupier "
        "(the self-driving one), station"
    )
    data: dict[str, Any]


class RoundState(Payload):
    seq: int = Field(description="the last round event this state includes")
    round: str | None
    game: str
    variant: str
    next: dict[str, Any] = Field(
        description="what the table waits for: kind, to, options, ends_at, and step: the id "
        "a command for this moment sends as If-Match (docs/api.md)"
    )
    action: str = Field(description="the next required action, as the croupier reads it")
    hold: str | None
    shoe: dict[str, Any] | None = None
    view: dict[str, Any] | None = Field(None, description="cards, totals and bets on the table")
    alarms: list[dict[str, Any]] = Field(
        default_factory=list, description="alarms a person must act on: code, message, at"
    )
    dealer: str | None = Field(
        None,
        description="the display name of who deals: the round's dealer while a round is in "
        "play, else the one signed on; null: no dealer signed on",
    )
    dealer_next: dict[str, str | None] | None = Field(
        None,
        description='a dealer change made during the round, for the next round: {"dealer": '
        "display name, or null for a sign-off}; null: none",
    )


class TableOpening(Payload):
    """Whether the table opens rounds (``state``): ``open``; ``closing``, while
    the round in play finishes after a close; ``closed``. Who set it and why."""

    state: Literal["open", "closing", "closed"]
    by: str | None = Field(
        description="the pit boss who set it; null: the station (closed for a stop, "
        "reopened at the start after it), or a table never closed"
    )
    reason: str | None = Field(description="the reason given, if any")
    at: str = Field(
        description="UTC, ISO 8601 with milliseconds: when the table took this state; "
        "for a table never closed, when its station started",
        json_schema_extra={"format": "date-time"},
    )


class Stats(Payload):
    game: str
    stats: dict[str, Any]


class JournalDigest(Payload):
    """The head of the station's journal chain (docs/journal.md): kept
    elsewhere, it proves the journal up to ``seq`` was not rewritten later."""

    studio: str
    station: str
    seq: int = Field(description="the journal's last record (every table's) when published")
    hash: str = Field(description="that record's chain hash, hex SHA-256")


class IntegrityFinding(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_serialization_defaults_required=True)

    test: str = Field(description="wheel.pockets, shoe.composition, hold, ... (docs/integrity.md)")
    subject: str = Field(description="the table, a dealer at it, a shoe or a day")
    sample: int
    statistic: float
    p_value: float
    adjusted: float = Field(description="the p-value after the Bonferroni correction")
    alarm: bool
    words: str = Field(description="the finding for a pit boss; it names no card")


class Integrity(Payload):
    """The integrity monitor's last report for the table (docs/integrity.md):
    statistics only. A card is never named (a burnt card or a hole card may be
    face down while a shoe is checked): the pit boss's page has the cards."""

    game: str
    variant: str | None
    checkpoint: Literal["start", "shoe", "spins", "day"] = Field(
        description="the look this report is: the station's start, a shoe's end, "
        "every [integrity] spins_between_reports spins, a new UTC day"
    )
    records: int = Field(description="the table's last journal record the report counts")
    level: float
    correction: Literal["bonferroni"] = "bonferroni"
    alarms: int = Field(description="findings at or below the level after the correction")
    findings: list[IntegrityFinding] = Field(
        description="every alarm, and each test's latest finding (a day's hold, a shoe's)"
    )
    not_run: list[str] = Field(description="tests whose sample is still below their minimum")


class TableInfo(BaseModel):
    model_config = Payload.model_config

    id: str
    game: str
    variant: str = Field(description="the variant the table runs, resolved from its config")


class Info(BaseModel):
    """What a station runs, on ``<prefix>/<studio>/<station>/info`` (as
    zigbee2mqtt's bridge/info): a station's, not a table's, so it has no
    ``table``. Retained, sent by each table's link when it connects."""

    model_config = Payload.model_config

    v: Literal[1] = 1
    at: str = Field(
        description="UTC time, ISO 8601 with milliseconds: when this boot of the station started"
    )
    studio: str
    station: str
    version: str = Field(description="the dealer-station package's version")
    tables: list[TableInfo]
    boot: str = Field(description="the station's boot id, as on every availability payload")


PAYLOADS: dict[str, type[BaseModel]] = {
    "Availability": Availability,
    "RoundEvent": RoundEvent,
    "RoundState": RoundState,
    "TableOpening": TableOpening,
    "Stats": Stats,
    "JournalDigest": JournalDigest,
    "Integrity": Integrity,
    "Info": Info,
}


# The topics under a table, relative to ``<prefix>/<studio>/<table>/``: the
# WebSocket feed relays them under these names, MQTT under the full ones.
STATUS = "status"
ROUND_STATE = "round/state"
# The table's opening (`TableOpening`): under the table, beside round/state.
STATE = "state"
ROUND_EVENT = "round/event"
RESULT = "result"
STATS = "stats"
JOURNAL_DIGEST = "journal/digest"
INTEGRITY = "integrity"
# A station's topic, relative to ``<prefix>/<studio>/<station>/``.
INFO = "info"


def device_topic(device: str) -> str:
    return f"device/{device}"


# The devices a table reports on, each on its own ``device/<name>`` topic.
Device = Literal["shoe", "camera", "wheel_sensor"]
DEVICES: tuple[Device, ...] = get_args(Device)

# Every retained topic of a table: what `dealer-station mqtt forget` clears.
RETAINED = (
    STATUS,
    *(device_topic(device) for device in DEVICES),
    ROUND_STATE,
    STATE,
    RESULT,
    STATS,
    JOURNAL_DIGEST,
    INTEGRITY,
)


class Topics:
    """A table's full MQTT topics."""

    def __init__(self, prefix: str, studio: str, table: str) -> None:
        self.base = f"{prefix}/{studio}/{table}"
        self.status = self.full(STATUS)
        self.event = self.full(ROUND_EVENT)

    def full(self, relative: str) -> str:
        return f"{self.base}/{relative}"
