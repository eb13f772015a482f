"""What the console reads at arm's length: the next action in a croupier's words."""

from __future__ import annotations

from decimal import Decimal

from dealer_station.games import table
from dealer_station.games.cards import parse_card
from dealer_station.games.events import (
    CardUnread,
    CloseBets,
    DealCard,
    Decision,
    Event,
    HoldRound,
    OpenRound,
    PlaceBet,
    SelectTable,
)
from dealer_station.round_view import table_view


def _fold(*events: Event) -> table.TableState:
    state = None
    for event in events:
        state, _ = table.apply(state, event)
    assert state is not None
    return state


def _cards(*texts: str) -> list[Event]:
    return [DealCard(parse_card(t)) for t in texts]


def test_baccarat_third_cards_are_named() -> None:
    # Player 2+3 = 5 draws; Banker K+6 = 6 draws on a Player third card of 7.
    opening = [SelectTable("baccarat"), OpenRound("r1"), CloseBets()]
    assert table_view(_fold(*opening))["action"] == "CARD TO PLAYER"
    assert table_view(_fold(*opening, *_cards("2S", "KD", "3H", "6C")))["action"] == (
        "PLAYER THIRD CARD"
    )
    assert table_view(_fold(*opening, *_cards("2S", "KD", "3H", "6C", "7D")))["action"] == (
        "BANKER THIRD CARD"
    )


def test_blackjack_counts_hands_from_one_as_a_croupier_does() -> None:
    state = _fold(
        SelectTable("blackjack", "standard-blackjack"),
        OpenRound("r1"),
        PlaceBet("ann", "main", Decimal(10), box=3),
        CloseBets(),
        *_cards("8S", "6D", "8C"),
        Decision(box=3, action="split"),
    )
    view = table_view(state)
    assert view["action"] == "CARD TO BOX 3 - HAND 1"
    assert [h["cards"] for h in view["table"]["boxes"][0]["hands"]] == [["8S"], ["8C"]]


def test_round_ids_stay_unique_when_the_variant_changes() -> None:
    state = _fold(
        SelectTable("blackjack", "standard-blackjack", table="t"),
        OpenRound(),
        CloseBets(),
        SelectTable("blackjack", "diamond-blackjack", table="t"),
        OpenRound(),
    )
    assert state.round.round_id == "t-000002"


def test_a_held_round_says_why_the_pit_boss_is_called() -> None:
    opening = [SelectTable("baccarat"), OpenRound("r1"), CloseBets(), *_cards("2S")]
    assert table_view(_fold(*opening, CardUnread()))["action"] == "CALL PIT BOSS: CARD UNREAD"
    held = _fold(*opening, HoldRound("impossible_card"))
    assert table_view(held)["action"] == "CALL PIT BOSS: IMPOSSIBLE CARD"


def test_no_more_bets_says_what_closed_them_when_no_person_did() -> None:
    by_hand = _fold(SelectTable("roulette"), OpenRound("r1"), CloseBets())
    assert table_view(by_hand)["action"] == "NO MORE BETS: SPIN"
    assert table_view(by_hand)["table"]["closed_by"] is None
    for reason, words in (
        ("below_revs_per_s", "NO MORE BETS (BALL SLOWING): SPIN"),
        ("timer", "NO MORE BETS (TIME UP): SPIN"),
        ("wheel_sensor", "NO MORE BETS (CLOSED BY THE WHEEL): SPIN"),
    ):
        state = _fold(SelectTable("roulette"), OpenRound("r1"), CloseBets(reason=reason))
        assert table_view(state)["action"] == words
        assert table_view(state)["table"]["closed_by"] == reason


def test_a_round_held_for_two_wheel_readings_sends_for_the_pit_boss() -> None:
    state = _fold(
        SelectTable("roulette"), OpenRound("r1"), CloseBets(), HoldRound("wheel_disagree")
    )
    view = table_view(state)
    assert (view["next"]["kind"], view["hold"]) == ("pit_boss", "wheel_disagree")
    assert view["action"] == "CALL PIT BOSS: CAMERA AND WHEEL SENSOR DISAGREE"
