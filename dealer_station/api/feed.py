"""The live feed: a table's MQTT topics, relayed over the station's WebSocket.

The console and the overlay see exactly what the studio's broker carries, in the
same JSON: each WebSocket message is ``{"topic": <topic under the table>,
"payload": <the MQTT payload>}`` for the retained topics (``round/state``,
``result``, ``stats``, ``device/shoe``, ``device/camera``) whenever they change,
and every ``round/event`` in order, read from the journal's outbox. A client
that connects gets the retained topics and the events of the round in play first,
so a page reloaded mid-round shows the whole round. ``station`` messages (the
broker link and its backlog) come every ``HEARTBEAT_SECONDS``; a page that hears
nothing for a few of them knows it is stale.

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
from dealer_station.journal import Journal
from dealer_station.mqtt_publisher import TablePublisher
from dealer_station.payloads import Availability

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
    cursor: int = 0
    # Since the station started: round events by type, refusals by reason, alarms by code.
    events: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    alarms: Counter[str] = field(default_factory=Counter)

    def start(self) -> None:
        """Pick up the round in play, then follow the table."""
        start = current_round_start(self.journal.path, self.actor.id)
        self.cursor = max(start - 1, 0)
        self._read_outbox(count=False)
        self._refresh_retained()
        self.actor.listeners.append(self._on_table_change)

    # -- the table's side -------------------------------------------------------------------

    def _on_table_change(self, actor: TableActor) -> None:
        # The events first: the state that follows already includes them.
        for payload in self._read_outbox(count=True):
            self._send(frame("round/event", payload))
        if not self.clients:
            return  # nobody to tell: a client that connects gets a fresh snapshot
        for topic in self._refresh_retained():
            self._send(frame(topic, self.retained[topic]))

    def _refresh_retained(self) -> list[str]:
        actor = self.actor
        now: dict[str, str] = {}
        state = actor.round_state()
        if state is not None:
            now["round/state"] = state.model_dump_json()
        if actor.last_result is not None:
            now["result"] = actor.last_result
        for device, (availability, since) in actor.devices.items():
            now[f"device/{device}"] = Availability(
                table=actor.id, at=since, state=availability
            ).model_dump_json()
        stats = actor.stats()
        if stats is not None:
            now["stats"] = stats.model_dump_json()
        changed = [t for t, p in now.items() if self.retained.get(t) != p]
        self.retained = now
        return changed

    def _read_outbox(self, count: bool) -> list[str]:
        new: list[str] = []
        while True:
            page = self.journal.outbox(self.actor.id, self.cursor, OUTBOX_PAGE)
            for message in page:
                self.cursor = message.msg_seq
                new.append(message.payload)
                self._remember(message.payload, count)
            if len(page) < OUTBOX_PAGE:
                return new

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
                log.warning("table %s: a WebSocket client fell behind; dropped", self.actor.id)
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
        return frame("station", json.dumps(body, separators=(",", ":")))

    def subscribe(self) -> Client:
        """A new client, its queue filled with the snapshot."""
        client = Client()
        self._refresh_retained()
        for topic, payload in self.retained.items():
            client.queue.put_nowait(frame(topic, payload))
        for payload in self.round_events[-(CLIENT_BACKLOG // 2) :]:
            client.queue.put_nowait(frame("round/event", payload))
        client.queue.put_nowait(self.station_status())
        self.clients.add(client)
        return client

    def unsubscribe(self, client: Client) -> None:
        self.clients.discard(client)
