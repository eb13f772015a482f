"""A table's MQTT link to the studio: the outbox drained in order, state retained.

One `MqttLink` per table (its client id and last will are the table's own)
carries the messages; this module decides which and in what order. The outbox
cursor moves only on the broker's PUBACK of a message. While the broker is away
the table goes on and the outbox grows; on reconnect the retained state is
published first, then ``online``, then the backlog from the cursor, in order. A
message sent again carries the same id and the same bytes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from dealer_station.actor import TableActor
from dealer_station.clock import iso, utc_now
from dealer_station.config import MqttConfig
from dealer_station.journal import Journal
from dealer_station.mqtt_link import MqttLink
from dealer_station.payloads import Availability

# Messages in flight (sent, not yet acknowledged). QoS 1 keeps them in order on
# one connection; a window keeps a backlog from flooding the broker.
WINDOW = 64

# How long the retained state waits behind the round events of a change.
RETAINED_DELAY_S = 0.005


class TablePublisher:
    def __init__(
        self,
        actor: TableActor,
        config: MqttConfig,
        journal: Journal,
        client_id: str,
    ) -> None:
        self.actor = actor
        self.journal = journal
        self.topics = actor.topics
        self.loop: asyncio.AbstractEventLoop | None = None
        self.acked = journal.acked(actor.id)
        self.next_seq = self.acked + 1
        self.inflight: dict[int, int] = {}  # the link's message id -> outbox msg_seq
        self.acked_above: set[int] = set()
        self.retained: dict[str, str] = {}
        self.stats_at = ""
        self.connects = 0
        # Told (msg_seq, time.perf_counter() of the PUBACK) for each round event
        # the broker acknowledged: the latency benchmark's probe.
        self.on_puback: Callable[[int, float], None] | None = None
        offline = Availability(table=actor.id, at="", state="offline", detail="last will")
        self.link = MqttLink(
            config,
            client_id,
            name=f"table {actor.id}",
            will=(self.topics.status, offline.model_dump_json()),
            max_inflight=WINDOW,
        )
        self.link.on_connected = self._connected
        self.link.on_puback = self._puback
        self._retained_due: asyncio.TimerHandle | None = None

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.actor.listeners.append(self._on_table_change)
        self.link.start()

    async def close(self) -> None:
        """A clean goodbye (the retained state brought up to date, ``offline``
        retained, disconnect), and the end: once it returns, the publisher
        touches neither the broker nor the journal, which may then close. A
        PUBACK it did not see is not lost: the next start sends that message again."""
        if self._retained_due is not None:
            self._retained_due.cancel()
            self._publish_retained_changes()
        await self.link.close(
            goodbye=(self.topics.status, self._availability("offline", "station stopped"))
        )

    @property
    def connected(self) -> bool:
        return self.link.connected

    @property
    def backlog(self) -> int:
        return self.actor.msg_seq - self.acked

    # -- the loop's side ------------------------------------------------------------------------

    def _availability(self, state: str, detail: str = "") -> str:
        return Availability(
            table=self.actor.id,
            at=iso(utc_now()),
            state="online" if state == "online" else "offline",
            detail=detail,
        ).model_dump_json()

    def _connected(self) -> None:
        self.connects += 1
        # Everything before this connection that was not acknowledged goes again,
        # from the cursor, in order.
        self.inflight.clear()
        self.acked_above.clear()
        self.next_seq = self.acked + 1
        self._refresh_retained()
        for topic, payload in self.retained.items():
            self.link.publish(topic, payload, retain=True)
        self.link.publish(self.topics.status, self._availability("online"), retain=True)
        self._pump()

    def _puback(self, mid: int, when: float) -> None:
        msg_seq = self.inflight.pop(mid, None)
        if msg_seq is None:
            return  # a retained state message, or from a connection gone since
        if self.on_puback is not None:
            self.on_puback(msg_seq, when)
        self.acked_above.add(msg_seq)
        advanced = self.acked
        while advanced + 1 in self.acked_above:
            advanced += 1
            self.acked_above.discard(advanced)
        if advanced != self.acked:
            self.acked = advanced
            self.journal.set_acked(self.actor.id, advanced)
        self._pump()

    def _pump(self) -> None:
        if not self.connected:
            return
        room = WINDOW - len(self.inflight)
        if room <= 0:
            return
        for message in self.journal.outbox(self.actor.id, self.next_seq - 1, room):
            mid = self.link.publish(message.topic, message.payload)
            if mid is None:
                return  # the connection just went; _connected resends from the cursor
            self.inflight[mid] = message.msg_seq
            self.next_seq = message.msg_seq + 1

    def _refresh_retained(self) -> None:
        """The retained topics as they should read now."""
        actor = self.actor
        state = actor.round_state()
        if state is not None:
            self.retained[self.topics.state] = state.model_dump_json()
        if actor.last_result is not None:
            self.retained[self.topics.result] = actor.last_result
        for device, (availability, since) in actor.devices.items():
            topic = self.topics.shoe if device == "shoe" else self.topics.camera
            self.retained[topic] = Availability(
                table=actor.id, at=since, state=availability
            ).model_dump_json()
        # The roads are worth computing only when a round settled or a shoe began.
        if actor.stats_at != self.stats_at or self.topics.stats not in self.retained:
            self.stats_at = actor.stats_at
            stats = actor.stats()
            if stats is not None:
                self.retained[self.topics.stats] = stats.model_dump_json()

    def _on_table_change(self, actor: TableActor) -> None:
        # The round events first, onto the wire at once: they are what the
        # studio waits for. The retained state follows a moment later, once per
        # burst of changes, after the loop has taken the events' PUBACKs.
        self._pump()
        if self.connected:
            self.link.flush()
        if self._retained_due is None:
            assert self.loop is not None
            self._retained_due = self.loop.call_later(
                RETAINED_DELAY_S, self._publish_retained_changes
            )

    def _publish_retained_changes(self) -> None:
        self._retained_due = None
        before = dict(self.retained)
        self._refresh_retained()
        if self.connected:
            for topic, payload in self.retained.items():
                if before.get(topic) != payload:
                    self.link.publish(topic, payload, retain=True)
