"""A reference consumer of a dealer station's round events (docs/consumers.md).

    python examples/consumer.py --broker 127.0.0.1:1883 --studio studio-a --station pi-7 \\
        --api http://pi-7:8080 --token-file game-server.token --state consumer.json

prints each round event of the station's tables on stdout, one JSON line per
event, exactly once and in ``seq`` order per table, through broker restarts,
station crashes and its own restarts:

- MQTT 5, a fixed client id, ``clean_start`` false and a session expiry: the
  broker keeps the subscriptions and queues QoS 1 messages while the consumer
  is away (a broker with persistence keeps them over its own restart too);
- a message seen again (the station resends what the broker had not
  acknowledged when it crashed, with the same id and bytes) is dropped: a
  table's ids are ``<studio>/<table>/<seq>`` without gaps, so the last seq
  delivered stands for every id before it;
- a seq beyond the next, or a retained ``round/state`` whose ``seq`` is beyond
  the last delivered (the tail of a gap that no later event shows), is caught up
  from the station's journal over HTTP (``GET /tables/{table}/events?after=``)
  before anything later is delivered;
- ``--state`` keeps the last seq per table, so a restart goes on from there.

Availability (``status``) is logged on stderr with its session, and an
``offline`` of an older session (a late last will) is called stale.

Only paho-mqtt and the standard library; the logic (``Sequencer``, ``catch_up``,
``Sessions``) takes no socket of its own, so it can be driven in a test.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import signal
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

SCHEMA_VERSION = 1  # the payload `v` this consumer reads (CHANGELOG.md)
PAGE = 500  # events per recall request: the endpoint's default page
TOPICS = ("round/event", "round/state", "status")  # of each table, QoS 1

Event = dict[str, Any]
Payload = bytes | bytearray
# The events after a seq, one page (``events``, and ``after`` for the next or None).
Fetch = Callable[[str, int], tuple[list[Event], int | None]]


class Refused(Exception):
    """A message this consumer does not deliver, with the reason (a log line)."""


def load(payload: Payload, what: str) -> Event:
    """A JSON object, or `Refused` saying why not."""
    try:
        value = json.loads(payload)
    except ValueError as exc:
        raise Refused(f"{what}: not JSON ({exc}): {payload[:80]!r}") from exc
    if not isinstance(value, dict):
        raise Refused(f"{what}: not a JSON object: {payload[:80]!r}")
    return value


def check(event: Event, table: str) -> Event:
    """The event, if it is one of ``table`` in the schema this consumer reads."""
    if event.get("v") != SCHEMA_VERSION:
        raise Refused(
            f"{table}: schema v {event.get('v')!r}, this consumer reads v {SCHEMA_VERSION}"
            " (CHANGELOG.md): left unread, nothing after it is delivered"
        )
    if event.get("table") != table or not isinstance(event.get("seq"), int):
        raise Refused(f"{table}: not a round event of this table: {str(event)[:80]}")
    return event


def tables_of(info: Event) -> set[str]:
    """The table ids a station's ``info`` lists."""
    try:
        return {str(table["id"]) for table in info["tables"]}
    except (KeyError, TypeError) as exc:
        raise Refused(f"info: no tables in {str(info)[:80]}") from exc


Verdict = Literal["duplicate", "next", "gap"]


@dataclass
class Sequencer:
    """The last seq delivered per table: what is a duplicate, what comes next,
    where a gap is."""

    last: dict[str, int] = field(default_factory=dict)

    def verdict(self, table: str, seq: int) -> Verdict:
        last = self.last.get(table, 0)
        if seq <= last:
            return "duplicate"
        return "next" if seq == last + 1 else "gap"

    def delivered(self, table: str, seq: int) -> None:
        self.last[table] = seq


def catch_up(fetch: Fetch, table: str, after: int, upto: int) -> Iterator[Event]:
    """The table's events from ``after + 1`` to ``upto``, in order, read from the
    journal (`fetch`). Raises `Refused` when the station holds fewer (another
    journal than the one that published) or one this consumer cannot read."""
    expected = after + 1
    while expected <= upto:
        events, more = fetch(table, expected - 1)
        for event in events[: upto - expected + 1]:
            if event.get("seq") != expected:
                raise Refused(f"{table}: recall gave seq {event.get('seq')}, not {expected}")
            yield check(event, table)
            expected += 1
        if more is None:
            break
    if expected <= upto:
        raise Refused(f"{table}: the station's journal ends at {expected - 1}, not {upto}")


class Sessions:
    """Each table's link session (boot id, connection) of its last ``online``."""

    def __init__(self) -> None:
        self.online: dict[str, tuple[str, int | None]] = {}

    def words(self, table: str, status: Event) -> str:
        """What a ``status`` payload says of the table now."""
        session = (str(status.get("boot")), status.get("connection"))
        if status.get("state") == "online":
            self.online[table] = session
            return f"{table}: online (boot {session[0]}, connection {session[1]})"
        if table in self.online and self.online[table] != session:
            return f"{table}: stale offline of an older session ({status.get('detail')}): ignored"
        return f"{table}: offline ({status.get('detail')})"


class Consumer:
    """Delivers each table's events once, in order, to ``out``; catches gaps up
    with ``fetch``; keeps the last seqs in ``state`` (a JSON file) if given.

    ``known`` is the highest seq each table is known to have reached (from its
    events and its ``round/state``): while it is beyond the last delivered, a
    catch-up is due, tried again by `retry` when the recall was unreachable."""

    def __init__(self, fetch: Fetch, out: Callable[[Event], None], state: Path | None) -> None:
        self.fetch, self.out, self.state = fetch, out, state
        last = json.loads(state.read_text()) if state is not None and state.exists() else {}
        self.seqs = Sequencer(dict(last))
        self.known: dict[str, int] = {}
        self.duplicates = 0
        self.recalled = 0

    def _deliver(self, event: Event) -> None:
        self.out(event)
        self.seqs.delivered(event["table"], event["seq"])
        if self.state is not None:
            # Written after the output: a crash between the two repeats one event at
            # the restart, never skips one.
            temporary = self.state.with_suffix(".tmp")
            temporary.write_text(json.dumps(self.seqs.last))
            os.replace(temporary, self.state)

    def _catch_up(self, table: str, upto: int) -> None:
        self.known[table] = max(self.known.get(table, 0), upto)
        for event in catch_up(self.fetch, table, self.seqs.last.get(table, 0), upto):
            self.recalled += 1
            self._deliver(event)

    def event(self, table: str, payload: Payload) -> None:
        """A ``round/event`` message. Raises `Refused` for one it cannot deliver
        now (the recall unreachable included): nothing after it is delivered
        before `retry` has caught the table up."""
        event = check(load(payload, table), table)
        seq = event["seq"]
        verdict = self.seqs.verdict(table, seq)
        if verdict == "duplicate":
            self.duplicates += 1
            return
        if verdict == "gap":
            # Through this one: should the recall fail, `retry` knows it exists.
            self._catch_up(table, seq)
        else:
            self._deliver(event)

    def state_seq(self, table: str, payload: Payload) -> None:
        """A ``round/state``: the events up to its ``seq`` exist, whether or not
        their messages come (the tail of a gap no later event shows)."""
        seq = load(payload, table).get("seq")
        if isinstance(seq, int) and self.seqs.verdict(table, seq) != "duplicate":
            self._catch_up(table, seq)

    def retry(self) -> None:
        """Catch up every table that is known to be behind."""
        for table, seq in self.known.items():
            if self.seqs.verdict(table, seq) != "duplicate":
                self._catch_up(table, seq)


def http_fetch(api: str, token: str) -> Fetch:
    def fetch(table: str, after: int) -> tuple[list[Event], int | None]:
        request = urllib.request.Request(
            f"{api.rstrip('/')}/tables/{table}/events?after={after}&limit={PAGE}",
            headers={"Authorization": f"Bearer {token}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                page = json.load(answer)
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise Refused(f"{table}: recall after {after} failed: {exc}") from exc
        return page["events"], page["after"]

    return fetch


def _print(event: Event) -> None:
    sys.stdout.write(json.dumps(event, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def _log(words: str) -> None:
    print(words, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    token = (
        args.token_file.read_text().strip()
        if args.token_file
        else os.environ["DEALER_STATION_TOKEN"]
    )
    consumer = Consumer(http_fetch(args.api, token), _print, args.state)
    sessions = Sessions()
    base = f"{args.prefix}/{args.studio}"
    info = f"{base}/{args.station}/info"
    tables: set[str] = set()
    # paho's thread only queues: what may block (a recall) or fail runs here.
    inbox: queue.Queue[mqtt.MQTTMessage] = queue.Queue()

    def subscribe(client: mqtt.Client, names: set[str]) -> None:
        topics = [f"{base}/{t}/{s}" for t in sorted(names) for s in TOPICS]
        if topics:
            client.subscribe([(topic, 1) for topic in topics])

    def on_connect(client: mqtt.Client, _: Any, flags: Any, reason: Any, __: Any) -> None:
        _log(f"broker: {reason} (session present: {flags.session_present})")
        # Always subscribe: a broker that lost the session (no persistence, or
        # the session expired) has lost the subscriptions with it.
        client.subscribe(info, qos=1)
        subscribe(client, tables)

    def handle(message: mqtt.MQTTMessage) -> None:
        if message.topic == info:
            named = tables_of(load(message.payload, "info")) - tables
            tables.update(named)
            subscribe(client, named)
            return
        table, _, kind = message.topic[len(base) + 1 :].partition("/")
        if kind == "round/event":
            consumer.event(table, message.payload)
        elif kind == "round/state" and message.payload:
            consumer.state_seq(table, message.payload)
        elif kind == "status" and message.payload:
            _log(sessions.words(table, load(message.payload, table)))

    connect = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]  # paho's
    connect.SessionExpiryInterval = args.session_expiry
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2, client_id=args.client_id, protocol=mqtt.MQTTv5
    )
    client.on_connect = on_connect
    client.on_message = lambda _c, _u, message: inbox.put(message)
    client.reconnect_delay_set(min_delay=1, max_delay=15)
    host, _, port = args.broker.partition(":")
    client.connect_async(host, int(port or 1883), clean_start=False, properties=connect)
    client.loop_start()

    stopping: list[int] = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda n, _: stopping.append(n))
    retry_at = 0.0
    while not stopping:
        try:
            message: mqtt.MQTTMessage | None = inbox.get(timeout=1.0)
        except queue.Empty:
            message = None
        try:
            if message is None or time.monotonic() > retry_at:
                # A table held back by a failed recall, even while others are busy.
                retry_at = time.monotonic() + 1.0
                consumer.retry()
            if message is not None:
                handle(message)
        except Refused as refusal:
            _log(f"refused: {refusal}")
    client.disconnect()
    client.loop_stop()
    _log(f"stopped: {consumer.duplicates} duplicates dropped, {consumer.recalled} recalled")
    return 0


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--broker", required=True, help="host:port of the MQTT broker")
    parser.add_argument("--studio", required=True)
    parser.add_argument("--station", required=True, help="whose info topic lists the tables")
    parser.add_argument("--api", required=True, help="the station's HTTP API, http://host:port")
    parser.add_argument("--token-file", type=Path, help="a game_server token (else the "
                        "environment's DEALER_STATION_TOKEN)")  # fmt: skip
    parser.add_argument("--prefix", default="dealer-station")
    parser.add_argument("--client-id", help="stable across restarts (default: "
                        "consumer-<studio>-<station>)")  # fmt: skip
    parser.add_argument("--session-expiry", type=int, default=3600,
                        help="seconds the broker keeps the session while away")  # fmt: skip
    parser.add_argument("--state", type=Path, help="a JSON file of the last seq per table")
    args = parser.parse_args(argv)
    args.client_id = args.client_id or f"consumer-{args.studio}-{args.station}"
    return args


if __name__ == "__main__":
    sys.exit(run(arguments()))
