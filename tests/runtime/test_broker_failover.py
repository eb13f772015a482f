"""The station's broker dies by ``kill -9`` mid-shoe: on a three-node RabbitMQ
cluster the station fails over to another node of its ``[mqtt] brokers``; with
one mosquitto it waits for the broker to come back on its port. Either way a
consumer with a persistent session (MQTT 3.1.1, clean session false) gets every
round event once after dropping copies by ``id``, in ``seq`` order, none
missing (docs/consumers.md), and the retained state is there again on the
broker the station is on now (docs/mqtt.md, Failover)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support.broker import Broker, Received, Subscriber
from support.dealing import dealt_baccarat
from support.station import StationThread

from dealer_station.mqtt_publisher import TablePublisher
from tools.rabbitmq_cluster import RabbitCluster

pytestmark = pytest.mark.slow

EVENTS = "dealer-station/test/bac/round/event"
STATUS = "dealer-station/test/bac/status"
CONSUMER = "test-game-server"


def _settled(st: StationThread) -> int:
    result: int = st.call(lambda: len(st.actor("bac").stats.settled))
    return result


def _publisher(st: StationThread) -> TablePublisher:
    st.wait_until(lambda: st.station is not None and "bac" in st.station.publishers)
    assert st.station is not None
    return st.station.publishers["bac"]


def _deal_on(st: StationThread, rounds: int = 3) -> None:
    before = _settled(st)
    st.wait_until(lambda: _settled(st) >= before + rounds, timeout=60)


def _once_in_order(messages: list[Received], upto: int) -> list[int]:
    """The ``seq`` of each event up to ``upto``, the first copy of each id only,
    in the order received; a later copy must carry the same bytes."""
    first: dict[str, bytes] = {}
    seqs: list[int] = []
    for message in messages:
        event: dict[str, Any] = json.loads(message.payload)
        if event["seq"] > upto:
            continue
        if event["id"] in first:
            assert first[event["id"]] == message.payload, event["id"]
            continue
        first[event["id"]] = message.payload
        seqs.append(event["seq"])
    return seqs


def _received_all(upto: int, before: list[Received]) -> Callable[[list[Received]], bool]:
    """Whether the events of ``seq`` 1 to ``upto`` have all come, counting those
    received ``before`` (by an earlier connection of the consumer)."""
    wanted = set(range(1, upto + 1))
    return lambda ms: {json.loads(m.payload)["seq"] for m in before + ms} >= wanted


def _online_on(port: int, connection: int) -> dict[str, Any]:
    """The retained ``status`` a new subscriber of that broker gets: ``online``
    of that connection."""
    sub = Subscriber(port, STATUS)
    try:
        messages = sub.wait_for(
            lambda ms: any(m.retain and b'"online"' in m.payload for m in ms), timeout=30
        )
    finally:
        sub.close()
    status: dict[str, Any] = json.loads(messages[-1].payload)
    assert status["connection"] == connection
    return status


def test_a_killed_cluster_node_fails_the_station_over_and_no_event_is_lost(
    tmp_path: Path,
) -> None:
    with RabbitCluster(tmp_path / "rabbitmq") as cluster:
        first, second, third = cluster.nodes
        # The consumer on the node that stays; the station on the first of its list.
        consumer = Subscriber(third.mqtt_port, EVENTS, client_id=CONSUMER, clean_session=False)
        brokers = ", ".join(f'"127.0.0.1:{node.mqtt_port}"' for node in cluster.nodes)
        mqtt = f'brokers = [{brokers}]\nprotocol = "3.1.1"\n'
        with (
            dealt_baccarat(tmp_path / "journal.sqlite3", 0, mqtt) as config,
            StationThread(config) as st,
        ):
            publisher = _publisher(st)
            st.wait_until(lambda: _settled(st) >= 3, timeout=60)
            assert st.call(lambda: publisher.link.broker.port) == first.mqtt_port
            # Away while the node dies: what comes meanwhile waits in its session.
            consumer.close()
            cluster.kill(first)
            st.wait_until(lambda: st.call(lambda: publisher.connects) >= 2, timeout=60)
            now_on = st.call(lambda: publisher.link.broker.port)
            assert now_on == second.mqtt_port  # the next of the list
            _deal_on(st)
            _online_on(now_on, connection=2)
            back = Subscriber(third.mqtt_port, EVENTS, client_id=CONSUMER, clean_session=False)
            _deal_on(st)
            st.wait_until(lambda: st.call(lambda: publisher.backlog) == 0, timeout=60)
            upto = st.call(lambda: publisher.acked)
            back.wait_for(_received_all(upto, consumer.messages), timeout=30)
        back.close()
    assert _once_in_order(consumer.messages + back.messages, upto) == list(range(1, upto + 1))


def test_a_killed_mosquitto_restarted_on_its_port_loses_no_event(tmp_path: Path) -> None:
    broker = Broker(tmp_path, persistent=True)
    # Saved at every change, as a studio's broker that must survive kill -9 would
    # be set (mosquitto otherwise saves only every 30 minutes and at a clean stop).
    with broker.conf.open("a") as conf:
        conf.write("autosave_interval 1\nautosave_on_changes true\n")
    broker.start()
    consumer = Subscriber(broker.port, EVENTS, client_id=CONSUMER, clean_session=False)
    try:
        with (
            dealt_baccarat(tmp_path / "journal.sqlite3", broker.port) as config,
            StationThread(config) as st,
        ):
            publisher = _publisher(st)
            st.wait_until(lambda: _settled(st) >= 3, timeout=60)
            broker.kill()
            _deal_on(st)
            assert st.call(lambda: publisher.backlog) > 0  # held while the broker is away
            broker.start()
            st.wait_until(lambda: st.call(lambda: publisher.connects) >= 2, timeout=60)
            _online_on(broker.port, connection=2)
            _deal_on(st)
            st.wait_until(lambda: st.call(lambda: publisher.backlog) == 0, timeout=60)
            upto = st.call(lambda: publisher.acked)
            consumer.wait_for(_received_all(upto, []), timeout=30)
    finally:
        consumer.close()
        broker.stop()
    assert _once_in_order(consumer.messages, upto) == list(range(1, upto + 1))
