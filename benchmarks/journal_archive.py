"""What reading a journal through its archive costs: `journal verify` of a journal
of N records, then of the same records half archived, with `--archive`.

    .venv/bin/python benchmarks/journal_archive.py [--records 100000] [--dir DIR]

The journal is built as benchmarks/journal_verify.py builds it; a snapshot row at
the middle record and the publisher's cursor at the end (what `journal archive`
needs to move anything) are written by SQL, then `dealer-station journal archive`
moves the first half. Both verifies run as subprocesses, as a regulator runs them,
alternating, three times each.
"""

from __future__ import annotations

import argparse
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

from journal_verify import build


def _cli(*args: str) -> tuple[float, str]:
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "dealer_station", *args], capture_output=True, text=True
    )
    took = time.monotonic() - began
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: {done.stdout}{done.stderr}")
    return took, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as scratch:
        journal = Path(scratch) / "journal.sqlite3"
        build(journal, args.records)
        middle = args.records // 2
        with closing(sqlite3.connect(journal)) as db, db:
            db.execute(
                "INSERT INTO snapshot (table_id, seq, format, state, hash) VALUES"
                " ('bac', ?, 'benchmark', x'', (SELECT hash FROM journal WHERE seq = ?))",
                (middle, middle),
            )
            db.execute("INSERT INTO acked SELECT 'bac', MAX(msg_seq) FROM outbox")
        original = Path(scratch) / "original.sqlite3"
        with closing(sqlite3.connect(journal)) as db, closing(sqlite3.connect(original)) as to:
            db.backup(to)
        archive = Path(scratch) / "archive.sqlite3"
        _, said = _cli("journal", "archive", "--db", str(journal), "--before", "2100-01-01",
             "--to", str(archive))  # fmt: skip
        size = archive.stat().st_size / 1e6
        print(f"{args.records} records; {said.split(' (')[0]}, {size:.1f} MB")
        alone, through = [], []
        for _ in range(3):
            alone.append(_cli("journal", "verify", "--db", str(original))[0])
            through.append(
                _cli("journal", "verify", "--db", str(journal), "--archive", str(archive))[0]
            )
        print(f"verify, one file:           {', '.join(f'{t:.2f}' for t in alone)} s")
        print(f"verify, archive + journal:  {', '.join(f'{t:.2f}' for t in through)} s")


if __name__ == "__main__":
    main()
