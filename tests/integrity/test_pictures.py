"""``Monitor.pictures``: the counts the pit boss's page draws. Expected values
from the game, not the code: a fair single-zero wheel gives each pocket 1/37 of
the spins, and a straight-up bet paid 35 to 1 holds 1/37 = 2.70% of its stakes
(the published house edge of European roulette, docs/rules.md)."""

from __future__ import annotations

import math

import pytest

from dealer_station.games.roulette_layout import WHEEL_ORDER
from dealer_station.integrity.monitor import Monitor
from dealer_station.integrity.observations import Bet, DealerOn, Settled, Spin, TableChosen

TABLE = "r-1"


def test_pockets_come_in_wheel_order_with_a_fair_pockets_band() -> None:
    monitor = Monitor()
    monitor.feed(TableChosen(TABLE, "roulette", None, None))
    for n in [*(i % 37 for i in range(370)), *[17] * 20]:
        monitor.feed(Spin(TABLE, n))
    wheel = monitor.pictures(TABLE)["wheel"]
    assert [p["number"] for p in wheel["pockets"]] == list(WHEEL_ORDER)
    assert wheel["pockets"][0] == {"number": 0, "count": 10}
    counts = {p["number"]: p["count"] for p in wheel["pockets"]}
    assert counts[17] == 10 + 20
    assert wheel["spins"] == 390
    sd = math.sqrt(390 * (1 / 37) * (36 / 37))
    assert wheel["expected"] == pytest.approx(390 / 37)
    assert wheel["high"] - wheel["expected"] == pytest.approx(2.5758 * sd, rel=1e-4)


def test_a_signature_is_counted_per_dealer_from_the_release() -> None:
    monitor = Monitor()
    monitor.feed(TableChosen(TABLE, "roulette", None, None))
    monitor.feed(DealerOn(TABLE, "Ann"))
    # Released over 0, landed on 32: one pocket on (the camera's landing_distance).
    for _ in range(3):
        monitor.feed(Spin(TABLE, 32, landing_distance=1))
    [ann] = monitor.pictures(TABLE)["wheel"]["signatures"]
    assert ann["dealer"] == "Ann" and ann["throws"] == 3
    assert ann["counts"][1] == 3 and sum(ann["counts"]) == 3


def test_a_days_hold_is_drawn_against_the_odds() -> None:
    monitor = Monitor()
    monitor.feed(TableChosen(TABLE, "roulette", None, None))
    for i in range(370):
        number = i % 37
        returns = 36.0 if number == 17 else 0.0
        bet = Bet("straight", 1.0, returns, (17,))
        monitor.feed(Settled(TABLE, "2026-12-01", "roulette", (bet,), number))
    [day] = monitor.pictures(TABLE)["hold"]
    assert day["day"] == "2026-12-01" and day["rounds"] == 370
    assert day["hold"] == pytest.approx(100 * (370 - 360) / 370)
    assert day["expected"] == pytest.approx(100 / 37)
    assert day["low"] < day["expected"] < day["high"]


def test_a_table_not_seen_has_nothing_to_draw() -> None:
    assert Monitor().pictures("nope") == {"game": None, "wheel": None, "hold": [], "dealers": []}
