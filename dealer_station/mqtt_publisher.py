"""A table's MQTT link to the studio: its round events in order, state retained.

One `MqttLink` per table (its client id and last will are the table's own)
carries the messages; this module decides which and in what order. The round
events of a change go onto the wire from the change itself (the table's
``publish`` listener, ``table_change``); the outbox is read only for a backlog,
what the broker has not acknowledged since the cursor: after a reconnect, or
while more than a window of messages is in flight. The cursor moves only on the
broker's PUBACK of a message it took (the link does not pass on a refused one, and
drops the connection). While the broker is away the table goes on and the
outbox grows; on reconnect the retained state is published first, then
``online``, then the backlog from the cursor, in order. A message sent again
carries the same id and the same bytes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from dealer_station.actor import TableActor
from dealer_station.clock import iso, utc_now
from dealer_station.config import MqttConfig
from dealer_station.journal import Journal, OutMessage
from dealer_station.latency_histogram import CARD_BUCKETS_S, LatencyHistogram
from dealer_station.logging_setup import about
from dealer_station.mqtt_link import MqttLink
from dealer_station.payloads import Availability, DeviceState
from dealer_station.table_change import TableChange

# Messages in flight (sent, not yet acknowledged). QoS 1 keeps them in order on
# one connection; a window keeps a backlog from flooding the broker.
WINDOW = 64

# How long the retained state waits behind the round events of a change.
RETAINED_DELAY_S = 0.005

# How long a cursor moved by PUBACKs waits to be written to the journal, so that
# a card costs the journal one write (its own commit), not two: a move lost to a
# crash only sends the same bytes again, as one lost to a power cut always could.
CURSOR_DELAY_S = 0.25


class TablePublisher:
    def __init__(
        self,
        actor: TableActor,
        config: MqttConfig,
        journal: Journal,
        client_id: str,
        station_info: tuple[str, str] | None = None,
    ) -> None:
        """``station_info``: the station's ``info`` (topic, payload), sent retained
        on each connection: every table's link sends it, so it is there as soon
        as any one of them is."""
        self.actor = actor
        self.station_info = station_info
        self.journal = journal
        self.topics = actor.topics
        self.loop: asyncio.AbstractEventLoop | None = None
        self.acked = journal.acked(actor.id)
        self._cursor_written = self.acked
        self._cursor_due: asyncio.TimerHandle | None = None
        self.next_seq = self.acked + 1
        self.inflight: dict[int, int] = {}  # the link's message id -> outbox msg_seq
        self.acked_above: set[int] = set()
        # The retained topics as last sent, by relative topic.
        self.retained: dict[str, str] = {}
        # The table as it stands, and the last round event it has sent.
        self.latest = actor.latest
        self.connects = 0
        # Told (msg_seq, time.perf_counter() of the PUBACK) for each round event
        # the broker acknowledged: the latency benchmark's probe.
        self.on_puback: Callable[[int, float], None] | None = None
        # A card's time from the shoe's thread to the PUBACK of its round event
        # (/metrics), and the read time of each card whose event awaits it.
        self.card_to_puback = LatencyHistogram(CARD_BUCKETS_S)
        self._card_read_at: dict[int, float] = {}
        self.link = MqttLink(
            config,
            client_id,
            name=f"table {actor.id}",
            will=self._will,
            max_inflight=WINDOW,
            log_fields=about(actor.id),
        )
        self.link.on_connected = self._connected
        self.link.on_puback = self._puback
        self._retained_due: asyncio.TimerHandle | None = None

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.latest = self.actor.latest
        self.actor.listeners.subscribe("publish", self._on_table_change)
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
        if self._cursor_due is not None:
            self._cursor_due.cancel()
        self._write_cursor()

    @property
    def connected(self) -> bool:
        return self.link.connected

    @property
    def backlog(self) -> int:
        return self.latest.msg_seq - self.acked

    def oldest_unacked_at(self) -> str | None:
        """When the oldest message the broker has not acknowledged was journaled
        (its record's ``at``), or None when it has them all."""
        if self.backlog <= 0:
            return None
        return self.journal.message_at(self.actor.id, self.acked + 1)

    # -- the loop's side ------------------------------------------------------------------------

    def _availability(self, state: DeviceState, detail: str = "", connection: int = 0) -> str:
        """The link's availability, of its current connection unless told which."""
        return Availability(
            table=self.actor.id,
            at=iso(utc_now()),
            state=state,
            detail=detail,
            boot=self.actor.boot,
            connection=connection or self.connects,
        ).model_dump_json()

    def _will(self) -> tuple[str, str]:
        # Made as the link is about to connect: the connection it will be, and
        # its time is the session's start (the broker sends it unchanged, later).
        return self.topics.status, self._availability("offline", "last will", self.connects + 1)

    def _connected(self) -> None:
        self.connects += 1
        # Everything before this connection that was not acknowledged goes again,
        # from the cursor, in order.
        self.inflight.clear()
        self.acked_above.clear()
        self.next_seq = self.acked + 1
        self.retained = dict(self.latest.retained)
        if self.station_info is not None:
            self.link.publish(*self.station_info, retain=True)
        for topic, payload in self.retained.items():
            self.link.publish(self.topics.full(topic), payload, retain=True)
        self.link.publish(self.topics.status, self._availability("online"), retain=True)
        self._pump()

    def _puback(self, mid: int, when: float) -> None:
        msg_seq = self.inflight.pop(mid, None)
        if msg_seq is None:
            return  # a retained state message, or from a connection gone since
        if self.on_puback is not None:
            self.on_puback(msg_seq, when)
        read_at = self._card_read_at.pop(msg_seq, None)
        if read_at is not None:
            self.card_to_puback.observe(when - read_at)
        self.acked_above.add(msg_seq)
        advanced = self.acked
        while advanced + 1 in self.acked_above:
            advanced += 1
            self.acked_above.discard(advanced)
        if advanced != self.acked:
            self.acked = advanced
            if self._cursor_due is None and self.loop is not None:
                self._cursor_due = self.loop.call_later(CURSOR_DELAY_S, self._write_cursor)
        self._pump()

    def _write_cursor(self) -> None:
        self._cursor_due = None
        if self._cursor_written != self.acked:
            self.journal.set_acked(self.actor.id, self.acked)
            self._cursor_written = self.acked

    def _pump(self) -> None:
        """Send the backlog from the outbox, as far as the window allows."""
        if not self.connected or self.next_seq > self.latest.msg_seq:
            return  # nothing the changes did not carry: no read of the journal
        room = WINDOW - len(self.inflight)
        if room <= 0:
            return
        for message in self.journal.outbox(self.actor.id, self.next_seq - 1, room):
            if not self._send(message):
                return

    def _send(self, message: OutMessage) -> bool:
        mid = self.link.publish(message.topic, message.payload)
        if mid is None:
            return False  # the connection just went; _connected resends from the cursor
        self.inflight[mid] = message.msg_seq
        self.next_seq = message.msg_seq + 1
        return True

    def _on_table_change(self, change: TableChange) -> None:
        # The round events first, onto the wire at once: they are what the
        # studio waits for. The retained state follows a moment later, once per
        # burst of changes, after the loop has taken the events' PUBACKs.
        self.latest = change
        if change.read_at is not None and change.messages:
            # The card's own event comes first; what it caused (a settlement) after.
            self._card_read_at[change.messages[0].msg_seq] = change.read_at
        if change.messages and self.next_seq < change.messages[0].msg_seq:
            self._pump()  # older messages wait in the outbox: they go first
        else:
            for message in change.messages:
                if message.msg_seq < self.next_seq:
                    continue  # sent already, from the outbox
                if not self.connected or len(self.inflight) >= WINDOW or not self._send(message):
                    break  # the rest is a backlog now, sent as PUBACKs free the window
        if self.connected:
            self.link.flush()
        if self._retained_due is None:
            assert self.loop is not None
            self._retained_due = self.loop.call_later(
                RETAINED_DELAY_S, self._publish_retained_changes
            )

    def _publish_retained_changes(self) -> None:
        self._retained_due = None
        if not self.connected:
            return  # a connection sends them all when it comes
        for topic, payload in self.latest.retained.items():
            if self.retained.get(topic) != payload:
                self.retained[topic] = payload
                self.link.publish(self.topics.full(topic), payload, retain=True)
