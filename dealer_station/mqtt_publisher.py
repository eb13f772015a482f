"""A table's MQTT link to the studio: the outbox drained in order, state retained.

One paho client per table (its client id and last will are the table's own).
paho's network thread only forwards callbacks to the event loop; everything else
(reading the outbox, moving the cursor) happens on the loop, the journal's one
thread.

The outbox cursor moves only on the broker's PUBACK (``on_publish`` with the
message id). While the broker is away the table goes on and the outbox grows;
on reconnect the retained state is published first, then ``online``, then the
backlog from the cursor, in order. A message sent again carries the same id and
the same bytes.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from dealer_station.actor import TableActor, iso, utc_now
from dealer_station.config import MqttConfig
from dealer_station.journal import Journal
from dealer_station.payloads import Availability

log = logging.getLogger(__name__)

# Messages in flight (sent, not yet acknowledged). QoS 1 keeps them in order on
# one connection; a window keeps a backlog from flooding the broker.
WINDOW = 64


class TablePublisher:
    def __init__(
        self,
        actor: TableActor,
        config: MqttConfig,
        journal: Journal,
        client_id: str,
    ) -> None:
        self.actor = actor
        self.config = config
        self.journal = journal
        self.topics = actor.topics
        self.loop: asyncio.AbstractEventLoop | None = None
        self.connected = False
        self.acked = journal.acked(actor.id)
        self.next_seq = self.acked + 1
        self.inflight: dict[int, int] = {}  # paho mid -> outbox msg_seq
        self.acked_above: set[int] = set()
        self.retained: dict[str, str] = {}
        self.stats_at = ""
        self.connects = 0
        self.stopping = False
        self.closed = False
        # Told (msg_seq, time.perf_counter() of the PUBACK) for each round event
        # the broker acknowledged: the latency benchmark's probe.
        self.on_puback: Callable[[int, float], None] | None = None
        protocol = mqtt.MQTTv5 if config.protocol == "5" else mqtt.MQTTv311
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=client_id, protocol=protocol
        )
        self.client.max_inflight_messages_set(WINDOW)
        self.client.reconnect_delay_set(min_delay=1, max_delay=15)
        if config.username is not None:
            self.client.username_pw_set(config.username, config.resolved_password())
        if config.tls is not None:
            self.client.tls_set(
                ca_certs=str(config.tls.ca_file) if config.tls.ca_file else None,
                certfile=str(config.tls.cert_file) if config.tls.cert_file else None,
                keyfile=str(config.tls.key_file) if config.tls.key_file else None,
                cert_reqs=ssl.CERT_NONE if config.tls.insecure else ssl.CERT_REQUIRED,
            )
            self.client.tls_insecure_set(config.tls.insecure)
        offline = Availability(table=actor.id, at="", state="offline", detail="last will")
        self.client.will_set(self.topics.status, offline.model_dump_json(), qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.actor.listeners.append(self._on_table_change)
        self.client.connect_async(self.config.host, self.config.port, self.config.keepalive)
        self.client.loop_start()

    def stop(self) -> None:
        """A clean goodbye: ``offline`` retained, then disconnect."""
        self.stopping = True
        if self.connected:
            info = self._publish_retained(
                self.topics.status, self._availability("offline", "station stopped")
            )
            info.wait_for_publish(timeout=2)
        self.client.disconnect()
        self.client.loop_stop()

    @property
    def backlog(self) -> int:
        return self.actor.msg_seq - self.acked

    # -- paho's thread: hand everything to the loop ---------------------------------------------

    def _on_connect(
        self,
        client: mqtt.Client,
        userdata: Any,
        flags: Any,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        # A refused connection (bad credentials, ...) is not a connection: do not
        # publish on it (Frigate's _on_connect treats it as one).
        if reason.is_failure:
            log.error("table %s: broker refused the connection: %s", self.actor.id, reason)
            return
        assert self.loop is not None
        self.loop.call_soon_threadsafe(self._connected)

    def _on_disconnect(
        self,
        client: mqtt.Client,
        userdata: Any,
        flags: Any,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        assert self.loop is not None
        self.loop.call_soon_threadsafe(self._disconnected, str(reason))

    def _on_publish(
        self,
        client: mqtt.Client,
        userdata: Any,
        mid: int,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        assert self.loop is not None
        self.loop.call_soon_threadsafe(self._puback, mid, time.perf_counter())

    # -- the loop's side ------------------------------------------------------------------------

    def _availability(self, state: str, detail: str = "") -> str:
        return Availability(
            table=self.actor.id,
            at=iso(utc_now()),
            state="online" if state == "online" else "offline",
            detail=detail,
        ).model_dump_json()

    def _publish_retained(self, topic: str, payload: str) -> mqtt.MQTTMessageInfo:
        return self.client.publish(topic, payload, qos=1, retain=True)

    def _connected(self) -> None:
        self.connected = True
        self.connects += 1
        log.info("table %s: connected to the broker", self.actor.id)
        # Everything before this connection that was not acknowledged goes again,
        # from the cursor, in order.
        self.inflight.clear()
        self.acked_above.clear()
        self.next_seq = self.acked + 1
        self._refresh_retained()
        for topic, payload in self.retained.items():
            self._publish_retained(topic, payload)
        self._publish_retained(self.topics.status, self._availability("online"))
        self._pump()

    def _disconnected(self, reason: str) -> None:
        if self.connected and not self.stopping:
            log.warning("table %s: broker connection lost: %s", self.actor.id, reason)
        self.connected = False

    def _puback(self, mid: int, when: float) -> None:
        if self.closed:
            return  # after the journal closed: the next start sends these again
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
            info = self.client.publish(message.topic, message.payload, qos=1)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                return  # the connection just went; _connected resends from the cursor
            self.inflight[info.mid] = message.msg_seq
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
        # The round events first: they are what the studio waits for.
        self._pump()
        before = dict(self.retained)
        self._refresh_retained()
        if self.connected:
            for topic, payload in self.retained.items():
                if before.get(topic) != payload:
                    self._publish_retained(topic, payload)
