"""How long a blackjack table's loop holds still at its first decision, and how
long a station takes to start, with the tables' basic strategy.

    .venv/bin/python benchmarks/strategy_first_decision.py [--runs 3]

To compare with another checkout, put its tree first on the path:
``PYTHONPATH=/path/to/other/tree .venv/bin/python benchmarks/strategy_first_decision.py``
(the cases run in child processes that inherit it).

Two tables, each in a fresh process (nothing worked out or read yet, as after a
restart): Diamond Blackjack (warns of a costly decision; a shipped variant) and
a house variant (Live Blackjack whose dealer hits soft 17 and whose timer plays
basic strategy; no packaged table can be for it). Each is a real table actor on
a real journal in a running loop, with a task that wakes every 5 ms; the round
is played through the actor's queue as the API and the shoe send it, up to the
first decision (a hard 11 against a 9), then the player stands on it.

Printed per table: the longest the loop held still from the table's start to
the decision's answer (the largest gap between the ticker's wakeups, less its
5 ms), the time from submit to answer of the card that brings the decision due
(it arms the decision timer, whose default is basic strategy's action) and of
the decision (Diamond's warning), and the time from the table's start to the
decision's answer.

Then the station's start: ``dealer-station run`` with that one table, from
spawning the process to its ``READY=1`` (``NOTIFY_SOCKET``), broker absent.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HOUSE = (
    'game = "blackjack"\nextends = "live-blackjack"\ntitle = "House (bench)"\n'
    'dealer_hits_soft_17 = true\ndefault_decision = "basic_strategy"\n'
)
ROUND: list[tuple[str, dict[str, Any]]] = [
    ("api", {"type": "round_open", "round": "r1"}),
    ("api", {"type": "bet", "player": "ann", "spot": "main", "box": 1, "amount": "10"}),
    ("api", {"type": "bets_closed"}),
    ("shoe", {"type": "card", "card": "6S"}),
    ("shoe", {"type": "card", "card": "9C"}),
    ("shoe", {"type": "card", "card": "5D"}),  # 11 against a 9: the decision is due
    ("api", {"type": "decision", "box": 1, "action": "stand"}),
]
TICK = 0.005


def one_table(variant: str, work: Path) -> dict[str, float]:
    """In this process: the table's first round, timed."""
    from dealer_station.actor import TableActor
    from dealer_station.config import TableConfig, TimersConfig
    from dealer_station.journal import Journal
    from dealer_station.payloads import Topics

    async def play() -> dict[str, float]:
        config = TableConfig(
            id="bj", game="blackjack", variant=variant, timers=TimersConfig(decision_seconds=60)
        )
        actor = TableActor(config, "bench", Journal(work / "j.sqlite3"), Topics("p", "b", "bj"))
        gaps: list[float] = []

        async def ticker() -> None:
            last = time.perf_counter()
            while True:
                await asyncio.sleep(TICK)
                now = time.perf_counter()
                gaps.append(now - last - TICK)
                last = now

        ticking = asyncio.create_task(ticker())
        await asyncio.sleep(0.05)
        started = time.perf_counter()
        actor.recover()
        table = asyncio.create_task(actor.run())
        took = []
        for source, event in ROUND:
            sent = time.perf_counter()
            outcome = await actor.command(source, event)
            assert outcome.accepted, outcome
            took.append(time.perf_counter() - sent)
        done = time.perf_counter()
        await asyncio.sleep(4 * TICK)  # the ticker wakes: a stall just ended is counted
        table.cancel()
        ticking.cancel()
        return {
            "stall": max(gaps),
            "card": took[-2],
            "decision": took[-1],
            "to_answer": done - started,
        }

    return asyncio.run(play())


def station_start(variant: str, work: Path) -> float:
    """Seconds from spawning ``dealer-station run`` to its READY=1."""
    config = work / "station.toml"
    config.write_text(
        f'studio = "bench"\nstation = "st"\njournal = "{work / "station.sqlite3"}"\n'
        '[mqtt]\nhost = "127.0.0.1"\nport = 9\n[http]\nhost = "127.0.0.1"\nport = 0\n'
        f'[[tables]]\nid = "bj"\ngame = "blackjack"\nvariant = "{variant}"\n'
    )
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(work / "notify"))
    notify.settimeout(120)
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "dealer_station", "run", "--config", str(config)],
        env={**os.environ, "NOTIFY_SOCKET": str(work / "notify")},
        stdout=subprocess.DEVNULL,
        stderr=(work / "stderr.log").open("wb"),
    )
    try:
        while notify.recv(4096).decode() != "READY=1":
            pass
        return time.perf_counter() - started
    finally:
        process.terminate()
        process.wait(timeout=30)
        notify.close()


def child(case: str, variant: str) -> dict[str, float]:
    """The case in a fresh process, so that nothing is worked out beforehand."""
    out = subprocess.run(
        [sys.executable, __file__, "--child", case, variant],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    result: dict[str, float] = json.loads(out.splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        case, variant = args.child
        with tempfile.TemporaryDirectory() as tmp:
            if case == "table":
                print(json.dumps(one_table(variant, Path(tmp))))
            else:
                print(json.dumps({"ready": station_start(variant, Path(tmp))}))
        return
    import dealer_station

    print(f"dealer_station from {Path(dealer_station.__file__).parent}")
    with tempfile.TemporaryDirectory() as tmp:
        house = Path(tmp) / "house.toml"
        house.write_text(HOUSE)
        for name, variant in (("diamond-blackjack", "diamond-blackjack"), ("house", str(house))):
            tables = [child("table", variant) for _ in range(args.runs)]
            starts = [child("station", variant)["ready"] for _ in range(args.runs)]

            def med(key: str, runs: list[dict[str, float]] = tables) -> float:
                return statistics.median(r[key] for r in runs)

            print(
                f"{name:<18} loop stall {med('stall'):6.3f} s  card {med('card'):6.3f} s  "
                f"decision {med('decision'):6.3f} s  start to answer {med('to_answer'):6.3f} s  "
                f"station READY {statistics.median(starts):6.2f} s  (medians of {args.runs})"
            )


if __name__ == "__main__":
    main()
