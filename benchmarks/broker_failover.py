"""How long a table takes to fail over when its RabbitMQ node dies mid-shoe.

    nice -n 10 .venv/bin/python benchmarks/broker_failover.py [--trials 3]

Each trial starts a fresh three-node cluster (tools/rabbitmq_cluster.py, MQTT
3.1.1), a station with `[mqtt] brokers` = the three nodes and a self-driving
baccarat table dealt from a framed shoe simulator on a real PTY at a croupier's
pace (tests/support/dealing.py), and a consumer with a persistent session on
the third node. After three rounds the station's node is killed (``kill -9`` of
its Erlang VM). From the kill (time.monotonic around it) to:

- the station's first accepted connection on another node (polled every 5 ms
  through the station's loop): the back-off's first draw (uniform in 0..1 s,
  docs/mqtt.md) plus the connect;
- its backlog drained: every round event journaled by then acknowledged;

and the copies the consumer received of events it already had (the events
sent again from the outbox, docs/consumers.md). Also how long the cluster
took to start. Prints one line a trial and a summary.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from support.broker import Subscriber  # noqa: E402
from support.dealing import dealt_baccarat  # noqa: E402
from support.station import StationThread  # noqa: E402

from tools.rabbitmq_cluster import RabbitCluster  # noqa: E402

EVENTS = "dealer-station/test/bac/round/event"
POLL_S = 0.005


def _until(done: Callable[[], bool], timeout: float = 60.0) -> float:
    """Poll ``done`` until true; the monotonic time it was first seen true."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise RuntimeError("timed out")
        time.sleep(POLL_S)
    return time.monotonic()


def trial(work: Path) -> dict[str, float]:
    with RabbitCluster(work / "rabbitmq") as cluster:
        consumer = Subscriber(
            cluster.nodes[2].mqtt_port, EVENTS, client_id="bench-consumer", clean_session=False
        )
        brokers = ", ".join(f'"127.0.0.1:{node.mqtt_port}"' for node in cluster.nodes)
        mqtt = f'brokers = [{brokers}]\nprotocol = "3.1.1"\n'
        with (
            dealt_baccarat(work / "journal.sqlite3", 0, mqtt) as config,
            StationThread(config) as st,
        ):
            st.wait_until(lambda: st.station is not None and "bac" in st.station.publishers)
            assert st.station is not None
            publisher = st.station.publishers["bac"]
            st.wait_until(lambda: len(st.actor("bac").stats.settled) >= 3, timeout=60)
            killed = time.monotonic()  # SIGKILL is sent at once; kill() then reaps it
            cluster.kill(cluster.nodes[0])
            journaled = st.call(lambda: publisher.latest.msg_seq)
            online = _until(lambda: st.call(lambda: publisher.connects) >= 2)
            drained = _until(lambda: st.call(lambda: publisher.acked) >= journaled)
            upto = st.call(lambda: publisher.acked)
            consumer.wait_for(
                lambda ms: {json.loads(m.payload)["seq"] for m in ms} >= set(range(1, upto + 1)),
                timeout=30,
            )
        consumer.close()
        seqs = [json.loads(m.payload)["seq"] for m in consumer.messages]
        copies = sum(1 for seq in seqs if seq <= upto) - upto
        return {
            "cluster_start_s": cluster.start_seconds,
            "online_s": online - killed,
            "drained_s": drained - killed,
            "copies": copies,
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=3)
    args = parser.parse_args()
    results = []
    for n in range(1, args.trials + 1):
        with tempfile.TemporaryDirectory(prefix="broker-failover-") as work:
            result = trial(Path(work))
        results.append(result)
        print(
            f"trial {n}: cluster up in {result['cluster_start_s']:.1f} s; from the kill, "
            f"online on another node in {result['online_s'] * 1000:.0f} ms, backlog drained "
            f"in {result['drained_s'] * 1000:.0f} ms; {result['copies']:.0f} copies",
            flush=True,
        )
    for key in ("cluster_start_s", "online_s", "drained_s", "copies"):
        values = [r[key] for r in results]
        print(
            f"{key}: median {statistics.median(values):.3f}, "
            f"min {min(values):.3f}, max {max(values):.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
