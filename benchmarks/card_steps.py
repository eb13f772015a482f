"""Where a card's handling goes inside the table's one writer, piece by piece,
warm (back to back) and cold (after the pause a card waits for the next).

    .venv/bin/python benchmarks/card_steps.py [--cards 400] [--pause 0.05]
    PYTHONPATH=/path/to/other/checkout .venv/bin/python benchmarks/card_steps.py

A self-driving baccarat table (journal in /dev/shm without fsync, so that only
the code is timed; no listeners) handles its rounds; each piece of a card's
``handle`` is wrapped in a timer: the event's JSON, the engine's ``apply``, the
outputs typed, their public form, the round events' bytes, the journal's
append (SQLite without the disk), the timer, the change. Run from outside the
repository with ``PYTHONPATH`` to time another checkout's code. The wrappers
add about a microsecond each; the medians are per card.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import dealer_station.actor as actor_module
from dealer_station import visibility
from dealer_station.actor import TableActor
from dealer_station.autoplay import Autoplay
from dealer_station.config import TableConfig
from dealer_station.games import table as table_fold
from dealer_station.games.events import DealCard
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from dealer_station.table_inputs import Command


def _timed(owner: object, name: str, spent: dict[str, float]) -> None:
    inner: Callable[..., Any] = getattr(owner, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            spent[name] += time.perf_counter() - started

    setattr(owner, name, timed)


def card_steps(cards: int, pause: float) -> tuple[list[float], list[dict[str, float]]]:
    shm = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
    work = Path(tempfile.mkdtemp(prefix="card-steps-", dir=shm))
    journal = Journal(work / "journal.sqlite3")
    journal._db.execute("PRAGMA synchronous=OFF")
    config = TableConfig.model_validate({"id": "t", "game": "baccarat"})
    actor = TableActor(config, "bench", journal, Topics("p", "bench", "t"))
    actor.recover()
    spent: dict[str, float] = defaultdict(float)
    for owner, names in (
        (actor_module, ("event_to_json", "parse_outputs", "round_event")),
        (table_fold, ("apply",)),
        (visibility, ("public_outputs",)),
        (journal, ("append",)),
        (actor.timer, ("arm",)),
        (actor, ("_change",)),
    ):
        for name in names:
            _timed(owner, name, spent)
    robot = Autoplay("baccarat", None, 1, "t", deals_cards=True)
    totals: list[float] = []
    pieces: list[dict[str, float]] = []
    while len(totals) < cards:
        event = robot.next_event(actor.state)
        if not isinstance(event, DealCard):
            actor.handle(Command("croupier", event))
            continue
        if pause:
            time.sleep(pause)
        spent.clear()
        started = time.perf_counter()
        actor.handle(Command("shoe", event))
        totals.append((time.perf_counter() - started) * 1e6)
        pieces.append({name: took * 1e6 for name, took in spent.items()})
    journal.close()
    shutil.rmtree(work)
    return totals, pieces


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=400)
    parser.add_argument("--pause", type=float, default=0.05)
    args = parser.parse_args()
    runs = {"warm": card_steps(args.cards, 0.0), "cold": card_steps(args.cards, args.pause)}
    names = list(runs["warm"][1][0])
    print(f"{args.cards} cards, median µs:  " + "  ".join(f"{n:>8}" for n in runs))
    print(f"  {'handle, in all':<22}" + "".join(
        f"  {statistics.median(totals):8.1f}" for totals, _ in runs.values()
    ))
    for name in names:
        print(f"  {name:<22}" + "".join(
            f"  {statistics.median(p.get(name, 0.0) for p in pieces):8.1f}"
            for _, pieces in runs.values()
        ))


if __name__ == "__main__":
    main()
