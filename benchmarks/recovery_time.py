"""How long a table takes to come back after a restart, with and without its snapshot.

    .venv/bin/python benchmarks/recovery_time.py [--inputs 200000] [--game baccarat]

Writes a journal of ``--inputs`` inputs (the self-driving croupier, players'
bets and the shoe, through the real table actor), as a busy table journals in
about a week, with the table's snapshot ``--behind`` records before the end (a
running table takes one every 1,000 records). Then times the start twice on the
same journal: from the snapshot, and from a copy without it (the whole journal
replayed, as before snapshots). The journal is built with ``synchronous=OFF`` to
save time; the timed starts read it as the station does.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import tempfile
import time
from contextlib import closing
from pathlib import Path

from dealer_station.actor import TableActor
from dealer_station.autoplay import Autoplay
from dealer_station.config import TableConfig
from dealer_station.games.events import DealCard, WheelResult
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from dealer_station.table_inputs import Command


def table(path: Path, game: str) -> TableActor:
    config = TableConfig.model_validate({"id": "t", "game": game, "recovery": "resume"})
    return TableActor(config, "bench", Journal(path), Topics("p", "bench", "t"))


def build(path: Path, game: str, inputs: int, behind: int) -> None:
    actor = table(path, game)
    actor.journal._db.execute("PRAGMA synchronous=OFF")
    actor.recover()
    robot = Autoplay(game, None, 1, "t", deals_cards=True)
    for n in range(inputs):
        event = robot.next_event(actor.state)
        source = "shoe" if isinstance(event, DealCard) else "croupier"
        actor.handle(Command("camera" if isinstance(event, WheelResult) else source, event))
        if n == inputs - behind:
            actor.save_snapshot()
    actor.journal.close()


def timed_start(path: Path, game: str) -> tuple[float, int]:
    started = time.perf_counter()
    actor = table(path, game)
    actor.recover()
    elapsed = time.perf_counter() - started
    actor.journal.close()
    return elapsed, actor.recovered_from


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--inputs", type=int, default=200_000)
    parser.add_argument("--behind", type=int, default=500)
    parser.add_argument("--game", default="baccarat", choices=("baccarat", "blackjack", "roulette"))
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="recovery-time-"))
    journal = work / "journal.sqlite3"
    started = time.perf_counter()
    build(journal, args.game, args.inputs, args.behind)
    size = journal.stat().st_size / 1e6
    print(f"journal of {args.inputs} inputs ({size:.0f} MB) built in "
          f"{time.perf_counter() - started:.0f} s")  # fmt: skip
    full = work / "full.sqlite3"
    with closing(sqlite3.connect(journal)) as source, closing(sqlite3.connect(full)) as copy:
        source.backup(copy)
        copy.execute("DELETE FROM snapshot")
        copy.commit()
    for name, path in (("from the snapshot", journal), ("whole journal", full)):
        elapsed, seq = timed_start(path, args.game)
        print(f"  start {name:<18} {elapsed:7.2f} s  (snapshot at record {seq})")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
