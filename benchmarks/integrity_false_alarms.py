"""False alarms of the integrity monitor on fair tables (issue 15).

    .venv/bin/python benchmarks/integrity_false_alarms.py [--tables 200] [--level 0.01]

- Roulette: ``--tables`` fair tables of ``--spins`` spins (10,000), each with a
  release point (so the dealer signature runs, for two dealers taking turns by
  the hour) and the self-driving players' kind of bets (red, a straight up, a
  dozen: so the hold runs on each day of 1,440 spins a day... here one spin a
  minute).
- Baccarat: ``--tables`` tables of ``--shoes`` eight-deck shoes (20) dealt by
  the real rules engine with the self-driving table's bets; at each cut card the
  croupier counts the rest of the shoe out through the scanner (``count_out``),
  so the composition is checked at every shoe's end; the shuffle, the winners, the
  naturals and the hold run too.

Prints, per game, the share of tables with any alarm at all: the family-wise
false-alarm rate that Bonferroni bounds by the level.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from dealer_station.autoplay import Autoplay
from dealer_station.games import table
from dealer_station.games.events import Shuffle, event_to_json
from dealer_station.integrity.monitor import Monitor, Report
from dealer_station.integrity.observations import Bet, DealerOn, Settled, Spin, TableChosen, observe

RED = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})


def fair_roulette(seed: int, spins: int) -> Monitor:
    rng = random.Random(seed)
    monitor = Monitor()
    monitor.feed(TableChosen("r-1", "roulette", None, None))
    for i in range(spins):
        n = rng.randrange(37)
        dealer = "ann" if (i // 60) % 2 else "bob"
        monitor.feed(DealerOn("r-1", dealer))
        monitor.feed(Spin("r-1", n, landing_distance=rng.randrange(37)))
        day = f"2026-12-{1 + i // 1440:02d}"
        bets = (
            Bet("red", 10.0, 20.0 if n in RED else 0.0),
            Bet("straight", 2.0, 72.0 if n == 17 else 0.0, (17,)),
            Bet("dozen", 5.0, 15.0 if 13 <= n <= 24 else 0.0, (2,)),
        )
        monitor.feed(Settled("r-1", day, "roulette", bets, n))
    return monitor


def fair_baccarat(seed: int, shoes: int) -> Monitor:
    auto = Autoplay("baccarat", seed=seed, table="b-1", count_out=True)
    monitor = Monitor()
    state: table.TableState | None = None
    done = 0
    minute = 0
    while done <= shoes:
        event = auto.next_event(state)
        done += isinstance(event, Shuffle)
        state, outputs = table.apply(state, event)
        body = event_to_json(event)
        minute += 1
        at = f"2026-12-{1 + minute // (1440 * 60):02d}T00:00:00Z"
        monitor.feed_all(observe("b-1", at, "shoe", "event", "accepted", None, body, outputs))
    return monitor


def summary(name: str, reports: list[Report], level: float, elapsed: float) -> None:
    alarmed = [r for r in reports if r.alarms]
    tests = Counter(v.finding.test for r in alarmed for v in r.alarms)
    per_table = sum(len(t.verdicts) for r in reports for t in r.tables) / len(reports)
    print(
        f"{name:<9} {len(reports)} tables, {per_table:.0f} findings a table: "
        f"{len(alarmed)} with an alarm = {len(alarmed) / len(reports):.3f} "
        f"(level {level}); alarms by test: {dict(tests) or '-'} ({elapsed:.0f} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--spins", type=int, default=10_000)
    parser.add_argument("--shoes", type=int, default=20)
    parser.add_argument("--level", type=float, default=0.01)
    parser.add_argument("--game", choices=("roulette", "baccarat", "both"), default="both")
    args = parser.parse_args()
    if args.game in ("roulette", "both"):
        started = time.perf_counter()
        reports = [
            fair_roulette(seed, args.spins).report(args.level) for seed in range(args.tables)
        ]
        summary("roulette", reports, args.level, time.perf_counter() - started)
    if args.game in ("baccarat", "both"):
        started = time.perf_counter()
        reports = [
            fair_baccarat(seed, args.shoes).report(args.level) for seed in range(args.tables)
        ]
        summary("baccarat", reports, args.level, time.perf_counter() - started)


if __name__ == "__main__":
    main()
