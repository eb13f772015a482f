"""The two kinds of process benchmarks/broker_load.py starts: a station of many
tables dealt at a croupier's pace, and the studio's consumer.

A station process is the station's own code from a card to the broker: a real
`Station` (its tables' `TableActor`s, one SQLite journal with ``synchronous=FULL``,
one `TablePublisher` and `MqttLink` per table, the HTTP face, the integrity
watch), each table self-driving (the croupier opens rounds and places three
players' bets, the table's timer closes betting) and dealt by `CroupierHand`,
which stands in for the shoe: it hands the table a card the way the shoe's
bridge does (``TableActor.submit(..., at_once=True)``, a ``read_at`` stamp), but
from the loop rather than from a serial link's thread (a framed shoe on a PTY
per table would cost the benchmark a thread and a simulator a table; the card's
path from the table's queue on is the same). What it measures, all on
``time.perf_counter()`` (CLOCK_MONOTONIC on Linux, one clock for every process
of the machine): each round event's journal commit (the journal's ``append``
returning), each PUBACK, each card's hand-over, the loop's lag, the tables'
backlogs and lost connections.

The consumer is a plain paho client (MQTT 3.1.1, a persistent session, QoS 1)
subscribed to every table's ``round/event``, that stamps each message as
``on_message`` gets it and keeps it as it came: no copy dropped, none reordered,
so that the benchmark sees what the broker delivered.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from dealer_station.actor import TableActor
from dealer_station.autoplay import PhysicalShoe
from dealer_station.config import parse_config
from dealer_station.games.events import DealCard
from dealer_station.journal import Answer, Journal, OutMessage, Record
from dealer_station.mqtt_link import MqttLink
from dealer_station.station import Station
from dealer_station.table_change import TableChange
from dealer_station.table_inputs import Command, Outcome

# How often the loop's lag and the tables' backlogs are looked at.
LAG_TICK_S = 0.05
BACKLOG_TICK_S = 0.5
# How long a station waits for its tables' links, and for its backlog to drain.
CONNECT_TIMEOUT_S = 120.0
DRAIN_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class Pace:
    """A busy croupier's pace. Each card is drawn a uniform ``card_seconds``
    after the table came to want it; betting stays open ``betting_seconds``
    (the table's timer closes it) and the next round opens ``pause_seconds``
    after the last settled. The first card of a table waits up to a round's
    length more, so the tables do not deal in step."""

    card_seconds: tuple[float, float] = (1.5, 2.0)
    betting_seconds: float = 5.0
    pause_seconds: float = 1.0

    def round_seconds(self) -> float:
        """About how long a round takes (baccarat deals 4.9 cards a round on average)."""
        return self.pause_seconds + self.betting_seconds + 4.9 * sum(self.card_seconds) / 2


@dataclass(frozen=True)
class StationSpec:
    name: str
    studio: str
    tables: tuple[str, ...]
    # host:port of each broker, in the order this station's config lists them.
    brokers: tuple[str, ...]
    protocol: str
    journal: str
    pace: Pace
    seed: int


def station_config_text(spec: StationSpec) -> str:
    brokers = ", ".join(f'"{b}"' for b in spec.brokers)
    tables = "".join(
        f'[[tables]]\nid = "{tid}"\ngame = "baccarat"\n'
        f"timers = {{ betting_seconds = {spec.pace.betting_seconds} }}\n"
        f"self_driving = {{ pause_seconds = {spec.pace.pause_seconds}, "
        f"think_seconds = 0.0, seed = {spec.seed + n} }}\n"
        for n, tid in enumerate(spec.tables)
    )
    return (
        f'studio = "{spec.studio}"\nstation = "{spec.name}"\njournal = "{spec.journal}"\n'
        f'[mqtt]\nbrokers = [{brokers}]\nprotocol = "{spec.protocol}"\n'
        "[http]\nport = 0\n" + tables
    )


@dataclass
class StationProbe:
    """What the station did, stamped as it happened."""

    # (table, msg_seq, commit time) of every round event the journal committed.
    commits: list[tuple[str, int, float]] = field(default_factory=list)
    # (when, how long) of each journal commit: its fsync'd transaction.
    appends: list[tuple[float, float]] = field(default_factory=list)
    # (table, msg_seq of the card's event, when the hand gave the card) of each card.
    cards: list[tuple[str, int, float]] = field(default_factory=list)
    pubacks: list[tuple[str, int, float]] = field(default_factory=list)
    # (when, how late a tick of LAG_TICK_S woke).
    lags: list[tuple[float, float]] = field(default_factory=list)
    # (when, the largest backlog of one table, the station's total backlog).
    backlogs: list[tuple[float, int, int]] = field(default_factory=list)
    # (when, payload bytes) of each message the tables' links published.
    published: list[tuple[float, int]] = field(default_factory=list)
    # (when, table) of each connection lost.
    disconnects: list[tuple[float, str]] = field(default_factory=list)
    refused: int = 0
    # The card the hand of each table has just given, until its commit: its read time.
    handing: dict[str, float] = field(default_factory=dict)

    def watch_journal(self, journal: Journal) -> None:
        append = journal.append

        def timed_append(
            record: Record, messages: list[OutMessage], answer: Answer | None = None
        ) -> int:
            began = time.perf_counter()
            seq = append(record, messages, answer)
            committed = time.perf_counter()
            self.appends.append((committed, committed - began))
            for message in messages:
                self.commits.append((message.table, message.msg_seq, committed))
            read_at = self.handing.pop(record.table, None) if record.source == "shoe" else None
            if read_at is not None and messages:
                self.cards.append((record.table, messages[0].msg_seq, read_at))
            return seq

        journal.append = timed_append  # type: ignore[method-assign]

    def watch_station(self, station: Station) -> None:
        for tid, publisher in station.publishers.items():
            publisher.on_puback = self._puback_of(tid)
            publisher.link.on_disconnected = self._disconnect_of(tid)
            self._count_publishes(publisher.link)

    def _count_publishes(self, link: MqttLink) -> None:
        publish = link.publish

        def counted(topic: str, payload: str | bytes, *, retain: bool = False) -> int | None:
            self.published.append((time.perf_counter(), len(payload)))
            return publish(topic, payload, retain=retain)

        link.publish = counted  # type: ignore[method-assign]

    def _puback_of(self, tid: str) -> Callable[[int, float], None]:
        return lambda msg_seq, when: self.pubacks.append((tid, msg_seq, when))

    def _disconnect_of(self, tid: str) -> Callable[[str], None]:
        return lambda reason: self.disconnects.append((time.perf_counter(), tid))

    async def tick_lag(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(LAG_TICK_S)
            now = time.perf_counter()
            self.lags.append((now, now - before - LAG_TICK_S))

    async def tick_backlog(self, station: Station) -> None:
        while True:
            await asyncio.sleep(BACKLOG_TICK_S)
            backlogs = [p.backlog for p in station.publishers.values()]
            self.backlogs.append((time.perf_counter(), max(backlogs), sum(backlogs)))


class CroupierHand:
    """Draws the next card from the table's shoe when the table wants one, a
    uniform ``card_seconds`` later, and hands it over as the shoe's bridge does."""

    def __init__(self, actor: TableActor, probe: StationProbe, pace: Pace, seed: int) -> None:
        self.actor = actor
        self.probe = probe
        self.pace = pace
        self.rng = random.Random(seed)
        self.shoe = PhysicalShoe(8, self.rng)
        self.changed = asyncio.Event()
        actor.listeners.subscribe("follow", self._follow)

    def _follow(self, change: TableChange) -> None:
        self.changed.set()

    async def run(self) -> None:
        await asyncio.sleep(self.rng.uniform(0, self.pace.round_seconds()))
        while True:
            state = self.actor.state
            if state is None or state.next_step().kind not in ("card", "count_out"):
                self.changed.clear()
                await self.changed.wait()
                continue
            await asyncio.sleep(self.rng.uniform(*self.pace.card_seconds))
            if self.actor.state is not state:
                continue  # the table moved on meanwhile (a pit boss, a void): look again
            await self._hand(DealCard(self.shoe.draw()))

    async def _hand(self, card: DealCard) -> None:
        reply: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        read_at = time.perf_counter()
        self.probe.handing[self.actor.id] = read_at
        self.actor.submit(Command("shoe", card, reply=reply, read_at=read_at), at_once=True)
        outcome = await reply
        if not outcome.accepted:
            self.probe.refused += 1
            self.probe.handing.pop(self.actor.id, None)


async def _until(done: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


async def _message(conn: Connection) -> Any:
    """The next message from the benchmark, without blocking the loop."""
    loop = asyncio.get_running_loop()
    got = loop.create_future()

    def readable() -> None:
        if not got.done():
            got.set_result(None)

    loop.add_reader(conn.fileno(), readable)
    try:
        await got
    finally:
        loop.remove_reader(conn.fileno())
    return conn.recv()


async def _run_station(conn: Connection, spec: StationSpec) -> None:
    station = Station(parse_config(station_config_text(spec)))
    probe = StationProbe()
    probe.watch_journal(station.journal)
    running = asyncio.create_task(station.run(), name="station")
    tasks: list[asyncio.Task[None]] = []
    try:
        connected = await _until(
            lambda: (
                running.done()
                or (
                    len(station.publishers) == len(spec.tables)
                    and all(p.connected for p in station.publishers.values())
                )
            ),
            CONNECT_TIMEOUT_S,
        )
        if running.done():
            running.result()  # the station died: say why
        if not connected:
            raise RuntimeError(f"station {spec.name}: its tables did not all connect")
        probe.watch_station(station)
        hands = [
            CroupierHand(actor, probe, spec.pace, spec.seed + n)
            for n, actor in enumerate(station.actors.values())
        ]
        tasks = [asyncio.create_task(hand.run()) for hand in hands]
        tasks += [
            asyncio.create_task(probe.tick_lag()),
            asyncio.create_task(probe.tick_backlog(station)),
        ]
        conn.send("ready")
        await _message(conn)  # stop dealing
        for task in tasks:
            task.cancel()
        # Whatever the tables journaled until now goes out: the last seq of each
        # table the consumer must have, once the broker acknowledged it.
        drained = await _until(
            lambda: all(p.backlog == 0 for p in station.publishers.values()), DRAIN_TIMEOUT_S
        )
        finals = {tid: p.acked for tid, p in station.publishers.items()}
        conn.send(
            {
                "drained": drained,
                "finals": finals,
                "commits": probe.commits,
                "cards": probe.cards,
                "pubacks": probe.pubacks,
                "lags": probe.lags,
                "backlogs": probe.backlogs,
                "disconnects": probe.disconnects,
                "published": probe.published,
                "appends": probe.appends,
                "refused": probe.refused,
            }
        )
    finally:
        for task in tasks:
            task.cancel()
        station.stopped.set()
        await asyncio.gather(running, *tasks, return_exceptions=True)


def station_main(conn: Connection, spec: StationSpec) -> None:
    """A station process: ``ready`` once every table is online and dealing; at
    the benchmark's next message it stops dealing, drains, and sends what it
    measured."""
    logging.basicConfig(level=logging.WARNING, format=f"{spec.name}: %(levelname)s %(message)s")
    Path(spec.journal).parent.mkdir(parents=True, exist_ok=True)
    asyncio.run(_run_station(conn, spec))


# -- the consumer -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ConsumerSpec:
    host: str
    port: int
    topic: str
    client_id: str


@dataclass(frozen=True)
class Receipt:
    """One message as the consumer got it."""

    at: float
    table: str
    seq: int
    id: str
    type: str


def receipts(raw: list[tuple[float, bytes]]) -> list[Receipt]:
    got = []
    for at, payload in raw:
        event = json.loads(payload)
        got.append(Receipt(at, event["table"], event["seq"], event["id"], event["type"]))
    return got


WAIT_FOR_ALL_S = 60.0


def consumer_main(conn: Connection, spec: ConsumerSpec) -> None:
    """The consumer process: ``ready`` once subscribed; then, told each table's
    last seq, waits (up to `WAIT_FOR_ALL_S`) until it has them all and sends
    what it got, with its lost connections."""
    raw: list[tuple[float, bytes]] = []
    subscribed = threading.Event()
    disconnects: list[float] = []
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=spec.client_id,
        protocol=mqtt.MQTTv311,
        clean_session=False,
    )
    client.on_connect = lambda c, u, f, rc, p: c.subscribe(spec.topic, qos=1)
    client.on_subscribe = lambda c, u, mid, rcs, p: subscribed.set()
    client.on_disconnect = lambda c, u, f, rc, p: disconnects.append(time.perf_counter())
    client.on_message = lambda c, u, m: raw.append((time.perf_counter(), bytes(m.payload)))
    client.max_inflight_messages_set(64)
    client.connect(spec.host, spec.port)
    client.loop_start()
    if not subscribed.wait(30):
        raise RuntimeError("the consumer could not subscribe")
    conn.send("ready")
    finals: dict[str, int] = conn.recv()
    last: dict[str, int] = {}
    read = 0
    complete = False
    deadline = time.monotonic() + WAIT_FOR_ALL_S
    while time.monotonic() < deadline:
        for _, payload in raw[read:]:
            event = json.loads(payload)
            last[event["table"]] = max(last.get(event["table"], 0), event["seq"])
            read += 1
        complete = all(last.get(tid, 0) >= seq for tid, seq in finals.items())
        if complete:
            break
        time.sleep(0.5)
    ended_at = time.perf_counter()
    lost_connections = list(disconnects)  # before its own goodbye
    client.disconnect()
    client.loop_stop()
    conn.send(
        {
            "raw": raw,
            "disconnects": lost_connections,
            "complete": complete,
            "ended_at": ended_at,
        }
    )
