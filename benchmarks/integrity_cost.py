"""What the integrity monitor costs per journal record, and
``dealer-station integrity --db`` over a journal of a million records.

    .venv/bin/python benchmarks/integrity_cost.py [--records 1000000] [--db PATH]

Writes (or reuses, with ``--db`` naming an existing file) a journal of the
self-driving tables, a third of the records each for roulette, baccarat and
blackjack, through the journal's own code with each input's round events in
the outbox (benchmarks/integrity_tables.py). Then:

- the monitor alone: the records and their settlements read into memory
  first, then ``observe`` + ``Monitor.feed`` timed per record;
- the whole command, read-only, from a cold process: its wall time.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from integrity_tables import write_journal

from dealer_station.integrity.monitor import Monitor
from dealer_station.integrity.observations import event_of_payload, observe
from dealer_station.journal import Journal, Record


def build(path: Path, records: int) -> None:
    started = time.perf_counter()
    for i, game in enumerate(("roulette", "baccarat", "blackjack")):
        write_journal(path, game, records // 3, seed=i + 1, fast=True)
    print(f"wrote {records:,} records in {time.perf_counter() - started:.0f} s")


def load(path: Path) -> list[tuple[Record, list[dict[str, Any]]]]:
    journal = Journal(path, read_only=True)
    out = []
    for table in journal.tables():
        settled: dict[int, list[dict[str, Any]]] = {}
        for seq, payload in journal.messages_of_type(table, "round_settled"):
            settled.setdefault(seq, []).append(event_of_payload(json.loads(payload)))
        out += [(r, settled.get(r.seq, [])) for r in journal.records(table)]
    journal.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--db", type=Path)
    args = parser.parse_args()
    path = args.db or Path(tempfile.mkdtemp()) / "journal.sqlite"
    if not path.exists():
        build(path, args.records)
    records = load(path)
    monitor = Monitor()
    started = time.perf_counter()
    for r, events in records:
        monitor.feed_all(
            observe(r.table, r.at, r.source, r.kind, r.status, r.reason, r.body, events)
        )
    fed = time.perf_counter() - started
    started = time.perf_counter()
    report = monitor.report(0.01)
    reported = time.perf_counter() - started
    print(
        f"monitor: {len(records):,} records in {fed:.2f} s = {fed / len(records) * 1e6:.2f} µs a "
        f"record; the report {reported * 1000:.0f} ms ({len(report.alarms)} alarms)"
    )
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "dealer_station", "integrity", "--db", str(path), "--json"],
        capture_output=True,
        check=False,
    )
    wall = time.perf_counter() - started
    print(f"dealer-station integrity --db: {wall:.1f} s wall, exit {done.returncode}")


if __name__ == "__main__":
    main()
