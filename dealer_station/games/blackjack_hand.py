"""Counting a blackjack hand."""

from __future__ import annotations

from collections.abc import Sequence

from dealer_station.games.cards import Card

# Ace 1 (hand_total makes it 11 when it fits), tens and faces 10. A table, not
# branches: the engine counts hands on every step, a simulation millions of times.
_VALUE = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10} | {str(n): n for n in range(2, 10)}


def card_value(card: Card) -> int:
    return _VALUE[card.rank]


def hand_total(cards: Sequence[Card]) -> tuple[int, bool]:
    """The hand's value and whether it is soft (an ace counted as 11)."""
    total = 0
    ace = False
    for card in cards:
        value = _VALUE[card.rank]
        total += value
        ace = ace or value == 1
    if total <= 11 and ace:
        return total + 10, True
    return total, False


def is_two_card_21(cards: Sequence[Card]) -> bool:
    return len(cards) == 2 and hand_total(cards)[0] == 21
