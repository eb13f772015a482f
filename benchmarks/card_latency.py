"""Card latency through the whole station, with a real mosquitto.

    .venv/bin/python benchmarks/card_latency.py [--cards 2000]

From the last byte of a CARD frame written to the pseudo-terminal, to (1) the
broker's PUBACK of the ``card_dealt`` round event, and (2) a subscriber's receipt
of it, beside three floors timed in the same run: the journal's fsync'd commit
of each card; a plain paho client's QoS 1 round trip to the same broker; and the
bare chain, a card's path with no station in it (PTY, one fdatasync'd write,
QoS 1 publish and PUBACK), what this machine's devices cost together.
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
from multiprocessing.connection import Connection
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from dealer_station.config import parse_config
from dealer_station.journal import OutMessage, Record
from dealer_station.station import Station
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


def shoe_and_studio(conn: Connection, link: str, broker_port: int, cards: int) -> None:
    """The child process: the shoe (croupier's hand) and a studio subscriber."""
    writes: list[float] = []
    received: list[tuple[float, bytes]] = []
    arrived = threading.Event()
    shuffled = threading.Event()

    def on_message(client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        received.append((time.perf_counter(), message.payload))
        if _answers_a_card(message.payload):
            arrived.set()
        elif b'"type":"shuffle"' in message.payload or b'"type":"new_shoe"' in message.payload:
            shuffled.set()  # the croupier shuffled: a fresh physical shoe goes in

    sub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="latency-subscriber")
    sub.on_message = on_message
    sub.on_connect = lambda c, u, f, rc, p: c.subscribe("dealer-station/bench/bac/round/event", 1)
    sub.connect("127.0.0.1", broker_port)
    sub.loop_start()
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
            time.sleep(GAP_S)
        else:
            time.sleep(0.0005)
    time.sleep(1.0)
    sim.close()
    sub.loop_stop()
    conn.send((writes, received))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=2000)
    args = parser.parse_args()

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

    async def run_station() -> None:
        station = Station(config)
        append = station.journal.append

        def timed_append(record: Record, messages: list[OutMessage]) -> int:
            started = time.perf_counter()
            seq = append(record, messages)
            if record.source == "shoe" and record.kind == "event":
                commits.append((time.perf_counter() - started) * 1000)
            return seq

        # The journal's own share, timed inside the same run: one fsync'd commit a card.
        station.journal.append = timed_append  # type: ignore[method-assign]
        task = asyncio.create_task(station.run())
        while "bac" not in station.publishers:
            await asyncio.sleep(0.01)
        station.publishers["bac"].on_puback = acks.__setitem__
        while not parent.poll():
            await asyncio.sleep(0.1)
        station.stopped.set()
        await task

    asyncio.run(run_station())
    writes, received = parent.recv()
    shoe.join()
    round_trips = bare_round_trips(port, 300)
    chain = bare_chain(port, work, 300)
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
    print("its floors, measured in the same run:")
    report("journal commit", commits)
    report("bare QoS 1", round_trips)
    report("bare chain", chain)


def report(name: str, values: list[float]) -> None:
    print(
        f"  {name:<15} n={len(values)}  p50 {statistics.median(values):6.2f} ms  "
        f"p99 {percentile(values, 99):6.2f} ms  max {max(values):6.2f} ms"
    )


def bare_chain(port: int, work: Path, count: int) -> list[float]:
    """The card's path with nothing of the station in it: bytes written to a
    PTY, read by a thread, one fdatasync'd 4 KiB write, a QoS 1 publish, its
    PUBACK. What this machine's PTY, disk and loopback cost together."""
    master, slave = os.openpty()
    tty.setraw(master)
    tty.setraw(slave)
    disk = os.open(work / "chain.bin", os.O_RDWR | os.O_CREAT)
    os.write(disk, bytes(1 << 20))
    os.fsync(disk)
    acked = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="latency-chain")
    client.on_publish = lambda *args: acked.set()
    client.connect("127.0.0.1", port)
    client.loop_start()
    frame = bytes(20)  # about a CARD frame
    times: list[float] = []
    for n in range(count):
        acked.clear()
        started = time.perf_counter()
        os.write(master, frame)
        got = b""
        while len(got) < len(frame):
            got += os.read(slave, 64)
        os.pwrite(disk, bytes(4096), (n % 256) * 4096)
        os.fdatasync(disk)
        client.publish("bench/chain", "x" * 400, qos=1)
        acked.wait(timeout=5)
        times.append((time.perf_counter() - started) * 1000)
        time.sleep(GAP_S / 2)
    client.loop_stop()
    client.disconnect()
    for fd in (master, slave, disk):
        os.close(fd)
    return times


def bare_round_trips(port: int, count: int) -> list[float]:
    """A plain paho client's QoS 1 publish to PUBACK on the same broker, at the
    same pace: what the network path costs without the station."""
    acked: dict[int, float] = {}
    done = threading.Event()

    def on_publish(client: mqtt.Client, userdata: object, mid: int, *rest: object) -> None:
        acked[mid] = time.perf_counter()
        done.set()

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="latency-floor")
    client.on_publish = on_publish
    client.connect("127.0.0.1", port)
    client.loop_start()
    payload = "x" * 400  # about a card_dealt event
    times: list[float] = []
    for _ in range(count):
        done.clear()
        started = time.perf_counter()
        info = client.publish("bench/floor", payload, qos=1)
        done.wait(timeout=5)
        times.append((acked[info.mid] - started) * 1000)
        time.sleep(GAP_S / 2)
    client.loop_stop()
    client.disconnect()
    return times


if __name__ == "__main__":
    main()
