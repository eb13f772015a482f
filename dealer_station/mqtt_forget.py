"""Clearing the retained topics of a table the station no longer runs.

A broker keeps a retained message until an empty one replaces it, so a table
taken out of the config would go on showing its last state, its ``online`` or
its last will to every new subscriber. `forget_table` connects as the station
does (its broker, credentials and TLS), publishes an empty retained payload
to each of the table's retained topics and waits for every PUBACK (a refused
one, by the broker's ACL, fails it).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from dealer_station.config import StationConfig
from dealer_station.mqtt_link import MqttLink
from dealer_station.payloads import RETAINED, Topics

# How long the broker has to take the connection, then every message.
TIMEOUT_S = 10.0


class ForgetFailed(Exception):
    """The broker did not take the connection or every message in time."""


async def forget_table(config: StationConfig, table: str) -> list[str]:
    """The full topics cleared, once the broker has acknowledged each."""
    topics = [Topics(config.mqtt.prefix, config.studio, table).full(t) for t in RETAINED]
    link = MqttLink(
        config.mqtt,
        f"{config.studio}-{config.station}-forget-{table}",
        name=f"forget {table}",
        will=None,
        max_inflight=len(topics),
    )
    acked: set[int] = set()
    link.on_puback = lambda mid, when: acked.add(mid)
    link.start()
    try:
        where = ", ".join(str(broker) for broker in link.brokers)
        await _until(lambda: link.connected, f"no connection to the broker at {where}")
        sent = [link.publish(topic, b"", retain=True) for topic in topics]
        link.flush()
        mids = {mid for mid in sent if mid is not None}
        if len(mids) != len(topics):
            raise ForgetFailed("the broker connection went while clearing; run it again")
        await _until(
            lambda: acked >= mids or bool(link.refusals),
            "the broker did not acknowledge every topic",
        )
        if link.refusals:
            why = ", ".join(sorted(link.refusals))
            raise ForgetFailed(f"the broker refused to clear the topics ({why}): check its ACL")
    finally:
        await link.close()
    return topics


async def _until(done: Callable[[], bool], why: str) -> None:
    deadline = time.monotonic() + TIMEOUT_S
    while not done():
        if time.monotonic() > deadline:
            raise ForgetFailed(f"{why} within {TIMEOUT_S:g} s")
        await asyncio.sleep(0.02)
