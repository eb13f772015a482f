"""The messages a table sends, built from its changes: round events, and the
retained topics as they read after a change (``payloads.py`` has their models).

Every channel takes these, so the studio's broker and the station's WebSocket
carry the same bytes: the MQTT publisher under the full topics, the feed under
the relative ones.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime

from dealer_station.clock import iso
from dealer_station.games.engine import Output
from dealer_station.games.table import TableState
from dealer_station.journal import OutMessage
from dealer_station.payloads import (
    RESULT,
    ROUND_STATE,
    STATE,
    STATS,
    Availability,
    DeviceState,
    RoundEvent,
    RoundState,
    Stats,
    TableOpening,
    device_topic,
)
from dealer_station.preconditions import step_id
from dealer_station.round_view import table_view
from dealer_station.table_alarms import ActiveAlarm


def round_event(
    *,
    studio: str,
    table: str,
    topic: str,
    msg_seq: int,
    kind: str,
    data: Output,
    source: str,
    round_id: str | None,
    at: datetime,
) -> OutMessage:
    """The round event ``msg_seq``: its id and bytes are the same however often
    it is sent (docs/mqtt.md). ``data`` is its fields, without its ``kind``.

    The station builds every field itself, so a card's event is not validated
    by `RoundEvent` but written by the standard library's encoder, which for
    JSON's own types but floats writes the bytes pydantic writes (a float's
    exponent differs: ``1e-05`` against ``1e-5``). Anything else, a float in
    a refused request's echo, a Decimal, goes through the model."""
    fields = {
        "v": 1,
        "table": table,
        "at": iso(at),
        "id": f"{studio}/{table}/{msg_seq}",
        "seq": msg_seq,
        "round": round_id,
        "type": kind,
        "source": source,
        "data": data,
    }
    if _plain(data):
        payload = _JSON.encode(fields)
    else:
        payload = RoundEvent.model_validate(fields).model_dump_json()
    return OutMessage(table, msg_seq, topic, payload)


# Compact and UTF-8, as pydantic writes JSON.
_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _plain(value: object) -> bool:
    """Whether ``value`` holds only strings, ints, booleans, None, lists and
    string-keyed dicts (their exact types, no subclass such as an enum)."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return True
    if isinstance(value, dict):
        return kind is dict and all(type(k) is str and _plain(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return (kind is list or kind is tuple) and all(_plain(v) for v in value)
    return False


def round_state(
    table: str,
    state: TableState | None,
    *,
    msg_seq: int,
    at: datetime,
    timer_ends: datetime | None,
    alarms: Sequence[ActiveAlarm],
) -> RoundState | None:
    """The ``round/state`` topic: the table now, for everyone who may see it."""
    if state is None:
        return None
    view = table_view(state)
    # What a command for this moment sends back as If-Match (docs/api.md).
    view["next"]["step"] = step_id(state)
    if timer_ends is not None:
        view["next"]["ends_at"] = iso(timer_ends)
    return RoundState(
        table=table,
        at=iso(at),
        seq=msg_seq,
        round=view["round"],
        game=view["game"],
        variant=view["variant"],
        next=view["next"],
        action=view["action"],
        hold=view["hold"],
        shoe=view.get("shoe"),
        view=view.get("table"),
        alarms=[a.to_json() for a in alarms],
        dealer=state.dealing,
        dealer_next={"dealer": state.dealer} if state.dealer_pending else None,
    )


def table_opening(table: str, state: TableState | None, since: str) -> TableOpening | None:
    """The ``state`` topic: whether the table opens rounds, who said so, and
    since when (``since``: the time of the record that set it)."""
    if state is None:
        return None
    opening = state.opening
    return TableOpening(
        table=table, at=since, state=opening.state, by=opening.pit_boss, reason=opening.reason
    )


def retained_topics(
    table: str,
    state: RoundState | None,
    opening: TableOpening | None,
    last_result: str | None,
    devices: Mapping[str, tuple[DeviceState, str]],
    boot: str,
    stats: Stats | None,
) -> dict[str, str]:
    """Every retained topic of a table but ``status`` (the link's own), keyed by
    its relative topic, as it reads now."""
    retained: dict[str, str] = {}
    if state is not None:
        retained[ROUND_STATE] = state.model_dump_json()
    if opening is not None:
        retained[STATE] = opening.model_dump_json()
    if last_result is not None:
        retained[RESULT] = last_result
    for device, (availability, since) in devices.items():
        retained[device_topic(device)] = Availability(
            table=table, at=since, state=availability, boot=boot, connection=None
        ).model_dump_json()
    if stats is not None:
        retained[STATS] = stats.model_dump_json()
    return retained
