"""The wheel's tests: sectors as the French bets define them, a biased pocket
and sector, runs, and a dealer who can aim (docs/integrity.md).

The sectors: the call bets of French roulette on the single-zero wheel, as
docs/integrity.md lists them: voisins du zéro 22, 18, 29, 7, 28, 12, 35, 3, 26,
0, 32, 15, 19, 4, 21, 2, 25; tiers du cylindre 27, 13, 36, 11, 30, 8, 23, 10, 5,
24, 16, 33; orphelins 1, 20, 14, 31, 9 and 17, 34, 6.
"""

from __future__ import annotations

import random

from dealer_station.games.roulette_layout import WHEEL_ORDER
from dealer_station.integrity.monitor import Monitor, Report
from dealer_station.integrity.observations import DealerOn, Spin, TableChosen
from dealer_station.integrity.wheel import SECTORS

LEVEL = 0.01


def _report(spins: list[Spin | DealerOn]) -> Report:
    monitor = Monitor()
    monitor.feed(TableChosen("r-1", "roulette", None, None))
    monitor.feed_all(spins)
    return monitor.report(LEVEL)


def _alarmed(report: Report) -> set[str]:
    return {v.finding.test for v in report.alarms}


def _biased(rng: random.Random, favoured: set[int], factor: float) -> int:
    weights = [factor if n in favoured else 1.0 for n in range(37)]
    return rng.choices(range(37), weights)[0]


def test_sectors_are_the_french_call_bets() -> None:
    assert set(SECTORS["voisins du zéro"]) == {
        22, 18, 29, 7, 28, 12, 35, 3, 26, 0, 32, 15, 19, 4, 21, 2, 25
    }  # fmt: skip
    assert set(SECTORS["tiers du cylindre"]) == {27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33}
    assert set(SECTORS["orphelins"]) == {1, 20, 14, 31, 9, 17, 34, 6}


def test_a_fair_wheel_raises_no_alarm_and_every_test_runs() -> None:
    rng = random.Random(11)
    report = _report(
        [
            Spin("r-1", rng.randrange(37), landing_distance=rng.randrange(37))
            for _ in range(3000)
        ]
    )
    assert not report.alarms, [v.words(LEVEL) for v in report.alarms]
    tests = {v.finding.test for v in report.tables[0].verdicts}
    assert tests >= {
        "wheel.pockets", "wheel.arc1", "wheel.arc3", "wheel.arc9", "wheel.sectors",
        "wheel.runs.colour", "wheel.runs.parity", "wheel.signature", "wheel.signature.arc",
    }  # fmt: skip


def test_a_pocket_that_comes_up_twice_as_often_is_named() -> None:
    rng = random.Random(12)
    report = _report([Spin("r-1", _biased(rng, {17}, 2.0)) for _ in range(3000)])
    assert "wheel.arc1" in _alarmed(report)
    words = next(v.words(LEVEL) for v in report.alarms if v.finding.test == "wheel.arc1")
    assert words.startswith("r-1: Pocket 17 came up")
    assert "ALARM" in words


def test_a_hot_region_of_nine_pockets_is_found_as_an_arc() -> None:
    rng = random.Random(13)
    start = WHEEL_ORDER.index(5)
    region = {WHEEL_ORDER[(start + i) % 37] for i in range(9)}
    report = _report([Spin("r-1", _biased(rng, region, 1.5)) for _ in range(3000)])
    assert "wheel.arc9" in _alarmed(report)


def test_too_regular_an_alternation_of_colours_fails_the_runs_test() -> None:
    # Red and black strictly alternating: every count is fair, the order is not.
    reds, blacks = [1, 3, 5, 7, 9, 12], [2, 4, 6, 8, 10, 11]
    spins = [Spin("r-1", (reds if i % 2 else blacks)[i % 6]) for i in range(400)]
    assert "wheel.runs.colour" in _alarmed(_report(spins))


def test_a_dealer_who_aims_is_told_apart_from_one_who_does_not() -> None:
    rng = random.Random(14)
    spins: list[Spin | DealerOn] = []
    for _ in range(600):
        release = rng.randrange(37)
        # Ann lands within 4 pockets of 10 past the release half the time.
        offset = (10 + rng.randint(-4, 4) if rng.random() < 0.5 else rng.randrange(37)) % 37
        aimed = WHEEL_ORDER[(WHEEL_ORDER.index(release) + offset) % 37]
        fair = rng.randrange(37)
        # Each spin a round of its own, dealt by the round's dealer (dealt_by).
        spins += [DealerOn("r-1", "ann"), Spin("r-1", aimed, landing_distance=offset)]
        spins += [DealerOn("r-1", "bob"), Spin("r-1", WHEEL_ORDER[fair], landing_distance=fair)]
    alarms = {(v.finding.test, v.finding.subject) for v in _report(spins).alarms}
    assert ("wheel.signature.arc", "r-1, dealer ann") in alarms
    assert not any("bob" in subject for _, subject in alarms)


def test_the_signature_names_the_distance_the_dealer_aims_at() -> None:
    rng = random.Random(15)
    spins: list[Spin | DealerOn] = [DealerOn("r-1", "cy")]
    spins += [Spin("r-1", rng.randrange(37), landing_distance=10) for _ in range(400)]
    words = next(
        v.words(LEVEL) for v in _report(spins).alarms if v.finding.test == "wheel.signature.arc"
    )
    assert "landed 10 pockets past its release point" in words


def test_without_release_points_there_is_no_signature_test() -> None:
    rng = random.Random(16)
    report = _report([Spin("r-1", rng.randrange(37)) for _ in range(500)])
    assert not any(v.finding.test.startswith("wheel.signature") for v in report.tables[0].verdicts)


def test_below_the_minimum_sample_a_test_is_listed_as_not_run() -> None:
    report = _report([Spin("r-1", n % 37) for n in range(60)])
    skipped = {s.test: s for s in report.tables[0].skipped}
    assert skipped["wheel.pockets"].minimum == 185
    assert skipped["wheel.pockets"].sample == 60
    assert "wheel.pockets" not in {v.finding.test for v in report.tables[0].verdicts}


def test_the_same_rules_named_again_keep_the_table_s_counts() -> None:
    monitor = Monitor()
    monitor.feed(TableChosen("r-1", "roulette", "european-roulette", None))
    monitor.feed_all(Spin("r-1", n % 37) for n in range(100))
    monitor.feed(TableChosen("r-1", "roulette", None, None))  # the default: the same
    monitor.feed_all(Spin("r-1", n % 37) for n in range(100))
    (table,) = monitor.report(LEVEL).tables
    assert {v.finding.sample for v in table.verdicts if v.finding.test == "wheel.pockets"} == {200}
