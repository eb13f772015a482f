"""The count-out: the rest of the shoe read through the scanner before it is
shuffled or changed, so the shoe's check (docs/integrity.md, "The shoe") can
find a missing card. Expected figures are the shoe's composition: 52 cards a
deck, each of the 52 cards once a deck (docs/rules.md, "Cards and shoes")."""

from __future__ import annotations

from decimal import Decimal

import pytest

from dealer_station.games import table
from dealer_station.games.cards import RANKS, SUITS, parse_card
from dealer_station.games.events import (
    BurnCard,
    CardUnread,
    CloseBets,
    CountOut,
    DealCard,
    Event,
    NewShoe,
    OpenRound,
    PlaceBet,
    SelectTable,
    Shuffle,
)
from dealer_station.games.rejection import Rejected

DECK = [parse_card(rank + suit) for suit in SUITS for rank in RANKS]


def _fold(*events: Event) -> tuple[table.TableState, list[dict[str, object]]]:
    state = None
    outputs: list[dict[str, object]] = []
    for event in events:
        state, out = table.apply(state, event)
        outputs += out
    assert state is not None
    return state, outputs


def _refused(state: table.TableState, event: Event) -> str:
    with pytest.raises(Rejected) as refused:
        table.apply(state, event)
    return refused.value.reason


def test_every_card_of_a_deck_counted_out_leaves_the_shoe_empty() -> None:
    state, outputs = _fold(SelectTable("baccarat", decks=1), CountOut())
    assert outputs[-1] == {"type": "count_out_started", "cards_left": 52}
    assert state.next_step().kind == "count_out"
    state, outputs = _fold(SelectTable("baccarat", decks=1), CountOut(), *map(DealCard, DECK))
    assert outputs[-1] == {"type": "counted", "cards": 52, "cards_left": 0}
    assert state.shoe is not None and state.shoe.cards_left == 0
    state, outputs = table.apply(state, Shuffle())
    assert outputs == [{"type": "shuffle", "cards": 52, "counted_out": 52}]
    assert state.counted is None and state.next_step().kind == "round_open"
    assert state.shoe is not None and state.shoe.cards_left == 52


def test_a_shuffle_without_a_count_out_says_nothing_was_counted() -> None:
    _, outputs = _fold(SelectTable("baccarat", decks=1), NewShoe())
    assert outputs[-1] == {"type": "new_shoe", "cards": 52}


def test_no_round_opens_while_the_shoe_is_counted_out() -> None:
    state, _ = _fold(SelectTable("baccarat"), CountOut(), DealCard(DECK[0]))
    assert _refused(state, OpenRound()) == "counting_out"
    assert _refused(state, CountOut()) == "counting_out"  # a double tap
    state, _ = table.apply(state, NewShoe())
    state, outputs = table.apply(state, OpenRound("r1"))
    assert outputs[0]["type"] == "round_opened"


def test_a_round_in_play_is_not_counted_out() -> None:
    state, _ = _fold(
        SelectTable("baccarat"),
        OpenRound("r1"),
        PlaceBet("ann", "banker", Decimal(10)),
        CloseBets(),
    )
    assert _refused(state, CountOut()) == "round_in_progress"


def test_a_card_the_shoe_cannot_hold_is_refused_during_the_count_out_too() -> None:
    # One deck holds one ace of spades: a second is a foreign card or a misread.
    state, _ = _fold(SelectTable("baccarat", decks=1), CountOut(), DealCard(parse_card("AS")))
    assert _refused(state, DealCard(parse_card("AS"))) == "impossible_card"
    assert state.counted == 1


def test_unread_and_burnt_cards_count_as_cards_out_of_the_shoe() -> None:
    state, outputs = _fold(
        SelectTable("baccarat", decks=1), CountOut(), CardUnread(), BurnCard(DECK[5])
    )
    assert outputs[-1] == {"type": "counted", "cards": 2, "cards_left": 50}
    assert state.shoe is not None and state.shoe.count(DECK[5]) == 0


def test_roulette_has_no_shoe_to_count() -> None:
    state, _ = _fold(SelectTable("roulette"))
    assert _refused(state, CountOut()) == "no_shoe"
