"""The table fold around the engines: shoe handling, holds, manual cards, burns."""

from __future__ import annotations

from decimal import Decimal

import pytest

from dealer_station.games import table
from dealer_station.games.cards import parse_card
from dealer_station.games.events import (
    BurnCard,
    CardUnread,
    CloseBets,
    DealCard,
    Decision,
    Event,
    HoldRound,
    ManualCard,
    NewShoe,
    OpenRound,
    PlaceBet,
    ReleaseHold,
    SelectTable,
    VoidRound,
)
from dealer_station.games.rejection import Rejected


def _fold(*events: Event) -> table.TableState:
    state = None
    for event in events:
        state, _ = table.apply(state, event)
    assert state is not None
    return state


def _refused(state: table.TableState | None, event: Event) -> str:
    with pytest.raises(Rejected) as refused:
        table.apply(state, event)
    return refused.value.reason


def _baccarat_round() -> table.TableState:
    return _fold(
        SelectTable("baccarat"),
        OpenRound("r1"),
        PlaceBet("ann", "banker", Decimal(10)),
        CloseBets(),
    )


def test_first_event_selects_the_table() -> None:
    assert _refused(None, OpenRound()) == "no_table"
    assert _refused(None, SelectTable("poker")) == "unknown_game"
    assert _refused(None, SelectTable("blackjack", "no-such-variant")) == "bad_variant"


def test_an_unread_card_holds_the_round_until_the_pit_boss_enters_it() -> None:
    state = _fold(*_baccarat_events(), DealCard(parse_card("2S")), CardUnread())
    assert state.next_step().kind == "pit_boss"
    assert _refused(state, DealCard(parse_card("3S"))) == "round_held"
    state, outputs = table.apply(state, ManualCard(parse_card("3S"), to="banker"))
    assert not state.hold
    assert outputs[0] == {
        "type": "card_dealt",
        "card": "3S",
        "to": "banker",
        "face": "up",
        "score": 3,
    }
    assert state.shoe is not None and state.shoe.dealt == 2


def test_a_void_releases_a_hold_and_returns_the_stakes() -> None:
    state = _fold(*_baccarat_events(), CardUnread())
    state, outputs = table.apply(state, VoidRound("unread card, no pit boss entry"))
    assert not state.hold and state.round_over
    settled = outputs[-1]
    assert settled["voided"] and settled["payouts"][0]["returns"] == "10"


def test_a_manual_card_must_still_be_a_card_the_shoe_can_hold() -> None:
    # 8 decks: a ninth ace of spades cannot be entered by hand either.
    events: list[Event] = [SelectTable("baccarat")]
    events += [BurnCard(parse_card("AS"))] * 8
    state = _fold(*events, OpenRound("r1"), CloseBets(), CardUnread())
    assert _refused(state, ManualCard(parse_card("AS"))) == "impossible_card"
    assert state.hold == "card_unread"


def test_burns_between_rounds_not_when_a_card_is_due() -> None:
    state = _fold(SelectTable("baccarat"), BurnCard(parse_card("KS")))
    assert state.shoe is not None and state.shoe.burned == 1 and state.shoe.dealt == 0
    state = _baccarat_round()
    assert _refused(state, BurnCard(parse_card("KD"))) == "misdeal"


def test_the_shoe_and_the_table_change_only_between_rounds() -> None:
    state = _baccarat_round()
    assert _refused(state, NewShoe()) == "round_in_progress"
    assert _refused(state, SelectTable("roulette")) == "round_in_progress"
    assert _refused(state, OpenRound()) == "round_in_progress"


def test_a_card_with_no_round_is_a_misdeal() -> None:
    state = _fold(SelectTable("baccarat"))
    assert _refused(state, DealCard(parse_card("2S"))) == "misdeal"
    assert _refused(state, CardUnread()) == "misdeal"


def test_roulette_has_no_shoe() -> None:
    state = _fold(SelectTable("roulette"))
    assert _refused(state, NewShoe()) == "no_shoe"
    assert _refused(state, BurnCard(parse_card("2S"))) == "no_shoe"


def _baccarat_events() -> list[Event]:
    return [
        SelectTable("baccarat"),
        OpenRound("r1"),
        PlaceBet("ann", "banker", Decimal(10)),
        CloseBets(),
    ]


def test_a_held_round_names_where_the_card_goes() -> None:
    state = _fold(*_baccarat_events(), DealCard(parse_card("2S")), CardUnread())
    assert state.next_step().to_json() == {"kind": "pit_boss", "to": "banker"}
    assert state.hold == "card_unread"


def test_a_card_by_hand_is_refused_when_no_card_was_unread() -> None:
    # The shoe reads the card due: a pit boss's card would be a phantom card.
    state = _fold(*_baccarat_events())
    assert _refused(state, ManualCard(parse_card("9C"), to="player")) == "not_held"
    assert _refused(state, ManualCard(parse_card("9C"))) == "not_held"


def test_a_second_card_by_hand_for_one_unread_card_is_refused() -> None:
    state = _fold(*_baccarat_events(), CardUnread())
    state, _ = table.apply(state, ManualCard(parse_card("9C"), to="player"))
    assert state.next_step().to == "banker"
    assert _refused(state, ManualCard(parse_card("9C"), to="player")) == "not_held"
    assert _refused(state, ManualCard(parse_card("9C"), to="banker")) == "not_held"


def test_a_card_by_hand_for_another_destination_is_refused_and_the_hold_stays() -> None:
    state = _fold(*_baccarat_events(), DealCard(parse_card("2S")), CardUnread())
    assert _refused(state, ManualCard(parse_card("9C"), to="player")) == "destination_changed"
    assert state.hold == "card_unread" and state.shoe is not None and state.shoe.dealt == 1


def test_an_impossible_card_hold_stops_everything_but_the_pit_boss() -> None:
    state = _fold(*_baccarat_events(), HoldRound("impossible_card"))
    assert state.next_step().to_json() == {"kind": "pit_boss", "to": "player"}
    assert _refused(state, DealCard(parse_card("2S"))) == "round_held"
    assert _refused(state, CardUnread()) == "round_held"
    assert _refused(state, HoldRound("impossible_card")) == "round_held"
    assert _refused(state, BurnCard(parse_card("2S"))) == "round_held"
    released, outputs = table.apply(state, ReleaseHold())
    assert outputs == [{"type": "hold_released", "reason": "impossible_card"}]
    assert released.next_step().to_json() == {"kind": "card", "to": "player"}
    entered, _ = table.apply(state, ManualCard(parse_card("2S"), to="player"))
    assert not entered.hold and entered.next_step().to == "banker"


def test_an_unread_card_is_entered_or_voided_never_released() -> None:
    state = _fold(*_baccarat_events(), CardUnread())
    assert _refused(state, ReleaseHold()) == "not_releasable"
    assert _refused(_fold(*_baccarat_events()), ReleaseHold()) == "not_held"


def test_a_blackjack_round_held_during_a_decision_takes_no_decision() -> None:
    state = _fold(
        SelectTable("blackjack", "standard-blackjack"),
        OpenRound("r1"),
        PlaceBet("ann", "main", Decimal(10), box=1),
        CloseBets(),
        *(DealCard(parse_card(c)) for c in ("TS", "7C", "6D")),
    )
    assert state.next_step().kind == "decision"
    held, _ = table.apply(state, HoldRound("impossible_card"))
    assert held.next_step().to_json() == {"kind": "pit_boss"}
    assert _refused(held, Decision(1, "stand")) == "round_held"
    assert _refused(held, ManualCard(parse_card("2S"), to="box 1 hand 0")) == (
        "destination_changed"
    )
