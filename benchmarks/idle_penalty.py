"""What a pause costs the table's code: one card's handling, back to back and after idling.

    .venv/bin/python benchmarks/idle_penalty.py [--inputs 2000]

The table actor handles the inputs of self-driving baccarat rounds (journal in
/dev/shm without fsync, so that only the code is timed; no listeners). For each
card it times ``handle`` minus the journal's share, once with the inputs back to
back and once with a pause before each card: 50 ms asleep, as in the latency
benchmark, and 50 ms spinning on the clock. The same code, the same inputs; the
difference is what the machine does to a process that waits (caches, CPU
frequency, the host's scheduling of a virtual CPU).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from dealer_station.actor import TableActor
from dealer_station.autoplay import Autoplay
from dealer_station.config import TableConfig
from dealer_station.games.events import DealCard
from dealer_station.journal import Answer, Journal, OutMessage, Record
from dealer_station.payloads import Topics
from dealer_station.table_inputs import Command


def card_costs(inputs: int, pause: float, spin: bool) -> list[float]:
    shm = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
    work = Path(tempfile.mkdtemp(prefix="idle-penalty-", dir=shm))
    journal = Journal(work / "journal.sqlite3")
    journal._db.execute("PRAGMA synchronous=OFF")
    config = TableConfig.model_validate({"id": "t", "game": "baccarat"})
    actor = TableActor(config, "bench", journal, Topics("p", "bench", "t"))
    actor.recover()
    in_journal = 0.0
    append = journal.append

    def timed_append(
        record: Record, messages: list[OutMessage], answer: Answer | None = None
    ) -> int:
        nonlocal in_journal
        started = time.perf_counter()
        seq = append(record, messages, answer)
        in_journal = time.perf_counter() - started
        return seq

    journal.append = timed_append  # type: ignore[method-assign]
    robot = Autoplay("baccarat", None, 1, "t", deals_cards=True)
    costs = []
    for _ in range(inputs):
        event = robot.next_event(actor.state)
        if not isinstance(event, DealCard):
            actor.handle(Command("croupier", event))
            continue
        if spin:
            until = time.perf_counter() + pause
            while time.perf_counter() < until:
                pass
        elif pause:
            time.sleep(pause)
        started = time.perf_counter()
        actor.handle(Command("shoe", event))
        costs.append((time.perf_counter() - started - in_journal) * 1000)
    journal.close()
    shutil.rmtree(work)
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--inputs", type=int, default=2000)
    parser.add_argument("--pause", type=float, default=0.05)
    args = parser.parse_args()
    print("a card's handling without the journal (ms):   p50     p90")
    for name, pause, spin in (
        ("back to back", 0.0, False),
        (f"after {args.pause * 1000:.0f} ms asleep", args.pause, False),
        (f"after {args.pause * 1000:.0f} ms spinning", args.pause, True),
    ):
        costs = sorted(card_costs(args.inputs, pause, spin))
        p90 = costs[int(0.9 * (len(costs) - 1))]
        print(f"  {name:<40} {statistics.median(costs):6.3f}  {p90:6.3f}")


if __name__ == "__main__":
    main()
