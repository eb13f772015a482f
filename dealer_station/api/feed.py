"""The live feed: a table's MQTT topics, relayed over the station's WebSocket.

The console and the overlay see exactly what the studio's broker carries, in the
same JSON: each WebSocket message is ``{"topic": <topic under the table>,
"payload": <the MQTT payload>}`` for the retained topics (``round/state``,
``result``, ``stats``, ``device/shoe``, ``device/camera``) whenever they change,
and every ``round/event`` in order, taken from each table change (the feed is a
``relay`` listener, ``table_change``). A client that connects gets the retained
topics and the events of the round in play first, so a page reloaded mid-round
shows the whole round; at the start those events are read once from the outbox.
``station`` messages (the broker link and its backlog) come every
``HEARTBEAT_SECONDS``; a page that hears nothing for a few of them knows it is
stale.

The feed also counts what passes for ``/metrics``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from dataclasses import dataclass, field

from dealer_station.actor import TableActor
from dealer_station.api.history import current_round_start
from dealer_station.clock import iso, utc_now
from dealer_station.contracts.payload_types import STATION
from dealer_station.journal import Journal
from dealer_station.mqtt_publisher import TablePublisher
from dealer_station.payloads import ROUND_EVENT
from dealer_station.table_change import TableChange

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 2.0
# A client this far behind is dropped; it reconnects and starts from a snapshot.
CLIENT_BACKLOG = 2000
OUTBOX_PAGE = 500


def frame(topic: str, payload: str) -> str:
    return f'{{"topic":{json.dumps(topic)},"payload":{payload}}}'


@dataclass(eq=False)  # each client is itself: a set member by identity
class Client:
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(CLIENT_BACKLOG))
    dropped: bool = False


@dataclass
class TableFeed:
    actor: TableActor
    journal: Journal
    # The station's publishers, by table: filled once the station runs.
    publishers: dict[str, TablePublisher]
    clients: set[Client] = field(default_factory=set)
    retained: dict[str, str] = field(default_factory=dict)
    round_events: list[str] = field(default_factory=list)
    latest: TableChange = field(init=False)
    # Since the station started: round events by type, refusals by reason, alarms by code.
    events: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    alarms: Counter[str] = field(default_factory=Counter)

    def start(self) -> None:
        """Pick up the round in play, then follow the table."""
        start = current_round_start(self.journal.path, self.actor.id)
        cursor = max(start - 1, 0)
        while True:
            page = self.journal.outbox(self.actor.id, cursor, OUTBOX_PAGE)
            for message in page:
                cursor = message.msg_seq
                self._remember(message.payload, count=False)
            if len(page) < OUTBOX_PAGE:
                break
        self.latest = self.actor.latest
        self.retained = dict(self.latest.retained)
        self.actor.listeners.subscribe("relay", self._on_table_change)

    # -- the table's side -------------------------------------------------------------------

    def _on_table_change(self, change: TableChange) -> None:
        self.latest = change
        # The events first: the state that follows already includes them.
        for message in change.messages:
            self._remember(message.payload, count=True)
            self._send(frame(ROUND_EVENT, message.payload))
        if not self.clients:
            return  # nobody to tell: a client that connects gets a fresh snapshot
        for topic, payload in change.retained.items():
            if self.retained.get(topic) != payload:
                self.retained[topic] = payload
                self._send(frame(topic, payload))

    def _remember(self, payload: str, count: bool) -> None:
        event = json.loads(payload)
        kind = event["type"]
        if kind == "round_opened":
            self.round_events = []
        self.round_events.append(payload)
        if not count:
            return
        self.events[kind] += 1
        if kind == "rejected":
            self.refusals[event["data"]["reason"]] += 1
        elif kind == "alarm":
            self.alarms[event["data"]["code"]] += 1

    def _send(self, text: str) -> None:
        for client in list(self.clients):
            try:
                client.queue.put_nowait(text)
            except asyncio.QueueFull:
                log.warning(
                    "table %s: a WebSocket client fell behind; dropped",
                    self.actor.id,
                    extra=self.actor.log_fields(),
                )
                client.dropped = True
                self.clients.discard(client)

    # -- the clients' side ------------------------------------------------------------------

    def station_status(self) -> str:
        publisher = self.publishers.get(self.actor.id)
        body = {
            "v": 1,
            "table": self.actor.id,
            "at": iso(utc_now()),
            "broker": "online" if publisher is not None and publisher.connected else "offline",
            "backlog": publisher.backlog if publisher is not None else None,
        }
        return frame(STATION, json.dumps(body, separators=(",", ":")))

    def subscribe(self) -> Client:
        """A new client, its queue filled with the snapshot."""
        client = Client()
        self.retained = dict(self.latest.retained)
        for topic, payload in self.retained.items():
            client.queue.put_nowait(frame(topic, payload))
        for payload in self.round_events[-(CLIENT_BACKLOG // 2) :]:
            client.queue.put_nowait(frame(ROUND_EVENT, payload))
        client.queue.put_nowait(self.station_status())
        self.clients.add(client)
        return client

    def unsubscribe(self, client: Client) -> None:
        self.clients.discard(client)
