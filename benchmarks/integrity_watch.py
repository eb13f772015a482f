"""What the live integrity watch costs the station (dealer_station/integrity_watch.py):
its history read at a start, and one look (a report) at a checkpoint.

    .venv/bin/python benchmarks/integrity_watch.py [--records 300000] [--db PATH]

Writes (or reuses) a journal of the self-driving tables, a third of the records
each for roulette, baccarat and blackjack (benchmarks/integrity_tables.py), then
per table: ``read_history`` (what the watch runs in a worker thread at a start)
and ``Monitor.report`` on the counts it read (what a checkpoint runs on the
loop): the process's first (its odds worked out) and the median of four more.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from integrity_tables import write_journal

from dealer_station.integrity_watch import read_history
from dealer_station.journal import Journal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=300_000)
    parser.add_argument("--db", type=Path)
    args = parser.parse_args()
    path = args.db or Path(tempfile.mkdtemp()) / "journal.sqlite"
    if not path.exists():
        for i, game in enumerate(("roulette", "baccarat", "blackjack")):
            write_journal(path, game, args.records // 3, seed=i + 1, fast=True)
    journal = Journal(path, read_only=True)
    tables = journal.tables()
    sizes = {t: journal.last_seq(t) for t in tables}
    journal.close()
    for table in tables:
        started = time.perf_counter()
        history = read_history(path, table)
        read = time.perf_counter() - started
        looks = []
        for _ in range(5):
            started = time.perf_counter()
            report = history.monitor.report(0.01)
            looks.append(time.perf_counter() - started)
        findings = sum(len(t.verdicts) for t in report.tables)
        print(
            f"{table}: history up to journal seq {sizes[table]:,} read in {read:.2f} s; "
            f"the first look {looks[0] * 1000:.1f} ms, then "
            f"{statistics.median(looks[1:]) * 1000:.1f} ms ({findings} findings)"
        )


if __name__ == "__main__":
    main()
