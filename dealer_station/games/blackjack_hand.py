"""Counting a blackjack hand."""

from __future__ import annotations

from collections.abc import Sequence

from dealer_station.games.cards import Card


def card_value(card: Card) -> int:
    """Ace 1 (hand_total makes it 11 when it fits), tens and faces 10."""
    if card.rank == "A":
        return 1
    if card.rank in "TJQK":
        return 10
    return int(card.rank)


def hand_total(cards: Sequence[Card]) -> tuple[int, bool]:
    """The hand's value and whether it is soft (an ace counted as 11)."""
    total = sum(card_value(c) for c in cards)
    if total <= 11 and any(c.rank == "A" for c in cards):
        return total + 10, True
    return total, False


def is_two_card_21(cards: Sequence[Card]) -> bool:
    return len(cards) == 2 and hand_total(cards)[0] == 21
