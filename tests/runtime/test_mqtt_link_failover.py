"""The broker link's failover on what a dead or sick node does to a connect:
a port nobody listens on, and a listener that takes the TCP connection and
drops it without a CONNACK (a RabbitMQ node still booting, a hung broker). The
link goes on to the next broker of the list and stays on it (docs/mqtt.md,
Failover)."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from support.broker import Broker, free_port

from dealer_station.config import MqttConfig
from dealer_station.mqtt_link import MqttLink


@contextmanager
def dropping_listener() -> Iterator[int]:
    """A port whose listener closes every connection it accepts, unanswered."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.1)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join()
        server.close()


def _first_connection(brokers: list[str]) -> str:
    """The broker (host:port) the link's first accepted connection is to."""

    async def scenario() -> str:
        link = MqttLink(
            MqttConfig.model_validate({"brokers": brokers}),
            "failover-link-test",
            name="failover link test",
            will=None,
            max_inflight=1,
        )
        connected = asyncio.Event()
        link.on_connected = connected.set
        link.start()
        try:
            await asyncio.wait_for(connected.wait(), timeout=30)
            return str(link.broker)
        finally:
            await link.close()

    return asyncio.run(scenario())


def test_a_listener_that_drops_the_connect_is_left_for_the_next_broker(broker: Broker) -> None:
    with dropping_listener() as sick:
        brokers = [f"127.0.0.1:{sick}", f"127.0.0.1:{broker.port}"]
        assert _first_connection(brokers) == brokers[1]


def test_a_port_without_a_broker_is_left_for_the_next(broker: Broker) -> None:
    brokers = [f"127.0.0.1:{free_port()}", f"127.0.0.1:{broker.port}"]
    assert _first_connection(brokers) == brokers[1]
