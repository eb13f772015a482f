"""Fair tables through the whole monitor: the share of them with any alarm
stays within the level (the benchmark, benchmarks/integrity_false_alarms.py,
prints the figure for 200 tables of 10,000 spins and 200 of 20 shoes; this is
its small, seeded cousin).

With 40 fair tables at the 0.01 level, the count of tables with an alarm is at
most binomial(40, 0.01) if Bonferroni holds: 4 or more has a chance of 0.0008.
"""

from __future__ import annotations

import random

from dealer_station.games.cards import RANKS, SUITS
from dealer_station.integrity.monitor import Monitor
from dealer_station.integrity.observations import (
    Bet,
    CardOut,
    DealerOn,
    Settled,
    ShoeEnd,
    Spin,
    TableChosen,
)

LEVEL = 0.01
TABLES = 40
MOST = 3
RED = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})


def test_fair_wheels_raise_no_more_alarms_than_the_level_allows() -> None:
    alarmed = 0
    for seed in range(TABLES):
        rng = random.Random(seed)
        monitor = Monitor()
        monitor.feed(TableChosen("r-1", "roulette", None, None))
        for _ in range(1500):
            n = rng.randrange(37)
            distance = rng.randrange(37)
            monitor.feed(DealerOn("r-1", rng.choice("ab")))
            monitor.feed(Spin("r-1", n, landing_distance=distance))
            bet = Bet("red", 10.0, 20.0 if n in RED else 0.0)
            monitor.feed(Settled("r-1", "2026-12-01", "roulette", (bet,), n))
        report = monitor.report(LEVEL)
        assert len(report.tables[0].verdicts) >= 12  # every test ran, both dealers' too
        alarmed += bool(report.alarms)
    assert alarmed <= MOST


def test_fair_shoes_raise_no_more_alarms_than_the_level_allows() -> None:
    deck = [r + s for s in SUITS for r in RANKS] * 8
    alarmed = 0
    for seed in range(TABLES):
        rng = random.Random(seed)
        monitor = Monitor()
        monitor.feed(TableChosen("b-1", "baccarat", None, None))
        for _ in range(4):
            rng.shuffle(deck)
            monitor.feed_all(CardOut("b-1", c) for c in deck[:312])
            monitor.feed(ShoeEnd("b-1", "shuffle", tuple(deck[312:])))
        report = monitor.report(LEVEL)
        tests = [v.finding.test for v in report.tables[0].verdicts]
        assert tests.count("shoe.composition") == 4 and tests.count("shoe.shuffle") == 3
        alarmed += bool(report.alarms)
    assert alarmed <= MOST
