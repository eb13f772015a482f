"""Per-dealer statistics: each dealer's hold over the rounds they opened (and,
at a wheel, their signature: tests/integrity/test_integrity_wheel.py).

The expected figure is the rules': a red bet wins on 18 of 37 pockets and pays
1 to 1 (docs/rules.md, "Roulette"), so the house keeps 1/37 = 2.70% of it.
"""

from __future__ import annotations

import random

from dealer_station.integrity.monitor import Monitor, Report
from dealer_station.integrity.observations import Bet, DealerOn, Settled, TableChosen

LEVEL = 0.01
RED = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}


def _shift(monitor: Monitor, rng: random.Random, dealer: str | None, rounds: int,
           pays_every_red: bool = False) -> None:
    """``rounds`` spins opened by ``dealer``, a red bet of 10 on each;
    ``pays_every_red``: the dealer pays the red bet whatever the number (a
    dealer paying a friend's losing bets)."""
    for _ in range(rounds):
        monitor.feed(DealerOn("r-1", dealer))
        n = rng.randrange(37)
        red = 20.0 if n in RED or pays_every_red else 0.0
        monitor.feed(Settled("r-1", "2026-12-02", "roulette", (Bet("red", 10.0, red),), n))


def _dealer_holds(report: Report) -> dict[str, tuple[bool, str]]:
    return {
        v.finding.subject: (v.alarm, v.words(LEVEL))
        for v in report.tables[0].verdicts
        if v.finding.test == "hold.dealer"
    }


def test_a_dealer_who_pays_losing_bets_is_named_and_the_others_are_not() -> None:
    rng = random.Random(5)
    monitor = Monitor()
    monitor.feed(TableChosen("r-1", "roulette", None, None))
    _shift(monitor, rng, "Ann", 600)
    _shift(monitor, rng, "Bea", 300, pays_every_red=True)
    _shift(monitor, rng, "Ann", 600)
    holds = _dealer_holds(monitor.report(LEVEL))
    assert set(holds) == {"r-1, dealer Ann", "r-1, dealer Bea"}
    ann_alarm, ann_words = holds["r-1, dealer Ann"]
    bea_alarm, bea_words = holds["r-1, dealer Bea"]
    assert not ann_alarm and bea_alarm
    assert "over 1,200 rounds" in ann_words and "where the odds give 2.70%" in ann_words
    # Every red bet paid: the house kept -3,000 of 3,000 staked.
    assert bea_words.startswith("r-1, dealer Bea: the house kept -3,000.00 of 3,000.00")


def test_a_dealer_with_too_few_rounds_is_listed_as_not_run_yet() -> None:
    monitor = Monitor()
    monitor.feed(TableChosen("r-1", "roulette", None, None))
    _shift(monitor, random.Random(6), None, 40)
    (table,) = monitor.report(LEVEL).tables
    assert [(s.test, s.subject, s.sample) for s in table.skipped if s.test == "hold.dealer"] == [
        ("hold.dealer", "r-1, dealer unknown", 40)
    ]
    assert monitor.pictures("r-1")["dealers"][0]["dealer"] is None
