"""A shoe of N standard decks and what is left in it.

The shoe knows its composition, so a card it cannot contain (a seventh ace of
spades in six decks: a foreign card or a misread) is refused as
``impossible_card`` and the shoe stays as it was. The shoe is immutable: drawing
returns a new shoe.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from dealer_station.games.cards import RANKS, SUITS, Card
from dealer_station.games.rejection import Rejected

_INDEX = {(rank, suit): i for i, (suit, rank) in enumerate((s, r) for s in SUITS for r in RANKS)}


def card_index(card: Card) -> int:
    return _INDEX[(card.rank, card.suit)]


@dataclass(frozen=True, slots=True)
class Shoe:
    decks: int
    remaining: tuple[int, ...]
    dealt: int = 0
    burned: int = 0
    # Cards out of the shoe after which the cut card comes out; None: no cut card.
    cut_card_at: int | None = None

    @classmethod
    def new(cls, decks: int, cut_card_at: int | None = None) -> Shoe:
        if decks < 1:
            raise ValueError("a shoe holds at least one deck")
        if cut_card_at is not None and not 0 < cut_card_at <= decks * 52:
            raise ValueError(f"cut card at {cut_card_at} is outside a {decks}-deck shoe")
        return cls(decks, (decks,) * 52, cut_card_at=cut_card_at)

    @property
    def size(self) -> int:
        return self.decks * 52

    @property
    def cards_left(self) -> int:
        return self.size - self.dealt - self.burned

    @property
    def cut_card_reached(self) -> bool:
        return self.cut_card_at is not None and self.dealt + self.burned >= self.cut_card_at

    def count(self, card: Card) -> int:
        return self.remaining[card_index(card)]

    def _take(self, card: Card) -> tuple[int, ...]:
        i = card_index(card)
        if self.remaining[i] == 0:
            raise Rejected(
                "impossible_card",
                f"{card} cannot come from this shoe: all {self.decks} of them are already out",
            )
        return (*self.remaining[:i], self.remaining[i] - 1, *self.remaining[i + 1 :])

    def draw(self, card: Card) -> Shoe:
        return replace(self, remaining=self._take(card), dealt=self.dealt + 1)

    def burn(self, card: Card) -> Shoe:
        return replace(self, remaining=self._take(card), burned=self.burned + 1)

    def unread(self) -> Shoe:
        """A card out of the shoe that nobody could read: one fewer left, of a
        kind nobody knows, so the composition still counts it."""
        return replace(self, burned=self.burned + 1)

    def reshuffled(self) -> Shoe:
        return Shoe.new(self.decks, self.cut_card_at)

    def rank_counts(self) -> tuple[int, ...]:
        """Cards left per rank, ace first, for odds that ignore suits."""
        return tuple(sum(self.remaining[s * 13 + r] for s in range(4)) for r in range(13))
