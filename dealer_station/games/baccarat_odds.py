"""Exact baccarat odds by full enumeration, no sampling.

The space is every ordered sequence of six cards from the shoe, in dealing order
P1 B1 P2 B2, then the third cards; a round that uses fewer than six still counts
once for every way the unused positions can be filled, so for 8 decks the total
is 416*415*414*413*412*411, the denominator of the published figures.

Outcomes depend only on card values, so the enumeration runs over the ten value
classes with their multiplicities (the tens and faces are one class of 16 per
deck) and multiplies counts without replacement. The weight of a sequence
depends only on the multiset of its values, so the two orders of each side's
first two cards are counted once and doubled. Pair bets depend on ranks (a ten
and a king are no pair) and are counted from the ranks.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from dealer_station.games.baccarat import (
    BANKER_DRAWS_ON,
    NATURAL_FROM,
    STANDS_FROM,
    BaccaratRules,
)
from dealer_station.games.cards import RANKS
from dealer_station.games.rulefile import parse_ratio

SIX_CARDS: Final = 6


def falling(n: int, k: int) -> int:
    """n (n-1) ... (n-k+1): ordered draws of k cards out of n."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


@dataclass(frozen=True, slots=True)
class BaccaratCounts:
    """Ordered six-card sequences of the shoe by result; ``*_pair`` count those
    whose side's first two cards are a pair, over the same ``total``."""

    decks: int
    player: int
    banker: int
    tie: int
    player_pair: int
    banker_pair: int

    @property
    def total(self) -> int:
        return self.player + self.banker + self.tie


@dataclass(slots=True)
class _Tally:
    """The weighted sequences of each result, as the enumeration finds them."""

    player: int = 0
    banker: int = 0
    tie: int = 0

    def both_stand(self, player_total: int, banker_total: int, weight: int) -> None:
        if player_total > banker_total:
            self.player += weight
        elif banker_total > player_total:
            self.banker += weight
        else:
            self.tie += weight

    def banker_draws(
        self, c: list[int], left: int, player_total: int, banker_total: int, weight: int
    ) -> None:
        """Banker draws one of the ``left`` cards of ``c`` against Player's final total."""
        ties = c[(player_total - banker_total) % 10]
        wins = sum(c[(v - banker_total) % 10] for v in range(player_total + 1, 10))
        self.tie += weight * ties
        self.banker += weight * wins
        self.player += weight * (left - ties - wins)


def _first_two(c: list[int], weight: int) -> Iterator[tuple[int, int]]:
    """A side's first two cards: each pair of values, once for both orders, as
    (the side's total, ``weight`` times the ways to draw them from ``c``). The
    two cards are out of ``c`` while the caller looks at them."""
    for first in range(10):
        w1 = weight * c[first]
        if not w1:
            continue
        c[first] -= 1
        for second in range(first, 10):
            w2 = w1 * c[second] * (1 if first == second else 2)
            if not w2:
                continue
            c[second] -= 1
            yield (first + second) % 10, w2
            c[second] += 1
        c[first] += 1


def count_outcomes(decks: int) -> BaccaratCounts:
    if decks < 1:
        raise ValueError("a shoe holds at least one deck")
    shoe = 52 * decks
    c = [4 * decks] * 10
    c[0] = 16 * decks
    behind_four = falling(shoe - 4, SIX_CARDS - 4)
    behind_five = shoe - 5
    tally = _Tally()

    for player_total, ways in _first_two(c, 1):
        for banker_total, weight in _first_two(c, ways):
            if (
                player_total >= NATURAL_FROM
                or banker_total >= NATURAL_FROM
                or (player_total >= STANDS_FROM and banker_total >= STANDS_FROM)
            ):
                tally.both_stand(player_total, banker_total, weight * behind_four)
            elif player_total >= STANDS_FROM:
                # Player stands, Banker draws one of the shoe - 4 cards left.
                tally.banker_draws(c, shoe - 4, player_total, banker_total, weight * behind_five)
            else:
                draws_on = BANKER_DRAWS_ON[banker_total]
                for p3 in range(10):
                    n3 = c[p3]
                    if not n3:
                        continue
                    final = (player_total + p3) % 10
                    if p3 in draws_on:
                        c[p3] -= 1
                        tally.banker_draws(c, shoe - 5, final, banker_total, weight * n3)
                        c[p3] += 1
                    else:
                        tally.both_stand(final, banker_total, weight * n3 * behind_five)

    per_rank = 4 * decks
    pairs = len(RANKS) * per_rank * (per_rank - 1) * falling(shoe - 2, SIX_CARDS - 2)
    return BaccaratCounts(decks, tally.player, tally.banker, tally.tie, pairs, pairs)


BETS: Final = ("banker", "player", "tie", "player_pair", "banker_pair")


@dataclass(frozen=True, slots=True)
class BaccaratOdds:
    counts: BaccaratCounts
    probability: dict[str, Fraction]
    # Expected loss per unit staked, a tie counting as a round played (a push
    # for Player and Banker), the commission taken exactly (without rounding).
    house_edge: dict[str, Fraction]


def odds(rules: BaccaratRules) -> BaccaratOdds:
    counts = count_outcomes(rules.decks)
    total = counts.total
    p = {bet: Fraction(getattr(counts, bet), total) for bet in BETS}

    def pays(spot: str) -> Fraction:
        return parse_ratio(rules.spot(spot).pays)

    banker_win = pays("banker") * (1 - Fraction(rules.commission))
    edge = {
        "banker": p["player"] - p["banker"] * banker_win,
        "player": p["banker"] - p["player"] * pays("player"),
        "tie": (1 - p["tie"]) - p["tie"] * pays("tie"),
        "player_pair": (1 - p["player_pair"]) - p["player_pair"] * pays("player_pair"),
        "banker_pair": (1 - p["banker_pair"]) - p["banker_pair"] * pays("banker_pair"),
    }
    return BaccaratOdds(counts, p, edge)
