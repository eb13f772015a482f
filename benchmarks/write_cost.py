"""What a write's precondition and idempotency key cost the table's one writer.

    .venv/bin/python benchmarks/write_cost.py [--writes 2000] [--dir /dev/shm]

One roulette table with a real journal (SQLite, synchronous=FULL, in a temporary
directory): bets by distinct players, each journaled and fsync'd, sent as before
(no precondition, no key), with If-Match's step, with a step and a key, and a
retry of a key already answered. Prints microseconds per write: on a disk the
fsync of the journal's commit dominates (and varies with whatever else writes);
``--dir /dev/shm`` (memory) leaves the table's own work. A retry costs a lookup,
no commit.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from dealer_station.actor import TableActor
from dealer_station.config import TableConfig
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from dealer_station.preconditions import IdempotencyKey, Precondition, step_id
from dealer_station.table_inputs import Command


def table(path: Path) -> TableActor:
    config = TableConfig.model_validate({"id": "rou", "game": "roulette"})
    actor = TableActor(config, "bench", Journal(path), Topics("p", "bench", "rou"))
    actor.recover()
    opened = actor.handle(Command("api", {"type": "round_open"}))
    assert opened is not None and opened.accepted
    return actor


def timed(writes: int, make: Callable[[int], Command], actor: TableActor) -> float:
    started = time.perf_counter()
    for i in range(writes):
        outcome = actor.handle(make(i))
        assert outcome is not None and outcome.accepted, outcome
    return (time.perf_counter() - started) / writes * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--writes", type=int, default=2000)
    parser.add_argument("--dir", default=None, help="where the journal goes (default: /tmp)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:

        def bet(i: int) -> dict[str, object]:
            return {"type": "bet", "player": f"p{i}", "spot": "red", "amount": "1"}

        def key(i: int) -> IdempotencyKey:
            return IdempotencyKey("game-server-1", f"k{i}", "f")

        # Each case on a table of its own: a round's bets grow, and so does the
        # cost of applying the next one.
        for name, expect, keyed in (
            ("as before", False, False),
            ("If-Match", True, False),
            ("If-Match and key", True, True),
        ):
            actor = table(Path(tmp) / f"{name}.sqlite3")
            assert actor.state is not None
            step = Precondition(step_id(actor.state), "round") if expect else None

            def make(i: int, step: Precondition | None = step, keyed: bool = keyed) -> Command:
                return Command("api", bet(i), expect=step, key=key(i) if keyed else None)

            print(f"{name:<18} {timed(args.writes, make, actor):8.1f} µs/write")
            if keyed:
                print(f"{'retry of a key':<18} {timed(args.writes, make, actor):8.1f} µs/write")
            actor.journal.close()


if __name__ == "__main__":
    main()
