"""A studio's load on its broker: hundreds of tables publishing at a busy
croupier's pace, mosquitto against a three-node RabbitMQ cluster.

    nice -n 10 .venv/bin/python benchmarks/broker_load.py \\
        [--brokers mosquitto,cluster] [--tables 50,100,200,300,400,600,800] [--per-station 25] \\
        [--warmup 10] [--measure 60] [--json FILE] [--work DIR]

For each broker, a ladder of steps of more and more tables, until a step breaks
(``--keep-going``: all of them). A step starts the studio's consumer (a paho
client with a persistent session subscribed to every table's ``round/event``,
QoS 1, MQTT 3.1.1), then ``ceil(tables / per-station)`` station processes of up
to ``--per-station`` tables each: the station's own code from a card to the
broker, every table self-driving baccarat dealt by a croupier's hand
(benchmarks/load_station.py says what is real and what stands in). Once every
table is online, ``--warmup`` seconds, then ``--measure`` seconds measured; then
the stations stop dealing, drain their outboxes, and the consumer is given each
table's last acknowledged seq to wait for.

The pace (``--card-seconds 1.5,2.0 --betting-seconds 5 --pause-seconds 1``): a
card every 1.5 to 2 s once the table wants one, betting open 5 s, the next
round 1 s after a settlement: a round of about 15 s, near twice Evolution's
Speed Baccarat (27 s a round against 48 s for its standard game), so each table
is busier than a real one. The tables start out of step (a random wait of up to
a round before the first card) and drift apart (the draws, 4 to 6 cards a round).

A step reports, for the cards whose journal commit fell in the measured
seconds: the time from the commit to the consumer's receipt (p50, p99, max),
to the broker's PUBACK (p99), and from the hand's card to its commit (p99: the
station's own share, the game and the journal); a journal commit's own time
(p99: its fsync); the stations' loop lag (p99, a 50 ms tick's lateness) and the
largest backlog of one table; over the whole step, the round events lost,
received twice or out of seq order (by table and ``seq``), and connections
lost. And the messages and payload bytes the stations published a second
(round events and retained state), the CPU of the broker (mosquitto, or the
cluster's three Erlang VMs), of the stations and of the consumer in cores
(/proc/PID/stat), how many of the broker's, the stations' and the consumer's
threads waited, runnable, for a CPU (/proc/PID/task/TID/schedstat), the
machine's busy cores (/proc/stat; ``others`` is what no process of the benchmark
used) and its load average.

A step breaks when the p99 reaches ``--goal-ms`` (50), a round event is lost,
repeated or out of order, or a station cannot drain its outbox; its verdict says
which, with the signs that came with it (``lag``: a station's loop lag p99 past
the goal; ``backlog``: a table's window of 64 in flight full; ``disconnects``;
``starved``: the stations', the broker's or the consumer's threads waited for a
CPU as long as they ran). A loss the consumer was still receiving when it stopped waiting (60 s
after the stations drained) is said to be that: late, not lost by the broker.

All clocks are CLOCK_MONOTONIC (time.perf_counter on Linux), shared by the
processes of this machine.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing as mp
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from load_station import (  # noqa: E402
    ConsumerSpec,
    Pace,
    Receipt,
    StationSpec,
    consumer_main,
    receipts,
    station_main,
)

from dealer_station.mqtt_publisher import WINDOW  # noqa: E402
from tools.rabbitmq_cluster import RabbitCluster, free_ports, listening  # noqa: E402

PREFIX = "dealer-station"
TICKS_PER_S = os.sysconf("SC_CLK_TCK")
READY_TIMEOUT_S = 180.0
RESULT_TIMEOUT_S = 120.0
# A group of processes is starved when its threads wait, runnable, as long as
# they run, and for at least this many cores' worth.
STARVED_FROM = 0.05


# -- the brokers ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Brokers:
    """What the stations and the consumer connect to."""

    kind: str
    # host:port of each broker (the nodes of a cluster).
    addresses: tuple[str, ...]
    protocol: str
    pids: Callable[[], list[int]]

    def for_station(self, n: int) -> tuple[str, ...]:
        """Station ``n``'s list: the nodes in turn, as a studio spreads its
        stations over them (each table's link starts on the first)."""
        k = n % len(self.addresses)
        return self.addresses[k:] + self.addresses[:k]

    @property
    def consumer(self) -> tuple[str, int]:
        host, port = self.addresses[0].rsplit(":", 1)
        return host, int(port)


MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


@contextmanager
def mosquitto(work: Path) -> Iterator[Brokers]:
    """One mosquitto, configured as the tests' (tests/support/broker.py): no
    persistence, and a queue of 100,000 messages a client where the default 1,000
    would drop what a slow consumer has not taken. The stations on MQTT 5, their
    default."""
    work.mkdir(parents=True, exist_ok=True)
    port = free_ports(1)[0]
    conf = work / "mosquitto.conf"
    conf.write_text(
        f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
        "max_queued_messages 100000\n"
    )
    with (work / "mosquitto.log").open("ab") as log:
        broker = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 10
        while not listening(port):
            if time.monotonic() > deadline or broker.poll() is not None:
                raise RuntimeError(f"mosquitto did not listen on {port}: see {work}")
            time.sleep(0.02)
        yield Brokers("mosquitto", (f"127.0.0.1:{port}",), "5", lambda: [broker.pid])
    finally:
        broker.kill()
        broker.wait(timeout=30)


@contextmanager
def cluster(work: Path) -> Iterator[Brokers]:
    """tools/rabbitmq_cluster.py's three nodes; MQTT 3.1.1, all RabbitMQ 3.10 speaks."""
    with RabbitCluster(work) as nodes:

        def pids() -> list[int]:
            return [pid for node in nodes.nodes if (pid := node.pid()) is not None]

        addresses = tuple(f"127.0.0.1:{node.mqtt_port}" for node in nodes.nodes)
        yield Brokers("cluster", addresses, "3.1.1", pids)


BROKERS = {"mosquitto": mosquitto, "cluster": cluster}


# -- CPU --------------------------------------------------------------------------------------


def process_ticks(pid: int) -> int:
    """The user and system CPU ticks of process ``pid`` (0 once it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    fields = stat[stat.rindex(")") + 2 :].split()
    return int(fields[11]) + int(fields[12])


def runqueue_wait_ns(pid: int) -> int:
    """How long the threads of process ``pid`` (those alive now) have waited,
    runnable, for a CPU (/proc/PID/task/TID/schedstat; the consumer's too), in ns."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0
    total = 0
    for task in tasks:
        with contextlib.suppress(OSError, IndexError, ValueError):  # a thread gone meanwhile
            total += int(Path(f"/proc/{pid}/task/{task}/schedstat").read_text().split()[1])
    return total


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine, every core."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    idle = values[3] + values[4]  # idle and iowait
    return sum(values) - idle, sum(values)


@dataclass
class CpuMark:
    at: float
    ticks: dict[str, int]
    waits: dict[str, int]
    machine: tuple[int, int]

    @staticmethod
    def take(groups: dict[str, list[int]]) -> CpuMark:
        return CpuMark(
            time.perf_counter(),
            {name: sum(process_ticks(pid) for pid in pids) for name, pids in groups.items()},
            {name: sum(runqueue_wait_ns(pid) for pid in pids) for name, pids in groups.items()},
            machine_ticks(),
        )


def cores_used(start: CpuMark, end: CpuMark) -> dict[str, float]:
    """Between the marks: each group's CPU in cores and (``<group> wait``) the
    average number of its threads runnable but waiting for a CPU; the machine's
    busy cores and those nothing of the benchmark used (``others``)."""
    seconds = end.at - start.at
    used = {
        name: (end.ticks[name] - start.ticks[name]) / TICKS_PER_S / seconds for name in start.ticks
    }
    busy = end.machine[0] - start.machine[0]
    total = end.machine[1] - start.machine[1]
    machine = busy / total * (os.cpu_count() or 1) if total else 0.0
    waits = {
        f"{name} wait": (end.waits[name] - start.waits[name]) / 1e9 / seconds
        for name in start.waits
    }
    return {
        **used,
        **waits,
        "machine": machine,
        "others": max(0.0, machine - sum(used.values())),
    }


# -- a step -----------------------------------------------------------------------------------


@dataclass
class StepResult:
    broker: str
    tables: int
    stations: int
    cards_per_s: float
    events_per_s: float
    messages_per_s: float
    kbytes_per_s: float
    cards: int
    p50_ms: float
    p99_ms: float
    max_ms: float
    puback_p99_ms: float
    commit_p99_ms: float
    journal_p99_ms: float
    lag_p99_ms: float
    max_backlog: int
    lost: int
    copies: int
    disorder: int
    refused: int
    drained: bool
    disconnects: int
    cpu: dict[str, float]
    broker_rss_mib: float
    load: tuple[float, float, float]
    verdict: list[str]
    # The tables that lost round events: how many, the first and the last.
    gaps: dict[str, str]

    @property
    def broken(self) -> bool:
        return any(not v.startswith("sign:") for v in self.verdict)


@dataclass
class StationRun:
    """What the stations and the consumer sent back, for the checks of a test."""

    finals: dict[str, int]
    cards: list[tuple[str, int, float]]
    receipts: list[Receipt]


def percentile(values: list[float], p: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def delivery(finals: dict[str, int], got: list[Receipt]) -> tuple[int, int, int]:
    """(lost, copies, out of order) over each table's round events up to its last seq."""
    counts: dict[tuple[str, int], int] = defaultdict(int)
    highest: dict[str, int] = defaultdict(int)
    disorder = 0
    for receipt in got:
        key = (receipt.table, receipt.seq)
        counts[key] += 1
        if counts[key] == 1 and receipt.seq < highest[receipt.table]:
            disorder += 1
        highest[receipt.table] = max(highest[receipt.table], receipt.seq)
    lost = sum(
        1
        for tid, final in finals.items()
        for seq in range(1, final + 1)
        if (tid, seq) not in counts
    )
    copies = sum(n - 1 for n in counts.values())
    return lost, copies, disorder


def gaps(finals: dict[str, int], got: list[Receipt]) -> dict[str, list[int]]:
    """Each table's lost seqs, for the tables that lost some."""
    seen = {(r.table, r.seq) for r in got}
    missing = {
        tid: [seq for seq in range(1, final + 1) if (tid, seq) not in seen]
        for tid, final in finals.items()
    }
    return {tid: seqs for tid, seqs in missing.items() if seqs}


def analyse(
    stations: list[dict[str, Any]],
    got: list[Receipt],
    window: tuple[float, float],
) -> dict[str, Any]:
    """A step's figures from what the stations and the consumer measured."""
    start, end = window
    seconds = end - start
    finals = {tid: seq for s in stations for tid, seq in s["finals"].items()}
    committed = {(tid, seq): at for s in stations for tid, seq, at in s["commits"]}
    acked = {(tid, seq): at for s in stations for tid, seq, at in s["pubacks"]}
    first: dict[tuple[str, int], float] = {}
    for receipt in got:
        first.setdefault((receipt.table, receipt.seq), receipt.at)
    cards = [
        (key, committed[key] - read_at)
        for s in stations
        for tid, seq, read_at in s["cards"]
        if start <= committed[key := (tid, seq)] < end
    ]
    to_receipt = [(first[key] - committed[key]) * 1000 for key, _ in cards if key in first]
    to_puback = [(acked[key] - committed[key]) * 1000 for key, _ in cards if key in acked]
    published = [p for s in stations for p in s["published"] if start <= p[0] < end]
    lags = [lag * 1000 for s in stations for at, lag in s["lags"] if start <= at < end]
    backlogs = [most for s in stations for at, most, _ in s["backlogs"] if start <= at < end]
    lost, copies, disorder = delivery(finals, got)
    return {
        "finals": finals,
        "cards_per_s": len(cards) / seconds,
        "events_per_s": sum(1 for at in committed.values() if start <= at < end) / seconds,
        "messages_per_s": len(published) / seconds,
        "kbytes_per_s": sum(size for _, size in published) / 1000 / seconds,
        "cards": len(cards),
        "p50_ms": statistics.median(to_receipt) if to_receipt else math.nan,
        "p99_ms": percentile(to_receipt, 99),
        "max_ms": max(to_receipt, default=math.nan),
        "puback_p99_ms": percentile(to_puback, 99),
        "commit_p99_ms": percentile([c * 1000 for _, c in cards], 99),
        "lag_p99_ms": percentile(lags, 99),
        "journal_p99_ms": percentile(
            [took * 1000 for s in stations for at, took in s["appends"] if start <= at < end], 99
        ),
        "max_backlog": max(backlogs, default=0),
        "lost": lost,
        "gaps": {
            tid: f"{len(seqs)} from {seqs[0]} to {seqs[-1]}"
            for tid, seqs in gaps(finals, got).items()
        },
        "copies": copies,
        "disorder": disorder,
        "refused": sum(s["refused"] for s in stations),
        "drained": all(s["drained"] for s in stations),
    }


def verdict(figures: dict[str, Any], cpu: dict[str, float], goal_ms: float) -> list[str]:
    """What broke (the goal missed, an event lost, repeated or out of order, an
    outbox that would not drain), then the signs that came with it (``sign:``)."""
    broke = []
    if not figures["p99_ms"] < goal_ms:
        broke.append(f"p99 {figures['p99_ms']:.0f} ms")
    for name in ("lost", "copies", "disorder"):
        if figures[name]:
            broke.append(f"{name} {figures[name]}")
    if figures["lost"] and figures["consumer_behind"]:
        broke.append("the consumer still receiving when it stopped waiting")
    if not figures["drained"]:
        broke.append("not drained")
    signs = []
    if figures["lag_p99_ms"] >= goal_ms:
        signs.append(f"lag {figures['lag_p99_ms']:.0f} ms")
    if figures["max_backlog"] >= WINDOW:
        signs.append(f"backlog {figures['max_backlog']}")
    if figures["disconnects"]:
        signs.append(f"disconnects {figures['disconnects']}")
    for group in ("stations", "broker", "consumer"):
        if cpu[f"{group} wait"] >= max(cpu[group], STARVED_FROM):
            signs.append(f"{group} starved {cpu[f'{group} wait']:.2f}")
    return broke + [f"sign: {s}" for s in signs]


def _await(conn: Connection, process: BaseProcess, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while not conn.poll(0.2):
        if not process.is_alive():
            raise RuntimeError(f"{what} exited ({process.exitcode})")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what}: nothing in {timeout:g} s")
    return conn.recv()


def rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def run_step(
    brokers: Brokers,
    tables: int,
    per_station: int,
    pace: Pace,
    warmup: float,
    measure: float,
    work: Path,
    goal_ms: float = 50.0,
    seed: int = 1,
) -> tuple[StepResult, StationRun]:
    ctx = mp.get_context("spawn")
    studio = f"load{tables}"
    count = math.ceil(tables / per_station)
    ids = [f"t{n:04d}" for n in range(1, tables + 1)]
    specs = [
        StationSpec(
            name=f"s{k:02d}",
            studio=studio,
            tables=tuple(ids[k::count]),
            brokers=brokers.for_station(k),
            protocol=brokers.protocol,
            journal=str(work / studio / f"s{k:02d}.sqlite3"),
            pace=pace,
            seed=seed + 1000 * k,
        )
        for k in range(count)
    ]
    host, port = brokers.consumer
    topic = f"{PREFIX}/{studio}/+/round/event"
    consumer_conn, child = ctx.Pipe()
    consumer = ctx.Process(
        target=consumer_main,
        args=(child, ConsumerSpec(host, port, topic, f"{studio}-consumer")),
        name="consumer",
    )
    consumer.start()
    processes: list[tuple[Connection, BaseProcess]] = []
    process: BaseProcess
    try:
        _await(consumer_conn, consumer, READY_TIMEOUT_S, "the consumer")
        for spec in specs:
            parent, child = ctx.Pipe()
            process = ctx.Process(target=station_main, args=(child, spec), name=spec.name)
            process.start()
            processes.append((parent, process))
        for (conn, process), spec in zip(processes, specs, strict=True):
            _await(conn, process, READY_TIMEOUT_S, f"station {spec.name}")
        time.sleep(warmup)
        groups = {
            "broker": brokers.pids(),
            "stations": [p.pid for _, p in processes if p.pid is not None],
            "consumer": [consumer.pid] if consumer.pid is not None else [],
        }
        began = CpuMark.take(groups)
        time.sleep(measure)
        ended = CpuMark.take(groups)
        cpu = cores_used(began, ended)
        load = os.getloadavg()
        broker_rss = sum(rss_mib(pid) for pid in groups["broker"])
        for conn, _ in processes:
            conn.send("stop")
        stations = [
            _await(conn, process, RESULT_TIMEOUT_S, f"station {process.name}")
            for conn, process in processes
        ]
        finals = {tid: seq for s in stations for tid, seq in s["finals"].items()}
        consumer_conn.send(finals)
        consumed = _await(consumer_conn, consumer, RESULT_TIMEOUT_S, "the consumer")
    finally:
        for _, process in [*processes, (consumer_conn, consumer)]:
            process.join(timeout=60)
            if process.is_alive():
                process.terminate()
                process.join()
    got = receipts(consumed["raw"])
    figures = analyse(stations, got, (began.at, ended.at))
    figures["consumer_behind"] = (
        not consumed["complete"] and bool(got) and got[-1].at >= consumed["ended_at"] - 2.0
    )
    figures["disconnects"] = sum(len(s["disconnects"]) for s in stations) + len(
        consumed["disconnects"]
    )
    result = StepResult(
        broker=brokers.kind,
        tables=tables,
        stations=count,
        cards_per_s=figures["cards_per_s"],
        events_per_s=figures["events_per_s"],
        messages_per_s=figures["messages_per_s"],
        kbytes_per_s=figures["kbytes_per_s"],
        cards=figures["cards"],
        p50_ms=figures["p50_ms"],
        p99_ms=figures["p99_ms"],
        max_ms=figures["max_ms"],
        puback_p99_ms=figures["puback_p99_ms"],
        commit_p99_ms=figures["commit_p99_ms"],
        journal_p99_ms=figures["journal_p99_ms"],
        lag_p99_ms=figures["lag_p99_ms"],
        max_backlog=figures["max_backlog"],
        lost=figures["lost"],
        copies=figures["copies"],
        disorder=figures["disorder"],
        refused=figures["refused"],
        drained=figures["drained"],
        disconnects=figures["disconnects"],
        cpu=cpu,
        broker_rss_mib=broker_rss,
        load=load,
        verdict=verdict(figures, cpu, goal_ms),
        gaps=figures["gaps"],
    )
    cards = [card for s in stations for card in s["cards"]]
    return result, StationRun(finals, cards, got)


# -- the report -------------------------------------------------------------------------------

LATENCY_HEAD = (
    f"{'broker':<9} {'tables':>6} {'st':>3} {'cards/s':>7} {'ev/s':>6} "
    f"{'p50':>6} {'p99':>6} {'max':>6} {'ack99':>6} {'in99':>6} {'db99':>6} {'lag99':>6} "
    f"{'backlog':>7} {'lost':>5} {'dup':>4} {'order':>5}  verdict"
)
CPU_HEAD = (
    f"{'broker':<9} {'tables':>6} {'msgs/s':>7} {'KB/s':>6} {'broker':>7} {'wait':>5} "
    f"{'stations':>8} {'wait':>5} {'consumer':>8} {'wait':>5} {'machine':>7} {'others':>6} "
    f"{'RSS MiB':>8}  load 1/5/15"
)


def latency_line(r: StepResult) -> str:
    return (
        f"{r.broker:<9} {r.tables:>6} {r.stations:>3} {r.cards_per_s:>7.1f} "
        f"{r.events_per_s:>6.0f} {r.p50_ms:>6.1f} {r.p99_ms:>6.1f} {r.max_ms:>6.0f} "
        f"{r.puback_p99_ms:>6.1f} {r.commit_p99_ms:>6.1f} {r.journal_p99_ms:>6.1f} "
        f"{r.lag_p99_ms:>6.1f} "
        f"{r.max_backlog:>7} {r.lost:>5} {r.copies:>4} {r.disorder:>5}  "
        + ("; ".join(r.verdict) or "ok")
    )


def cpu_line(r: StepResult) -> str:
    c = r.cpu
    return (
        f"{r.broker:<9} {r.tables:>6} {r.messages_per_s:>7.0f} {r.kbytes_per_s:>6.0f} "
        f"{c['broker']:>7.2f} {c['broker wait']:>5.2f} {c['stations']:>8.2f} "
        f"{c['stations wait']:>5.2f} {c['consumer']:>8.2f} {c['consumer wait']:>5.2f} "
        f"{c['machine']:>7.2f} "
        f"{c['others']:>6.2f} {r.broker_rss_mib:>8.0f}  "
        f"{r.load[0]:.2f} {r.load[1]:.2f} {r.load[2]:.2f}"
    )


def print_report(results: list[StepResult]) -> None:
    print(
        "\nms from a card's journal commit: to the consumer (p50, p99, max), to the "
        "PUBACK (ack99); from the hand to the commit (in99); a journal commit (db99); "
        "the stations' loop lag (lag99)"
    )
    print(LATENCY_HEAD)
    for r in results:
        print(latency_line(r))
    print(
        "\nmessages and payload bytes the stations published (round events and retained "
        "state); CPU in cores and runnable threads waiting for one (wait), over the "
        f"measured seconds ({os.cpu_count()} cores on this machine)"
    )
    print(CPU_HEAD)
    for r in results:
        print(cpu_line(r))


def _floats(text: str) -> tuple[float, float]:
    low, high = (float(v) for v in text.split(","))
    return low, high


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--brokers", default="mosquitto,cluster")
    parser.add_argument("--tables", default="50,100,200,300,400,600,800")
    parser.add_argument("--per-station", type=int, default=25)
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--measure", type=float, default=60.0)
    parser.add_argument("--card-seconds", type=_floats, default=Pace().card_seconds)
    parser.add_argument("--betting-seconds", type=float, default=Pace().betting_seconds)
    parser.add_argument("--pause-seconds", type=float, default=Pace().pause_seconds)
    parser.add_argument("--goal-ms", type=float, default=50.0)
    parser.add_argument("--keep-going", action="store_true", help="every step, broken or not")
    parser.add_argument("--json", type=Path, help="also write the steps' figures here")
    parser.add_argument(
        "--work",
        type=Path,
        help="keep the journals and the brokers' logs here (default: a temp dir)",
    )
    args = parser.parse_args()
    pace = Pace(args.card_seconds, args.betting_seconds, args.pause_seconds)
    ladder = [int(n) for n in args.tables.split(",")]
    print(
        f"pace: a card every {pace.card_seconds[0]:g}-{pace.card_seconds[1]:g} s, betting "
        f"{pace.betting_seconds:g} s, {pace.pause_seconds:g} s between rounds (a round of "
        f"about {pace.round_seconds():.0f} s); {args.per_station} tables a station; "
        f"{args.warmup:g} s warm-up, {args.measure:g} s measured; load {os.getloadavg()}",
        flush=True,
    )
    results: list[StepResult] = []
    with contextlib.ExitStack() as stack:
        tmp = args.work or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="load-")))
        for kind in args.brokers.split(","):
            started = time.monotonic()
            with BROKERS[kind](tmp / kind) as brokers:
                print(f"{kind} up in {time.monotonic() - started:.1f} s", flush=True)
                for tables in ladder:
                    result, _ = run_step(
                        brokers,
                        tables,
                        args.per_station,
                        pace,
                        args.warmup,
                        args.measure,
                        tmp / kind,
                        args.goal_ms,
                    )
                    results.append(result)
                    print(latency_line(result), flush=True)
                    print(cpu_line(result), flush=True)
                    if result.broken and not args.keep_going:
                        break
    print_report(results)
    if args.json is not None:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
