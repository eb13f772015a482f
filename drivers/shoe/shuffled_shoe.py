"""The cards of an N-deck shoe in a shuffled order, reproducible from a seed."""

from __future__ import annotations

import random

from firmware_proto.messages import RANKS, SUITS


def shuffled_shoe(decks: int, seed: int | None = None) -> list[str]:
    cards = [rank + suit for _ in range(decks) for suit in SUITS for rank in RANKS]
    random.Random(seed).shuffle(cards)
    return cards
