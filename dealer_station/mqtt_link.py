"""One paho MQTT client driven by the station's asyncio loop.

The client runs on the event loop, not in a paho thread: its socket is watched
by the loop (paho's external-loop callbacks), so a message is written to the
socket the moment it is published and flushed, and its PUBACK is handled as soon
as it arrives. A paho thread would have to wait for the interpreter lock while
the loop finishes the rest of a table change (retained state, the console),
which cost a card several milliseconds. Only the blocking part of a connect
(TCP, TLS handshake) runs in a worker thread.

`MqttLink` knows nothing of tables or outboxes: it connects and reconnects with
back-off (full jitter, `backoff.Backoff`, so the stations of a studio do not all
come back at one instant after the broker restarts), fails over between the
brokers of the config's list (the next one after a lost connection or a failed
connect; one back-off draw per round of the list, not per broker, so a dead
node costs no wait before the next), keeps the connection alive,
publishes at QoS 1 and says so through three callbacks, all called on the loop:
``on_connected``, ``on_disconnected`` and ``on_puback`` (the message id and the
``time.perf_counter()`` of its PUBACK).
A PUBACK whose reason code is a failure (MQTT 5: the broker did not take the
message, e.g. 0x87 Not authorized when its ACL denies the topic) is no
acknowledgement: ``on_puback`` is not told, the refusal is counted by reason
(`refusals`) and logged once for the connection, and the link drops the
connection with its will (MQTT 5's "Disconnect with will message"), so the
studio sees the table offline and the publisher sends everything again from its
cursor on the next connection, to the next broker of the list after a back-off
draw that the refused connection did not reset (docs/decisions.md, "A refused
publish").
Over MQTT 5 every message, the will too, says what it holds: content type
``application/json``, payload format indicator 1 (UTF-8) and a user property
``v``, the schema version, so a consumer can route on it without parsing.
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
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from dealer_station.backoff import Backoff
from dealer_station.config import BrokerAddress, MqttConfig
from dealer_station.payloads import SCHEMA_VERSION

log = logging.getLogger(__name__)

# Reconnect back-off: the cap doubles from the first to the last, each delay drawn
# between 0 and it.
RECONNECT_DELAY_S = (1.0, 15.0)
# How often keep-alive pings and their timeouts are looked after.
MISC_INTERVAL_S = 1.0
# How a link leaves a broker that refused a publish: the broker sends the will.
DISCONNECT_WITH_WILL = ReasonCode(PacketTypes.DISCONNECT, "Disconnect with will message")


def _ignore(*args: object) -> None:
    """A callback nobody asked for."""


def json_properties(packet_type: int) -> Properties:
    """MQTT 5 properties of a JSON payload of this schema version."""
    properties = Properties(packet_type)  # type: ignore[no-untyped-call]  # paho leaves it untyped
    properties.ContentType = "application/json"
    properties.PayloadFormatIndicator = 1
    properties.UserProperty = ("v", str(SCHEMA_VERSION))
    return properties


class MqttLink:
    def __init__(
        self,
        config: MqttConfig,
        client_id: str,
        *,
        name: str,
        will: Callable[[], tuple[str, str]] | None,
        max_inflight: int,
        backoff: Backoff | None = None,
        log_fields: dict[str, str] | None = None,
    ) -> None:
        """``will`` gives the (topic, payload) the broker publishes retained if the
        link dies without a goodbye; it is asked before each attempt to connect,
        as a will names the connection it belongs to. ``name`` is what the log
        calls the link, ``log_fields`` the ``extra=`` of its log records (a
        table's link: its table); ``backoff`` its delays between attempts (a
        seeded one in a test)."""
        self.config = config
        self.name = name
        self.log_fields = log_fields or {}
        self.brokers: list[BrokerAddress] = config.addresses()
        # The broker of the list being tried or connected to, and how many of this
        # round of the list have failed.
        self._broker = 0
        self._failed_in_round = 0
        self.connected = False
        self.on_connected: Callable[[], None] = _ignore
        self.on_disconnected: Callable[[str], None] = _ignore
        self.on_puback: Callable[[int, float], None] = _ignore
        protocol = mqtt.MQTTv5 if config.protocol == "5" else mqtt.MQTTv311
        self.will = will
        self._mqtt5 = protocol == mqtt.MQTTv5
        self._properties = json_properties(PacketTypes.PUBLISH) if self._mqtt5 else None
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=client_id, protocol=protocol
        )
        self.client.max_inflight_messages_set(max_inflight)
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
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_socket_open = self._on_socket_open
        self.client.on_socket_close = self._on_socket_close
        self.client.on_socket_register_write = self._on_socket_register_write
        self.client.on_socket_unregister_write = self._on_socket_unregister_write
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stopping = False
        self._loop_thread = 0
        self._fd: int | None = None
        self._flush_due = False
        self._writer = False
        self._task: asyncio.Task[None] | None = None
        self._backoff = backoff or Backoff(*RECONNECT_DELAY_S)
        self._connecting = False
        # Between a connect's TCP connection and the broker's CONNACK.
        self._awaiting_connack = False
        self._hold_off_until = 0.0
        self._goodbye_mid: int | None = None
        self._goodbye_acked = False
        self._goodbye_refused = False
        # The topic of each message awaiting its PUBACK, to name a refused one.
        self._topics: dict[int, str] = {}
        # PUBACKs with a failure reason code since the link started, by reason
        # (snake case: "not_authorized").
        self.refusals: dict[str, int] = {}
        # This connection had a publish refused (logged, being dropped); the
        # last one did (the back-off goes on growing rather than start again).
        self._refused_here = False
        self._refused_before = False

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> None:
        """Connect in the background (on the running loop) and stay connected."""
        self.loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self._task = asyncio.create_task(self._keep_linked(), name=f"mqtt {self.name}")

    async def close(self, goodbye: tuple[str, str] | None = None) -> None:
        """A clean goodbye: ``goodbye`` (topic, payload) retained and its PUBACK
        awaited (2 s at most) if connected, then disconnect. No callback is
        called once this returns."""
        self.stopping = True
        if goodbye is not None and self.connected:
            self._goodbye_mid = self.publish(*goodbye, retain=True)
            self.flush()
            if self._goodbye_mid is not None:
                await self._until(lambda: self._goodbye_acked, 2.0)
        # A refused goodbye leaves the last ``online`` standing: the will says
        # offline instead, if the broker takes that.
        refused = self._goodbye_refused and self._mqtt5
        self.client.disconnect(DISCONNECT_WITH_WILL if refused else None)
        self.flush()
        await self._until(lambda: self.client.socket() is None, 1.0)
        if self._task is not None:
            # A connect in progress is a worker thread: let it finish (paho's
            # connect timeout bounds it) rather than leave it to touch a closed loop.
            if not self._connecting:
                self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.client.socket() is not None:
            self.client.disconnect()
            self.flush()
        self._unwatch()
        self.on_connected = _ignore
        self.on_disconnected = _ignore
        self.on_puback = _ignore

    @property
    def broker(self) -> BrokerAddress:
        """The broker connected to, or the one being tried."""
        return self.brokers[self._broker]

    @staticmethod
    async def _until(done: Callable[[], bool], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not done() and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    # -- publishing ---------------------------------------------------------------------------

    def publish(self, topic: str, payload: str | bytes, *, retain: bool = False) -> int | None:
        """Queue ``payload`` at QoS 1; its message id, or None if there is no
        connection to queue it on. It reaches the socket on the loop's next
        turn, or at `flush()`. An empty payload (clearing a retained topic) is
        not JSON and goes without the JSON properties."""
        properties = self._properties if payload else None
        info = self.client.publish(topic, payload, qos=1, retain=retain, properties=properties)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            return None
        self._topics[info.mid] = topic
        return info.mid

    def flush(self) -> None:
        """Write what is queued now, rather than on the loop's next turn."""
        if self.client.want_write():
            self.client.loop_write()

    # -- the connection, kept by the loop ---------------------------------------------------

    async def _keep_linked(self) -> None:
        """Connect, reconnect with back-off, and drive keep-alive, until stopped."""
        while not self.stopping:
            if self.client.socket() is None:
                # After a refusal (bad credentials, ...), back off as after no answer.
                await asyncio.sleep(max(0.0, self._hold_off_until - time.monotonic()))
                self._set_will()
                broker = self.broker
                self.client.connect_async(broker.host, broker.port, self.config.keepalive)
                self._connecting = True
                self._awaiting_connack = True
                try:
                    await asyncio.to_thread(self.client.reconnect)
                except Exception as err:  # whatever the connect raised, try again later
                    log.debug(
                        "%s: no broker at %s: %s", self.name, broker, err, extra=self.log_fields
                    )
                    self._connecting = False
                    self._awaiting_connack = False
                    await asyncio.sleep(self._next_broker())
                    continue
                self._connecting = False
            self.client.loop_misc()
            await asyncio.sleep(MISC_INTERVAL_S)

    def _next_broker(self) -> float:
        """Move on to the next broker of the list after this one failed; how long
        to wait before trying it: nothing within a round of the list, a back-off
        draw once every broker of the round has failed."""
        self._broker = (self._broker + 1) % len(self.brokers)
        self._failed_in_round += 1
        if self._failed_in_round < len(self.brokers):
            return 0.0
        self._failed_in_round = 0
        return self._backoff.next()

    def _set_will(self) -> None:
        if self.will is None:
            return
        topic, payload = self.will()
        properties = json_properties(PacketTypes.WILLMESSAGE) if self._mqtt5 else None
        self.client.will_set(topic, payload, qos=1, retain=True, properties=properties)

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
        self.flush()
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
        self._awaiting_connack = False
        if reason.is_failure:
            log.error(
                "%s: broker %s refused the connection: %s",
                self.name,
                self.broker,
                reason,
                extra=self.log_fields,
            )
            self._hold_off_until = time.monotonic() + self._next_broker()
            return
        # A broker that refuses what the link publishes takes its connections
        # all the same: after such a connection the back-off goes on growing, or
        # the link would come back every second or so to be refused again.
        if not self._refused_before:
            self._backoff.reset()
        self._refused_before = False
        self._refused_here = False
        # Messages of a connection gone get no PUBACK: their topics would stay for good.
        self._topics.clear()
        self._failed_in_round = 0
        self.connected = True
        log.info(
            "%s: connected to the broker %s", self.name, self.broker, extra=self.log_fields
        )
        self.on_connected()

    def _on_disconnect(
        self,
        client: mqtt.Client,
        userdata: Any,
        flags: Any,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        if self.connected and not self.stopping:
            if not self._refused_here:  # a refusal says why, in its own line
                log.warning(
                    "%s: connection to the broker %s lost: %s",
                    self.name,
                    self.broker,
                    reason,
                    extra=self.log_fields,
                )
            # The next broker of the list, and not at once: every station of the
            # studio on that broker lost it at this instant. The draw starts a
            # round of the list.
            self._broker = (self._broker + 1) % len(self.brokers)
            self._failed_in_round = 0
            self._hold_off_until = time.monotonic() + self._backoff.next()
        elif self._awaiting_connack and not self.stopping:
            # It took the TCP connection and dropped it without a CONNACK (a node
            # still booting, or hung): a failed connect, or the link would stay on it.
            log.warning(
                "%s: broker %s closed the connection unanswered",
                self.name,
                self.broker,
                extra=self.log_fields,
            )
            self._hold_off_until = time.monotonic() + self._next_broker()
        self._awaiting_connack = False
        self.connected = False
        self.on_disconnected(str(reason))

    def _on_publish(
        self,
        client: mqtt.Client,
        userdata: Any,
        mid: int,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        topic = self._topics.pop(mid, "")
        if mid == self._goodbye_mid:
            self._goodbye_acked = True  # taken or refused, nothing more to wait for
            self._goodbye_refused = reason.is_failure
        if reason.is_failure:
            self._refused(topic, reason)
        else:
            self.on_puback(mid, time.perf_counter())

    def _refused(self, topic: str, reason: ReasonCode) -> None:
        """The broker did not take a message: count it, say so once for the
        connection (a flood of refusals is one line), and drop the connection
        unless the link is closing anyway."""
        name = str(reason).lower().replace(" ", "_")
        self.refusals[name] = self.refusals.get(name, 0) + 1
        if self._refused_here:
            return
        self._refused_here = True
        self._refused_before = True
        log.error(
            "%s: broker %s refused the publish to %s: %s (reason code 0x%02x); %s",
            self.name,
            self.broker,
            topic,
            reason,
            reason.value,
            "not sent" if self.stopping else "dropping the connection to send it again",
            extra=self.log_fields,
        )
        if not self.stopping:
            self.client.disconnect(DISCONNECT_WITH_WILL if self._mqtt5 else None)
