"""The integrity monitor against what a hostile journal line, a noisy camera
or a tired croupier gives it: nothing it cannot read crashes it or counts."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dealer_station.games.cards import RANKS, SUITS
from dealer_station.integrity.monitor import Monitor
from dealer_station.integrity.observations import (
    Bet,
    CardOut,
    Observation,
    Settled,
    ShoeEnd,
    Spin,
    TableChosen,
    observe,
)

pytestmark = pytest.mark.adversarial


def _wheel(body: dict[str, Any]) -> list[Observation]:
    return observe("r-1", "2026-12-01T00:00:00Z", "camera", "event", "accepted", None, body, ())


@pytest.mark.parametrize(
    "extra",
    [
        {"landing_distance": "17"},
        {"landing_distance": 99},
        {"landing_distance": True},
        {"rotor_rpm": True, "ball_revolutions": "many"},
        {"dealer": 42},
    ],
)
def test_camera_fields_it_cannot_read_are_left_out_not_guessed(extra: dict[str, Any]) -> None:
    (spin,) = _wheel({"type": "wheel_result", "number": 17, **extra})
    assert isinstance(spin, Spin) and spin.number == 17
    assert spin.landing_distance is None
    assert spin.rotor_rpm is None and spin.ball_revolutions is None


@pytest.mark.parametrize("number", [37, -1, True, "17", None])
def test_a_winning_number_no_wheel_has_is_not_counted(number: object) -> None:
    assert _wheel({"type": "wheel_result", "number": number}) == []


def test_a_croupier_shuffling_twice_or_removing_an_empty_shoe_makes_no_empty_shoe_finding() -> None:
    monitor = Monitor()
    monitor.feed(TableChosen("b-1", "baccarat", None, None))
    monitor.feed_all(
        [ShoeEnd("b-1", "shuffle"), ShoeEnd("b-1", "shuffle", ()), ShoeEnd("b-1", "removed")]
    )
    report = monitor.report(0.01)
    assert report.tables[0].verdicts == ()


def test_a_shoe_of_one_card_repeated_is_an_extra_card_alarm_naming_it() -> None:
    monitor = Monitor()
    monitor.feed(TableChosen("b-1", "baccarat", None, None))
    monitor.feed_all([CardOut("b-1", "7H") for _ in range(9)])
    monitor.feed(ShoeEnd("b-1", "shuffle"))
    (alarm,) = monitor.report(0.01).alarms
    assert "1 7H too many" in alarm.words(0.01)


def test_cards_seen_before_any_table_event_are_not_guessed_into_a_shoe() -> None:
    monitor = Monitor()
    cards = [r + s for s in SUITS for r in RANKS] * 8
    random.Random(1).shuffle(cards)
    monitor.feed_all([CardOut("x-1", c) for c in cards[:-1]])
    monitor.feed(ShoeEnd("x-1", "empty", ()))
    assert monitor.report(0.01).tables == ()


@pytest.mark.parametrize(
    ("game", "bet"),
    [
        ("roulette", Bet("straight", 10.0, 0.0, (40,))),
        ("roulette", Bet("jackpot", 10.0, 0.0)),
        ("baccarat", Bet("dragon", 10.0, 0.0)),
    ],
)
def test_a_settlement_of_a_bet_the_variant_lacks_is_an_alarm_not_a_crash(
    game: str, bet: Bet
) -> None:
    monitor = Monitor()
    monitor.feed(TableChosen("t-1", game, None, None))
    monitor.feed(Settled("t-1", "2026-12-01", game, (bet,)))
    (alarm,) = monitor.report(0.01).alarms
    assert alarm.finding.test == "hold.bets"
    assert "name a bet this variant does not have" in alarm.words(0.01)
