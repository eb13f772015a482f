"""What a write's precondition and idempotency key cost the table's one writer,
with SQLite's default page cache and with the journal's.

    .venv/bin/python benchmarks/write_cost.py [--writes 2000] [--dir /dev/shm]
        [--history 30000] [--repeat 3]

One roulette table with a real journal (SQLite, synchronous=FULL, in a temporary
directory) that already holds ``--history`` records of three other tables, as a
station's does after some hours: bets by distinct players, each journaled and
fsync'd, sent as before (no precondition, no key), with If-Match's step, with a
step and a key, and a retry of a key already answered. Prints microseconds per
write, and read system calls a write (``/proc/self/io``: the pages SQLite's
cache did not hold, among others): on a disk the fsync of the journal's commit
dominates the time (and varies with whatever else writes); ``--dir /dev/shm``
(memory) leaves the table's own work. A retry costs a lookup, no commit.

Each case runs with the writer's page cache at SQLite's default (2,000 KiB)
and at ``journal.WRITER_CACHE_KIB``, in turns, ``--repeat`` times; the medians
and their ratio (the journal's over the default's) come from the same run.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from dealer_station.actor import TableActor
from dealer_station.config import TableConfig
from dealer_station.journal import WRITER_CACHE_KIB, Journal, OutMessage, Record
from dealer_station.payloads import Topics
from dealer_station.preconditions import IdempotencyKey, Precondition, step_id
from dealer_station.table_inputs import Command

SQLITE_DEFAULT_KIB = 2000


def history(path: Path, records: int) -> None:
    """A journal of ``records`` bets at three other tables, each with a message."""
    journal = Journal(path)
    for i in range(records):
        table = f"other-{i % 3}"
        body = {"type": "bet", "player": f"p{i}", "spot": "red", "amount": "1"}
        payload = json.dumps({"type": "bet_placed", "data": body}, separators=(",", ":"))
        message = OutMessage(table, i // 3 + 1, f"p/bench/{table}/round/event", payload)
        journal.append(
            Record(table, "2026-12-05T00:00:00Z", "api", "event", body, "accepted"), [message]
        )
    journal.close()


def table(path: Path, cache_kib: int) -> TableActor:
    config = TableConfig.model_validate({"id": "rou", "game": "roulette"})
    journal = Journal(path, cache_kib=cache_kib)
    actor = TableActor(config, "bench", journal, Topics("p", "bench", "rou"))
    actor.recover()
    opened = actor.handle(Command("api", {"type": "round_open"}))
    assert opened is not None and opened.accepted
    return actor


def reads() -> int:
    """The process's read system calls so far: SQLite's page cache misses among them."""
    with open("/proc/self/io") as io:
        return next(int(line.split()[1]) for line in io if line.startswith("syscr:"))


def timed(writes: int, make: Callable[[int], Command], actor: TableActor) -> tuple[float, float]:
    """Microseconds and read system calls a write."""
    started, read = time.perf_counter(), reads()
    for i in range(writes):
        outcome = actor.handle(make(i))
        assert outcome is not None and outcome.accepted, outcome
    return (time.perf_counter() - started) / writes * 1e6, (reads() - read) / writes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--writes", type=int, default=2000)
    parser.add_argument("--dir", default=None, help="where the journal goes (default: /tmp)")
    parser.add_argument("--history", type=int, default=30000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    caches = (SQLITE_DEFAULT_KIB, WRITER_CACHE_KIB)
    # Microseconds and reads a write, by case and cache size.
    seen: dict[tuple[str, int], list[tuple[float, float]]] = {}
    # The history is written once, in memory where there is some (its fsyncs
    # would take minutes on a disk), and copied for each case.
    memory = "/dev/shm" if Path("/dev/shm").is_dir() else None
    with (
        tempfile.TemporaryDirectory(dir=memory) as kept,
        tempfile.TemporaryDirectory(dir=args.dir) as tmp,
    ):
        template = Path(kept) / "history.sqlite3"
        history(template, args.history)

        def bet(i: int) -> dict[str, object]:
            return {"type": "bet", "player": f"p{i}", "spot": "red", "amount": "1"}

        def key(i: int) -> IdempotencyKey:
            return IdempotencyKey("game-server-1", f"k{i}", "f")

        for turn in range(args.repeat):
            # Each case on a table of its own: a round's bets grow, and so does
            # the cost of applying the next one.
            for name, expect, keyed in (
                ("as before", False, False),
                ("If-Match", True, False),
                ("If-Match and key", True, True),
            ):
                for cache_kib in caches if turn % 2 == 0 else caches[::-1]:
                    path = Path(tmp) / f"{name}-{cache_kib}.sqlite3"
                    shutil.copyfile(template, path)
                    actor = table(path, cache_kib)
                    assert actor.state is not None
                    step = Precondition(step_id(actor.state), "round") if expect else None

                    def make(
                        i: int, step: Precondition | None = step, keyed: bool = keyed
                    ) -> Command:
                        return Command("api", bet(i), expect=step, key=key(i) if keyed else None)

                    seen.setdefault((name, cache_kib), []).append(timed(args.writes, make, actor))
                    if keyed:
                        retry = timed(args.writes, make, actor)
                        seen.setdefault(("retry of a key", cache_kib), []).append(retry)
                    actor.journal.close()
                    path.unlink()
    default, ours = caches
    print(
        f"{'a write (median)':<18} {'µs':>8} {'reads':>6} at {default} KiB  "
        f"{'µs':>8} {'reads':>6} at {ours} KiB  ratio of µs"
    )
    for name in ("as before", "If-Match", "If-Match and key", "retry of a key"):
        a, b = (
            [statistics.median(x[i] for x in seen[name, kib]) for i in (0, 1)] for kib in caches
        )
        print(
            f"{name:<18} {a[0]:8.1f} {a[1]:6.2f}{'':12}{b[0]:8.1f} {b[1]:6.2f}{'':11}"
            f"{b[0] / a[0]:5.3f}"
        )


if __name__ == "__main__":
    main()
