"""Cards and the shoe (docs/rules.md, "Cards")."""

from __future__ import annotations

import pytest

from dealer_station.games.cards import Card, CardError, parse_card, parse_cards
from dealer_station.games.rejection import Rejected
from dealer_station.games.shoe import Shoe


@pytest.mark.parametrize(
    ("text", "written"),
    [("AS", "AS"), ("TD", "TD"), ("10D", "TD"), ("7h", "7H"), (" kc ", "KC"), ("10s", "TS")],
)
def test_card_forms(text: str, written: str) -> None:
    assert str(parse_card(text)) == written


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "wrong_length"),
        ("A", "wrong_length"),
        ("1S", "unknown_rank"),
        ("11S", "wrong_length"),
        ("AX", "unknown_suit"),
        ("ZZ", "unknown_rank"),
        ("Joker", "wrong_length"),
        ("\u2660A", "unknown_rank"),
    ],
)
def test_anything_else_is_a_typed_error(text: str, reason: str) -> None:
    with pytest.raises(CardError) as error:
        parse_card(text)
    assert error.value.reason == reason


def test_card_refuses_to_be_built_wrong() -> None:
    with pytest.raises(CardError):
        Card("1", "S")


def test_parse_cards_takes_spaces_and_commas() -> None:
    assert [str(c) for c in parse_cards("TD 6S,AH")] == ["TD", "6S", "AH"]


def test_a_shoe_knows_what_it_can_still_hold() -> None:
    shoe = Shoe.new(6)
    ace = parse_card("AS")
    assert shoe.count(ace) == 6 and shoe.cards_left == 312
    for _ in range(6):
        shoe = shoe.draw(ace)
    with pytest.raises(Rejected) as refused:
        shoe.draw(ace)
    assert refused.value.reason == "impossible_card"
    assert shoe.count(ace) == 0 and shoe.dealt == 6  # the refused draw changed nothing


def test_burn_cards_leave_the_shoe_but_are_not_dealt() -> None:
    shoe = Shoe.new(1).burn(parse_card("2C")).draw(parse_card("3C"))
    assert (shoe.dealt, shoe.burned, shoe.cards_left) == (1, 1, 50)
    with pytest.raises(Rejected):
        shoe.draw(parse_card("2C"))  # one deck, and its 2C was burned


def test_cut_card_and_a_fresh_shoe() -> None:
    shoe = Shoe.new(1, cut_card_at=3)
    for text in ("2C", "3C"):
        shoe = shoe.draw(parse_card(text))
    assert not shoe.cut_card_reached
    shoe = shoe.burn(parse_card("4C"))
    assert shoe.cut_card_reached
    fresh = shoe.reshuffled()
    assert fresh.cards_left == 52 and not fresh.cut_card_reached and fresh.cut_card_at == 3


def test_rank_counts_ignore_suits() -> None:
    shoe = Shoe.new(2).draw(parse_card("KD")).draw(parse_card("KS"))
    counts = shoe.rank_counts()
    assert counts[12] == 6 and counts[0] == 8 and sum(counts) == 102


@pytest.mark.parametrize(("decks", "cut"), [(0, None), (1, 0), (1, 53)])
def test_impossible_shoes_are_refused(decks: int, cut: int | None) -> None:
    with pytest.raises(ValueError):
        Shoe.new(decks, cut)
