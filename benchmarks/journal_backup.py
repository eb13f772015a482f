"""What a backup costs: its time and size for a journal of N records, and the
station's appends while it runs against the appends just before and after.

    .venv/bin/python benchmarks/journal_backup.py [--records 100000] [--dir DIR]

The journal is built as benchmarks/journal_verify.py builds it (a baccarat
card's record and its two round events). Then a writer process appends with
``synchronous=FULL``, as the station does, one record every 20 ms, for 2 s, the
backup (``journal_backup.backup`` with its shipped step and pause), and 2 s more;
each append's duration is sorted by whether it began during the backup.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import tempfile
import time
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from pathlib import Path

from journal_verify import _record, build

from dealer_station.journal import Journal
from dealer_station.journal_backup import backup

CADENCE_S = 0.02
AROUND_S = 2.0


Timings = list[tuple[float, float]]  # (began, took), monotonic seconds


def _writer(path: Path, stop: Event, out: Queue[Timings]) -> None:
    journal = Journal(path)
    timings: Timings = []
    i = 10_000_000
    while not stop.is_set():
        began = time.monotonic()
        journal.append(*_record(i))
        timings.append((began, time.monotonic() - began))
        i += 1
        time.sleep(CADENCE_S)
    journal.close()
    out.put(timings)


def _summary(durations: list[float]) -> str:
    if not durations:
        return "none"
    ms = sorted(d * 1000 for d in durations)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    median = statistics.median(ms)
    return f"{len(ms)} appends, median {median:.2f} ms, p99 {p99:.2f} ms, max {ms[-1]:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--dir", type=Path, default=None, help="where the journal goes (a disk)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as scratch:
        path = Path(scratch) / "journal.sqlite3"
        build(path, args.records)
        size = path.stat().st_size
        print(
            f"journal: {args.records} records, {size / 1e6:.1f} MB, "
            f"{size / args.records:.0f} B a record"
        )
        to = Path(scratch) / "backups"
        to.mkdir()
        stop = multiprocessing.Event()
        out: Queue[Timings] = multiprocessing.Queue()
        writer = multiprocessing.Process(target=_writer, args=(path, stop, out))
        writer.start()
        time.sleep(AROUND_S)
        began = time.monotonic()
        made = backup(path, to, keep=1)
        ended = time.monotonic()
        time.sleep(AROUND_S)
        stop.set()
        timings = out.get()
        writer.join()
        copy = made.path.stat().st_size
        print(
            f"backup: {ended - began:.2f} s (copy, integrity_check, chain), {copy / 1e6:.1f} MB, "
            f"{made.records} records"
        )
        during = [d for t, d in timings if began <= t <= ended]
        outside = [d for t, d in timings if not began <= t <= ended]
        print(f"appends during the backup: {_summary(during)}")
        print(f"appends before and after:  {_summary(outside)}")


if __name__ == "__main__":
    main()
