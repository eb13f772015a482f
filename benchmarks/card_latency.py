"""Card latency through the whole station, with a real mosquitto.

    .venv/bin/python benchmarks/card_latency.py [--cards 2000] [--stages]

From the last byte of a CARD frame written to the pseudo-terminal, to (1) the
broker's PUBACK of the ``card_dealt`` round event, and (2) a subscriber's receipt
of it, beside two floors timed in the same run: the journal's fsync'd commit of
each card, and the bare chain, a card's path with no station in it (PTY, one
fdatasync'd write, QoS 1 publish and PUBACK), what this machine's devices cost
together. The bare chain is sampled between the cards, half a gap after each, so
that it meets the same minutes of the machine's noise as the cards do.
``--stages`` also times each step of a card inside the station (the probes wrap
the station's methods; they add a few microseconds a card). ``--hold-cpus-awake``
(root) keeps the CPUs out of their idle states for the run (a PM QoS request on
/dev/cpu_dma_latency), to show what waking an idle CPU costs the card on this
machine; the station itself does not ask for it.

Everything real: the shoe simulator (in its own process, as the firmware
would be) on a PTY, the serial driver, the table actor, the SQLite journal with
``synchronous=FULL`` (one fsync per card), the MQTT publisher, mosquitto, and a
subscriber (in the shoe's process, so it does not share the station's interpreter
lock). A self-driving baccarat table asks for the cards; the shoe draws one when
the light is green, the previous card has reached the subscriber and 50 ms have
passed (a croupier's hand is slower still); the self-driving croupier, too, takes
50 ms between rounds, so that its next round's inputs do not queue in front of
the last card's PUBACK as no person could. A card's answer is its ``card_dealt``
event, or its ``rejected`` event if it came when none was due. All clocks are
CLOCK_MONOTONIC (time.perf_counter on Linux), shared by the processes. The write
stamp is taken just before the frame's single write(), so the figures err long,
never short.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import multiprocessing as mp
import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode

from dealer_station.actor import TableActor
from dealer_station.config import parse_config
from dealer_station.input_identity import CardIdentity
from dealer_station.journal import Answer, OutMessage, Record
from dealer_station.latency_histogram import LatencyHistogram
from dealer_station.shoe_bridge import ShoeBridge
from dealer_station.station import Station
from dealer_station.table_inputs import Alarm, Command, DeviceChange, Outcome
from drivers.shoe import CardDrawn, ShoeEvent
from drivers.shoe.shuffled_shoe import shuffled_shoe
from drivers.shoe.simulator import FramedShoeSimulator
from firmware_proto import Indicator


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


GAP_S = 0.05


def _answers_a_card(payload: bytes) -> bool:
    """The round event that answers a card: dealt, or refused (a misdeal)."""
    return b'"source":"shoe"' in payload and (
        b'"type":"card_dealt"' in payload or b'"type":"rejected"' in payload
    )


class BareChain:
    """The card's path with nothing of the station in it: bytes written to a
    PTY and read back, one fdatasync'd 4 KiB write beside the journal, a QoS 1
    publish of a card-sized payload and its PUBACK, in one thread. What this
    machine's PTY, disk and loopback cost together."""

    def __init__(self, broker_port: int, work: Path) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.master)
        tty.setraw(self.slave)
        self.disk = os.open(work / "chain.bin", os.O_RDWR | os.O_CREAT)
        os.write(self.disk, bytes(1 << 20))
        os.fsync(self.disk)
        self.acked = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="latency-chain")
        self.client.on_publish = lambda *args: self.acked.set()
        self.client.connect("127.0.0.1", broker_port)
        self.client.loop_start()
        self.samples: list[float] = []

    def sample(self) -> None:
        frame = bytes(20)  # about a CARD frame
        self.acked.clear()
        started = time.perf_counter()
        os.write(self.master, frame)
        got = b""
        while len(got) < len(frame):
            got += os.read(self.slave, 64)
        os.pwrite(self.disk, bytes(4096), (len(self.samples) % 256) * 4096)
        os.fdatasync(self.disk)
        self.client.publish("bench/chain", "x" * 400, qos=1)
        self.acked.wait(timeout=5)
        self.samples.append((time.perf_counter() - started) * 1000)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()
        for fd in (self.master, self.slave, self.disk):
            os.close(fd)


def shoe_and_studio(conn: Connection, link: str, broker_port: int, cards: int) -> None:
    """The child process: the shoe (croupier's hand), a studio subscriber, and
    the bare chain sampled between the cards."""
    writes: list[float] = []
    received: list[tuple[float, bytes]] = []
    arrived = threading.Event()
    shuffled = threading.Event()

    def on_message(client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        payload = bytes(message.payload)
        received.append((time.perf_counter(), payload))
        if _answers_a_card(payload):
            arrived.set()
        elif b'"type":"shuffle"' in message.payload or b'"type":"new_shoe"' in message.payload:
            shuffled.set()  # the croupier shuffled: a fresh physical shoe goes in

    sub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="latency-subscriber")
    sub.on_message = on_message
    sub.on_connect = lambda c, u, f, rc, p: c.subscribe("dealer-station/bench/bac/round/event", 1)
    sub.connect("127.0.0.1", broker_port)
    sub.loop_start()
    chain = BareChain(broker_port, Path(link).parent)
    sim = FramedShoeSimulator(decks=8, seed=1, link_path=Path(link), on_card_written=writes.append)
    conn.send("ready")
    drawn = 0
    while drawn < cards:
        if sim.indicator == Indicator.GREEN and sim.all_acknowledged():
            if shuffled.is_set() or not sim.cards_left:
                shuffled.clear()
                sim.cards_left = shuffled_shoe(8, drawn)
            arrived.clear()
            sim.draw()
            drawn += 1
            arrived.wait(timeout=5)
            # A croupier's hand takes far longer than this to reach the shoe
            # again; the pause lets the shoe's light turn red when no card is due.
            time.sleep(GAP_S / 2)
            chain.sample()
            time.sleep(GAP_S / 2)
        else:
            time.sleep(0.0005)
    time.sleep(1.0)
    sim.close()
    chain.close()
    sub.loop_stop()
    conn.send((writes, received, chain.samples))


class StageProbe:
    """Times each step of a card inside the station: the shoe's thread has the
    frame, the table takes it, the journal's commit begins and ends, paho's
    write, the PUBACK. The probes wrap the station's own methods."""

    def __init__(self, station: Station, actor: TableActor) -> None:
        self.inputs: list[float] = []  # the link's thread has decoded a card
        self.cards: dict[int, dict[str, float]] = {}  # msg seq -> step -> time
        self.writes: list[float] = []
        current: dict[str, float] = {}  # the input in hand; a new dict for each
        to_input = ShoeBridge._input

        def timed_input(
            bridge: ShoeBridge, event: ShoeEvent
        ) -> tuple[Command | DeviceChange | Alarm | None, CardIdentity | None]:
            if isinstance(event, CardDrawn):
                self.inputs.append(time.perf_counter())
            return to_input(bridge, event)

        ShoeBridge._input = timed_input  # type: ignore[assignment, method-assign]
        handle = actor.handle

        def timed_handle(item: Command | DeviceChange) -> Outcome | None:
            nonlocal current
            current = {"taken": time.perf_counter()}
            return handle(item)

        actor.handle = timed_handle  # type: ignore[assignment, method-assign]
        append = station.journal.append

        def timed_append(
            record: Record, messages: list[OutMessage], answer: Answer | None = None
        ) -> int:
            current["commit"] = time.perf_counter()
            seq = append(record, messages, answer)
            current["committed"] = time.perf_counter()
            if record.source == "shoe":
                for message in messages:
                    self.cards[message.msg_seq] = current
            return seq

        station.journal.append = timed_append  # type: ignore[method-assign]

    def watch_writes(self, loop_write: Callable[[], MQTTErrorCode]) -> Callable[[], MQTTErrorCode]:
        def timed_write() -> MQTTErrorCode:
            done = loop_write()
            self.writes.append(time.perf_counter())
            return done

        return timed_write

    def steps(self, written: float, msg_seq: int, acked: float) -> dict[str, float] | None:
        card = self.cards.get(msg_seq)
        at = bisect.bisect_left(self.inputs, written)
        sent = bisect.bisect_left(self.writes, card["committed"]) if card else len(self.writes)
        if card is None or at == len(self.inputs) or sent == len(self.writes):
            return None
        marks = [
            written,
            self.inputs[at],
            card["taken"],
            card["commit"],
            card["committed"],
            self.writes[sent],
            acked,
        ]
        return {name: (b - a) * 1000 for name, a, b in zip(STEPS, marks, marks[1:], strict=False)}


STEPS = (
    "PTY to driver",
    "to the table",
    "game logic",
    "journal commit",
    "onto the wire",
    "to PUBACK",
)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=2000)
    parser.add_argument("--stages", action="store_true", help="time each step of a card")
    parser.add_argument("--hold-cpus-awake", action="store_true", help="PM QoS: no idle states")
    args = parser.parse_args()
    if args.hold_cpus_awake:
        # A latency of 0 µs, held while the descriptor is open: until this process ends.
        os.write(os.open("/dev/cpu_dma_latency", os.O_WRONLY), bytes(4))

    work = Path(tempfile.mkdtemp(prefix="card-latency-"))
    port = free_port()
    (work / "mosquitto.conf").write_text(
        f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
    )
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    broker = subprocess.Popen(
        [mosquitto, "-c", str(work / "mosquitto.conf")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(0.5)
    link = str(work / "shoe")
    parent, child = mp.Pipe()
    shoe = mp.Process(target=shoe_and_studio, args=(child, link, port, args.cards))
    shoe.start()
    assert parent.recv() == "ready"

    config = parse_config(
        f'studio = "bench"\nstation = "st"\njournal = "{work / "journal.sqlite3"}"\n'
        f'[mqtt]\nhost = "127.0.0.1"\nport = {port}\n'
        "[http]\nport = 0\n"
        f'[[tables]]\nid = "bac"\ngame = "baccarat"\nshoe = {{ port = "{link}" }}\n'
        "timers = { betting_seconds = 0.01 }\n"
        f"self_driving = {{ pause_seconds = {GAP_S}, think_seconds = 0.0 }}\n"
    )
    acks: dict[int, float] = {}
    commits: list[float] = []
    probe: StageProbe | None = None
    # The station's own histogram of the same cards (/metrics), read after the run.
    histogram: list[LatencyHistogram] = []

    async def run_station() -> None:
        nonlocal probe
        station = Station(config)
        if args.stages:
            probe = StageProbe(station, station.actors["bac"])
        append = station.journal.append

        def timed_append(
            record: Record, messages: list[OutMessage], answer: Answer | None = None
        ) -> int:
            started = time.perf_counter()
            seq = append(record, messages, answer)
            if record.source == "shoe" and record.kind == "event":
                commits.append((time.perf_counter() - started) * 1000)
            return seq

        # The journal's own share, timed inside the same run: one fsync'd commit a card.
        station.journal.append = timed_append  # type: ignore[method-assign]
        task = asyncio.create_task(station.run())
        while "bac" not in station.publishers:
            await asyncio.sleep(0.01)
        publisher = station.publishers["bac"]
        publisher.on_puback = acks.__setitem__
        histogram.append(publisher.card_to_puback)
        if probe is not None:
            publisher.link.client.loop_write = probe.watch_writes(  # type: ignore[method-assign]
                publisher.link.client.loop_write
            )
        while not parent.poll():
            await asyncio.sleep(0.1)
        station.stopped.set()
        await task

    asyncio.run(run_station())
    writes, received, chain = parent.recv()
    shoe.join()
    broker.terminate()

    dealt = [(at, json.loads(payload)) for at, payload in received if _answers_a_card(payload)]
    refused = sum(1 for _, m in dealt if m["type"] == "rejected")
    n = min(len(writes), len(dealt))
    to_puback = [
        (acks[m["seq"]] - w) * 1000
        for w, (_, m) in zip(writes, dealt, strict=False)
        if m["seq"] in acks
    ]
    to_subscriber = [(at - w) * 1000 for w, (at, _) in zip(writes[:n], dealt[:n], strict=True)]
    print(f"cards written {len(writes)}, answers received {len(dealt)} ({refused} refused)")
    print("the card's path:")
    for name, values in (("to PUBACK", to_puback), ("to subscriber", to_subscriber)):
        report(name, values)
    print("its floors, measured in the same minutes:")
    report("journal commit", commits)
    report("bare chain", chain)
    own = histogram[0]
    print(
        f"  the station's own histogram (/metrics) n={own.count}  p50 in {bucket(own, 0.5)}  "
        f"p99 in {bucket(own, 0.99)}  (from the shoe thread: without the PTY's share)"
    )
    if probe is not None:
        steps = [
            s
            for w, (_, m) in zip(writes, dealt, strict=False)
            if m["seq"] in acks and (s := probe.steps(w, m["seq"], acks[m["seq"]])) is not None
        ]
        report_steps(steps)


def bucket(histogram: LatencyHistogram, q: float) -> str:
    """The histogram's bucket that holds its quantile ``q``, in ms."""
    lower = 0.0
    for bound, n in histogram.cumulative():
        if n >= q * histogram.count:
            return f"({lower * 1000:g}, {bound * 1000:g}] ms"
        lower = bound
    return "(none)"


def report(name: str, values: list[float]) -> None:
    print(
        f"  {name:<15} n={len(values)}  p50 {statistics.median(values):6.2f} ms  "
        f"p99 {percentile(values, 99):6.2f} ms  max {max(values):6.2f} ms"
    )


def report_steps(steps: list[dict[str, float]]) -> None:
    """Each step's p50 and p99, and what the slowest 2% of cards spent on each."""
    slowest = sorted(steps, key=lambda s: sum(s.values()))[-max(1, len(steps) // 50) :]
    print(f"the steps of {len(steps)} cards (ms):        p50     p99   slowest 2%, mean")
    for name in STEPS:
        values = [s[name] for s in steps]
        tail = statistics.fmean(s[name] for s in slowest)
        print(
            f"  {name:<30} {statistics.median(values):6.2f}  {percentile(values, 99):6.2f}"
            f"  {tail:6.2f}"
        )


if __name__ == "__main__":
    main()
