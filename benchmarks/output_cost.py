"""What a card costs the table's one writer, from the input to its journaled
change: this tree against another checkout, in the same run.

    git archive main | tar -x -C /tmp/main      # the code to compare with
    .venv/bin/python benchmarks/output_cost.py --against /tmp/main --dir /dev/shm

Each side plays the same self-driven rounds (blackjack with a hole card,
baccarat) through a real `TableActor` and journal (SQLite, synchronous=FULL;
``--dir /dev/shm`` keeps the fsync out of it) and times every card's
``handle``: apply, the outputs' public form, the round events, the commit, the
listeners (none here). The two sides run alternately in fresh interpreters,
``--runs`` times each, so that whatever else the machine does falls on both;
the ratio is this tree's median over the other's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
TABLES = (("blackjack", "blackjack-3-position"), ("baccarat", "live-baccarat"))


def measure(directory: str | None, rounds: int) -> dict[str, float]:
    """Microseconds per card's ``handle``, median and p99, over every table."""
    from dealer_station.actor import TableActor
    from dealer_station.autoplay import Autoplay
    from dealer_station.config import TableConfig
    from dealer_station.games.events import DealCard
    from dealer_station.journal import Journal
    from dealer_station.payloads import Topics
    from dealer_station.table_inputs import Command

    cards: list[float] = []
    with tempfile.TemporaryDirectory(dir=directory) as tmp:
        for game, variant in TABLES:
            config = TableConfig.model_validate({"id": "t", "game": game, "variant": variant})
            journal = Journal(Path(tmp) / f"{game}.sqlite3")
            actor = TableActor(config, "bench", journal, Topics("p", "bench", "t"))
            actor.recover()
            play = Autoplay(game, variant, seed=5, table="t")
            opened = 0
            while True:
                event = play.next_event(actor.state)
                opened += event.type == "round_open"
                if opened > rounds:
                    break
                source = "shoe" if isinstance(event, DealCard) else "croupier"
                started = time.perf_counter()
                outcome = actor.handle(Command(source, event))
                took = time.perf_counter() - started
                assert outcome is not None and outcome.accepted, outcome
                if source == "shoe":
                    cards.append(took * 1e6)
            journal.close()
    cards.sort()
    return {
        "p50": statistics.median(cards),
        "p99": cards[int(len(cards) * 0.99)],
        "cards": len(cards),
    }


def run_side(tree: Path, args: argparse.Namespace) -> dict[str, float]:
    env = os.environ | {"PYTHONPATH": str(tree)}
    child = [sys.executable, str(HERE), "--child", "--rounds", str(args.rounds)]
    if args.dir:
        child += ["--dir", args.dir]
    done = subprocess.run(child, env=env, check=True, capture_output=True, text=True, cwd=tree)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--dir", default=None, help="where the journals go (default: /tmp)")
    parser.add_argument("--rounds", type=int, default=150, help="rounds per table and run")
    parser.add_argument("--runs", type=int, default=5, help="runs per side")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.dir, args.rounds)))
        return
    sides = {"this tree": HERE.parents[1]}
    if args.against is not None:
        sides = {"other": args.against.resolve(), **sides}
    results: dict[str, list[dict[str, float]]] = {name: [] for name in sides}
    for _ in range(args.runs):
        for name, tree in sides.items():
            results[name].append(run_side(tree, args))
    medians = {}
    for name, runs in results.items():
        p50 = statistics.median(r["p50"] for r in runs)
        p99 = statistics.median(r["p99"] for r in runs)
        medians[name] = (p50, p99)
        cards = int(runs[0]["cards"])
        print(f"{name:<10} {p50:7.1f} µs/card p50 {p99:7.1f} µs p99 ({cards} cards x {len(runs)})")
    if args.against is not None:
        (o50, o99), (t50, t99) = medians["other"], medians["this tree"]
        print(f"ratio this/other: p50 {t50 / o50:.3f}  p99 {t99 / o99:.3f}")


if __name__ == "__main__":
    main()
