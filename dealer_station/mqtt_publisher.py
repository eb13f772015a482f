"""A table's MQTT link to the studio: the outbox drained in order, state retained.

One paho client per table (its client id and last will are the table's own).
The client runs on the station's event loop, not in a paho thread: its socket is
watched by the loop (paho's external-loop callbacks), so a round event is
written to the socket the moment the journal holds it, and its PUBACK is handled
as soon as it arrives. A paho thread would have to wait for the interpreter lock
while the loop finishes the rest of the change (retained state, the console),
which cost a card several milliseconds. Only the blocking part of a connect
(TCP, TLS handshake) runs in a worker thread.

The outbox cursor moves only on the broker's PUBACK (``on_publish`` with the
message id). While the broker is away the table goes on and the outbox grows;
on reconnect the retained state is published first, then ``online``, then the
backlog from the cursor, in order. A message sent again carries the same id and
the same bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
import threading
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

# Reconnect back-off, as paho's own loop does it: doubling from the first to the last.
RECONNECT_DELAY_S = (1.0, 15.0)
# How often keep-alive pings and their timeouts are looked after.
MISC_INTERVAL_S = 1.0
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
        self.client.on_socket_open = self._on_socket_open
        self.client.on_socket_close = self._on_socket_close
        self.client.on_socket_register_write = self._on_socket_register_write
        self.client.on_socket_unregister_write = self._on_socket_unregister_write
        self._loop_thread = 0
        self._fd: int | None = None
        self._flush_due = False
        self._writer = False
        self._link: asyncio.Task[None] | None = None
        self._delay = RECONNECT_DELAY_S[0]
        self._connecting = False
        self._hold_off_until = 0.0
        self._retained_due: asyncio.TimerHandle | None = None

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self.actor.listeners.append(self._on_table_change)
        self.client.connect_async(self.config.host, self.config.port, self.config.keepalive)
        self._link = asyncio.create_task(self._keep_linked(), name=f"mqtt {self.actor.id}")

    async def stop(self) -> None:
        """A clean goodbye: ``offline`` retained, then disconnect."""
        self.stopping = True
        if self._retained_due is not None:
            self._retained_due.cancel()
            self._publish_retained_changes()
        if self.connected:
            info = self._publish_retained(
                self.topics.status, self._availability("offline", "station stopped")
            )
            self._write_now()
            await self._until(info.is_published, 2.0)
        self.client.disconnect()
        self._write_now()
        await self._until(lambda: self.client.socket() is None, 1.0)
        if self._link is not None:
            # A connect in progress is a worker thread: let it finish (paho's
            # connect timeout bounds it) rather than leave it to touch a closed loop.
            if not self._connecting:
                self._link.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._link
        if self.client.socket() is not None:
            self.client.disconnect()
            self._write_now()

    @staticmethod
    async def _until(done: Callable[[], bool], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not done() and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    @property
    def backlog(self) -> int:
        return self.actor.msg_seq - self.acked

    # -- the connection, kept by the loop ---------------------------------------------------

    async def _keep_linked(self) -> None:
        """Connect, reconnect with back-off, and drive keep-alive, until stopped."""
        while not self.stopping:
            if self.client.socket() is None:
                # After a refusal (bad credentials, ...), back off as after no answer.
                await asyncio.sleep(max(0.0, self._hold_off_until - time.monotonic()))
                self._connecting = True
                try:
                    await asyncio.to_thread(self.client.reconnect)
                except Exception as err:  # whatever the connect raised, try again later
                    log.debug("table %s: no broker yet: %s", self.actor.id, err)
                    self._connecting = False
                    await asyncio.sleep(self._delay)
                    self._delay = min(self._delay * 2, RECONNECT_DELAY_S[1])
                    continue
                self._connecting = False
            self.client.loop_misc()
            await asyncio.sleep(MISC_INTERVAL_S)

    def _on_loop(self, callback: Callable[..., None], *args: Any) -> None:
        """Run now if on the loop, else hand to it: a connect's socket callbacks
        come from the worker thread."""
        assert self.loop is not None
        if threading.get_ident() == self._loop_thread:
            callback(*args)
        else:
            self.loop.call_soon_threadsafe(callback, *args)

    def _on_socket_open(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        self._on_loop(self._watch, sock.fileno())

    def _on_socket_close(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        self._on_loop(self._unwatch)

    def _on_socket_register_write(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        self._on_loop(self._want_write, True)

    def _on_socket_unregister_write(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        self._on_loop(self._want_write, False)

    def _watch(self, fd: int) -> None:
        assert self.loop is not None
        self._unwatch()
        self._fd = fd
        self.loop.add_reader(fd, self._read)
        if self.client.want_write():
            self._want_write(True)

    def _unwatch(self) -> None:
        assert self.loop is not None
        if self._fd is not None:
            self.loop.remove_reader(self._fd)
            self.loop.remove_writer(self._fd)
            self._fd = None
            self._writer = False

    def _want_write(self, wanted: bool) -> None:
        """paho has bytes to send, or none left. Rather than watch the socket
        for each message (two epoll calls a card), write them on the loop's
        next turn and watch the socket only for what it would not take."""
        assert self.loop is not None
        if self._fd is None:
            return
        if not wanted:
            if self._writer:
                self.loop.remove_writer(self._fd)
                self._writer = False
        elif not self._flush_due:
            self._flush_due = True
            self.loop.call_soon(self._flush)

    def _flush(self) -> None:
        assert self.loop is not None
        self._flush_due = False
        if self._fd is None:
            return
        self._write_now()
        if self.client.want_write() and not self._writer:
            self.loop.add_writer(self._fd, self.client.loop_write)
            self._writer = True

    def _read(self) -> None:
        self.client.loop_read()
        # TLS may hold decrypted bytes the selector cannot see.
        sock = self.client.socket()
        while isinstance(sock, ssl.SSLSocket) and sock.pending():
            self.client.loop_read()
            sock = self.client.socket()

    def _write_now(self) -> None:
        """Write what is queued now, rather than on the loop's next turn."""
        if self.client.want_write():
            self.client.loop_write()

    # -- paho's callbacks, on the loop ----------------------------------------------------

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
            self._hold_off_until = time.monotonic() + self._delay
            self._delay = min(self._delay * 2, RECONNECT_DELAY_S[1])
            return
        self._delay = RECONNECT_DELAY_S[0]
        self._connected()

    def _on_disconnect(
        self,
        client: mqtt.Client,
        userdata: Any,
        flags: Any,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        self._disconnected(str(reason))

    def _on_publish(
        self,
        client: mqtt.Client,
        userdata: Any,
        mid: int,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        self._puback(mid, time.perf_counter())

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
        # The round events first, onto the wire at once: they are what the
        # studio waits for. The retained state follows a moment later, once per
        # burst of changes, after the loop has taken the events' PUBACKs.
        self._pump()
        if self.connected:
            self._write_now()
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
                    self._publish_retained(topic, payload)
