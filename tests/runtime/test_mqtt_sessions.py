"""A table's availability names its session (the station's boot id and the
link's connection), the last will included, so a late will of an old
connection is told from the new one; over MQTT 5 every message says it is
JSON of schema version 1. Against a real mosquitto; the connection is killed
by shutting its socket, so the broker sees a dead client, not a goodbye."""

from __future__ import annotations

import importlib.metadata
import json
import socket
from datetime import datetime
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from support.broker import Broker, Received, Subscriber
from support.station import StationThread, config_for

from dealer_station.mqtt_publisher import TablePublisher

ROULETTE = '[[tables]]\nid = "rou"\ngame = "roulette"\n'
STATUS = "dealer-station/test/rou/status"


def _publisher(st: StationThread) -> TablePublisher:
    assert st.station is not None
    return st.station.publishers["rou"]


def _kill_connection(st: StationThread) -> None:
    """The link's TCP connection cut under it, as a dead network would."""

    def cut() -> None:
        sock = _publisher(st).link.client.socket()
        assert isinstance(sock, socket.socket)
        sock.shutdown(socket.SHUT_RDWR)

    st.call(cut)


def _statuses(messages: list[Received]) -> list[dict[str, Any]]:
    return [json.loads(m.payload) for m in messages if m.topic == STATUS]


def _first_of_each(messages: list[Received]) -> list[dict[str, Any]]:
    """Each connection's online and offline once, as first received: a QoS 1
    message in flight when its connection was cut is sent again on the next
    (paho resends it), so an old connection's online may come twice, and after
    a newer one. Its session says it is stale: that is what the session is for."""
    seen: set[tuple[str, int]] = set()
    out = []
    for status in _statuses(messages):
        key = (status["state"], status["connection"])
        if key not in seen:
            seen.add(key)
            out.append(status)
    return out


def _sessions(messages: list[Received]) -> list[str]:
    return [s["state"] for s in _first_of_each(messages)]


def _when(payload: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(payload["at"])


def test_a_killed_connection_wills_its_own_session(broker: Broker, tmp_path: Path) -> None:
    sub = Subscriber(broker.port, STATUS)
    config = config_for(ROULETTE, tmp_path / "journal.sqlite3", broker.port)
    with StationThread(config) as st:
        for onlines in (1, 2):
            sub.wait_for(lambda ms, n=onlines: _sessions(ms).count("online") == n)
            _kill_connection(st)
        got = sub.wait_for(lambda ms: _sessions(ms).count("online") == 3)
    sub.close()
    first, will, second, second_will, third = _first_of_each(got)[:5]
    assert [s["state"] for s in (first, will, second, second_will, third)] == [
        "online", "offline", "online", "offline", "online"
    ]
    assert will["detail"] == second_will["detail"] == "last will"
    # One boot, three connections: each will is its own connection's.
    assert len({s["boot"] for s in (first, will, second, second_will, third)}) == 1
    assert len(first["boot"]) == 32
    assert [s["connection"] for s in (first, will, second, second_will, third)] == [1, 1, 2, 2, 3]
    # A will's time is a real one: its connection's start, before it came up.
    assert _when(will) <= _when(first) < _when(second_will) <= _when(second) < _when(third)


def test_a_restart_is_a_new_boot(broker: Broker, tmp_path: Path) -> None:
    """A restart is a new boot: a consumer who has the new ``online`` knows an
    offline of the old boot is stale, whenever the broker sends it. (Only the
    ids are checked here: a broker's late delivery is not staged.)"""
    config = config_for(ROULETTE, tmp_path / "journal.sqlite3", broker.port)
    boots = []
    for _ in range(2):
        sub = Subscriber(broker.port, STATUS)
        with StationThread(config):
            online = sub.wait_for(lambda ms: any(s["state"] == "online" for s in _statuses(ms)))
        sub.close()
        boots.append(next(s for s in _statuses(online) if s["state"] == "online")["boot"])
    assert boots[0] != boots[1]


def test_every_message_says_json_of_schema_v1_over_mqtt5(broker: Broker, tmp_path: Path) -> None:
    sub = Subscriber(broker.port, "dealer-station/test/rou/#", protocol=mqtt.MQTTv5)
    config = config_for(ROULETTE, tmp_path / "journal.sqlite3", broker.port)
    with StationThread(config) as st:
        # The first connection's online out before it is cut, or only one would come.
        sub.wait_for(
            lambda ms: any(m.topic.endswith("/round/event") for m in ms)
            and _sessions(ms).count("online") == 1
        )
        _kill_connection(st)
        got = sub.wait_for(lambda ms: _sessions(ms).count("online") == 2)
    sub.close()
    topics = {m.topic.removeprefix("dealer-station/test/rou/") for m in got}
    assert {"status", "round/event", "round/state"} <= topics
    for message in got:
        properties = message.properties
        assert properties.ContentType == "application/json", message.topic
        assert properties.PayloadFormatIndicator == 1, message.topic
        assert properties.UserProperty == [("v", "1")], message.topic
    # The will among them, with its properties.
    assert any(json.loads(m.payload)["detail"] == "last will" for m in got if m.topic == STATUS)


def test_mqtt_3_1_1_still_publishes_without_properties(broker: Broker, tmp_path: Path) -> None:
    sub = Subscriber(broker.port, "dealer-station/test/rou/#", protocol=mqtt.MQTTv5)
    config = config_for(ROULETTE, tmp_path / "journal.sqlite3", broker.port)
    config = config.model_copy(
        update={"mqtt": config.mqtt.model_copy(update={"protocol": "3.1.1"})}
    )
    with StationThread(config):
        got = sub.wait_for(
            lambda ms: (
                any(s["state"] == "online" for s in _statuses(ms))
                and any(m.topic.endswith("/round/event") for m in ms)
            )
        )
    sub.close()
    for message in got:
        assert not hasattr(message.properties, "ContentType"), message.topic
    online = next(s for s in _statuses(got) if s["state"] == "online")
    assert online["connection"] == 1


def test_info_says_what_the_station_runs_retained(broker: Broker, tmp_path: Path) -> None:
    tables = (
        '[[tables]]\nid = "rou"\ngame = "roulette"\n'
        '[[tables]]\nid = "bj"\ngame = "blackjack"\nvariant = "blackjack-3-position"\n'
        '[[tables]]\nid = "bac"\ngame = "baccarat"\n'
    )
    sub = Subscriber(broker.port, "dealer-station/test/+/status")
    config = config_for(tables, tmp_path / "journal.sqlite3", broker.port)
    with StationThread(config):
        got = sub.wait_for(lambda ms: sum(b'"online"' in m.payload for m in ms) == 3)
    sub.close()
    # Read after the station has gone: retained.
    late = Subscriber(broker.port, "dealer-station/test/st/info")
    (message,) = late.wait_for(lambda ms: len(ms) == 1)
    late.close()
    assert message.retain
    info = json.loads(message.payload)
    assert info["v"] == 1
    assert (info["studio"], info["station"]) == ("test", "st")
    assert info["version"] == importlib.metadata.version("dealer-station")
    assert info["tables"] == [
        {"id": "rou", "game": "roulette", "variant": "european-roulette"},
        {"id": "bj", "game": "blackjack", "variant": "blackjack-3-position"},
        {"id": "bac", "game": "baccarat", "variant": "live-baccarat"},
    ]
    # The boot every table's availability names, started before any came online.
    onlines = [json.loads(m.payload) for m in got]
    assert {s["boot"] for s in onlines} == {info["boot"]}
    assert all(_when(info) <= _when(s) for s in onlines)
