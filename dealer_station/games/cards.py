"""Playing cards and their wire form.

A card is written as two characters, rank then suit: ``AS``, ``TD``, ``7H``. ``10`` is
accepted as a rank on input; ``T`` is what is written. Anything else is a
``CardError`` naming what was wrong, never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

RANKS: Final = "A23456789TJQK"
SUITS: Final = "CDHS"
SUIT_NAMES: Final = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS: Final = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


class CardError(ValueError):
    """Text that is not a card. ``reason`` is machine-readable."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"{text!r} is not a card: {reason}")
        self.text = text
        self.reason = reason


@dataclass(frozen=True, slots=True, order=True)
class Card:
    rank: str
    suit: str

    def __post_init__(self) -> None:
        if self.rank not in RANKS or len(self.rank) != 1:
            raise CardError(self.rank + self.suit, "unknown_rank")
        if self.suit not in SUITS or len(self.suit) != 1:
            raise CardError(self.rank + self.suit, "unknown_suit")

    def __str__(self) -> str:
        return self.rank + self.suit

    @property
    def is_ten_value(self) -> bool:
        return self.rank in "TJQK"

    @property
    def rank_index(self) -> int:
        """0 for ace up to 12 for king: the index into per-rank tables."""
        return RANKS.index(self.rank)


def parse_card(text: str) -> Card:
    """Parse ``AS``, ``td``, ``10D``. Surrounding whitespace is ignored."""
    raw = text.strip().upper()
    if len(raw) == 3 and raw.startswith("10"):
        raw = "T" + raw[2]
    if len(raw) != 2:
        raise CardError(text, "wrong_length")
    rank, suit = raw[0], raw[1]
    if rank not in RANKS:
        raise CardError(text, "unknown_rank")
    if suit not in SUITS:
        raise CardError(text, "unknown_suit")
    return Card(rank, suit)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse a space- or comma-separated list of cards: ``'TD 6S'``."""
    return tuple(parse_card(part) for part in text.replace(",", " ").split())


def standard_deck() -> tuple[Card, ...]:
    return tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
