"""What the hash chain costs: the time to verify a journal of N records, and an
append with and without the hash, in the same run.

    .venv/bin/python benchmarks/journal_verify.py [--records 100000 1000000]
        [--appends 3000] [--dir /dev/shm]

The journals are built by ``Journal.append`` itself (a baccarat card's record
and its two round events, about the size the station writes), with
``synchronous=OFF`` while building so that a million records take a minute, not
an hour of fsyncs. Verify is timed twice: the walk in this process, and
``dealer-station journal verify`` as a subprocess (what a regulator runs:
interpreter start, reading, hashing, the report); then the same journal with its
hashes erased is chained by a writer's open, as a journal written before the
chain is at its first start after the upgrade.

The append is timed with ``synchronous=FULL`` as the station runs it, on the
directory given (a disk: the fsync dominates; ``/dev/shm``: the append's own
work), once as it is and once with the hash replaced by a constant, alternating
in rounds so that the disk's mood affects both alike.
"""

from __future__ import annotations

import argparse
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dealer_station import journal_chain
from dealer_station.journal import Journal, OutMessage, Record

AT = "2026-12-01T07:36:25.299Z"


def _record(i: int) -> tuple[Record, list[OutMessage]]:
    body = {"v": 1, "type": "card", "card": "9C", "id": f"305419896:2:{i}"}
    event = (
        '{"v":1,"table":"bac","at":"2026-12-01T07:36:25.299Z","id":"studio-a/bac/%d","seq":%d,'
        '"round":"bac-000123","type":"card_dealt","source":"shoe",'
        '"data":{"card":"9C","to":"player","face":"up","score":9}}'
    )
    state = '{"v":1,"table":"bac","type":"state","seq":%d,"next":{"kind":"card","to":"banker"}}'
    messages = [
        OutMessage("bac", 2 * i + 1, "dealer-station/studio-a/bac/round/event", event % (i, i)),
        OutMessage("bac", 2 * i + 2, "dealer-station/studio-a/bac/round/event", state % i),
    ]
    return Record("bac", AT, "shoe", "event", body, "accepted"), messages


def build(path: Path, records: int) -> None:
    journal = Journal(path)
    journal._db.execute("PRAGMA synchronous=OFF")  # building only: see the docstring
    for i in range(records):
        journal.append(*_record(i))
    journal.close()


def time_verify(path: Path) -> tuple[float, float]:
    started = time.perf_counter()
    reader = Journal(path, read_only=True)
    with reader.one_instant():
        walked = journal_chain.walk(reader.rows())
    reader.close()
    in_process = time.perf_counter() - started
    assert walked.broken is None, walked.broken
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "dealer_station", "journal", "verify", "--db", str(path)],
        capture_output=True,
        text=True,
    )
    command = time.perf_counter() - started
    assert done.returncode == 0, done.stdout + done.stderr
    return in_process, command


def time_migration(path: Path) -> float:
    """Seconds a writer's open takes to chain a journal none of whose records
    has a hash (one written before the chain: its first start after the upgrade)."""
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE journal SET hash = NULL")
        db.execute("DELETE FROM chain_migration")
    db.close()
    started = time.perf_counter()
    Journal(path).close()
    return time.perf_counter() - started


def time_appends(directory: Path, appends: int, rounds: int = 5) -> tuple[float, float]:
    """µs per append with the hash and without it (a constant in its place)."""
    real_link = journal_chain.link

    def no_hash(previous: bytes, columns: object, messages: object) -> bytes:
        return journal_chain.GENESIS

    totals = {"hash": 0.0, "none": 0.0}
    for r in range(rounds):
        for name in ("hash", "none") if r % 2 == 0 else ("none", "hash"):
            journal_chain.link = real_link if name == "hash" else no_hash
            path = directory / f"append-{name}-{r}.sqlite3"
            journal = Journal(path)
            started = time.perf_counter()
            for i in range(appends):
                journal.append(*_record(i))
            totals[name] += time.perf_counter() - started
            journal.close()
    journal_chain.link = real_link
    per = rounds * appends
    return totals["hash"] / per * 1e6, totals["none"] / per * 1e6


def time_link(count: int = 200_000) -> float:
    _, messages = _record(7)
    columns = (7, "bac", AT, "shoe", None, None, "event", '{"v":1,"type":"card"}', "accepted",
               None, None)  # fmt: skip
    rows = [(m.table, m.msg_seq, m.topic, m.payload) for m in messages]
    started = time.perf_counter()
    head = journal_chain.GENESIS
    for _ in range(count):
        head = journal_chain.link(head, columns, rows)
    return (time.perf_counter() - started) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, nargs="+", default=[100_000])
    parser.add_argument("--appends", type=int, default=3000)
    parser.add_argument("--dir", default=None, help="where the journals go (default: /tmp)")
    args = parser.parse_args()
    print(f"hash of one record and its two messages: {time_link():.1f} µs")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for records in args.records:
            path = Path(tmp) / f"verify-{records}.sqlite3"
            started = time.perf_counter()
            build(path, records)
            built = time.perf_counter() - started
            size = path.stat().st_size / 1e6
            in_process, command = time_verify(path)
            print(
                f"{records:>9} records ({size:.0f} MB, built in {built:.0f} s): walk "
                f"{in_process:.1f} s ({in_process / records * 1e6:.1f} µs/record), "
                f"`journal verify` {command:.1f} s, its chain computed at migration "
                f"{time_migration(path):.1f} s"
            )
            path.unlink()
        with_hash, without = time_appends(Path(tmp), args.appends)
        print(
            f"append (synchronous=FULL, {args.dir or '/tmp'}): {with_hash:.1f} µs with the hash, "
            f"{without:.1f} µs without: ratio {with_hash / without:.3f}"
        )


if __name__ == "__main__":
    main()
