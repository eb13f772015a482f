"""The card games' outcomes against their exact odds.

- Baccarat: banker, player and tie wins against ``baccarat_odds`` (the full
  enumeration of the shoe), one chi-squared on 2 degrees of freedom; and each
  side's naturals (a two-card 8 or 9), against the chance that two cards drawn
  from the full shoe make one, exact, a z-score each.
- Blackjack: the dealer's bust rate per up-card against
  ``blackjack_dealer.dealer_probabilities`` for the full shoe less the
  up-card, conditioned on no dealer blackjack (a hand that is one is not
  played out, so it is not in the sample); the z-scores of the up-cards with
  enough hands are one chi-squared, with as many degrees of freedom. The
  player's cards are not taken out of the shoe: their effect on the dealer's
  chances is far below what a few thousand hands can see.

Only hands the dealer played out count (``observations.DealerHand``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Final

from dealer_station.games.baccarat import NATURAL_FROM
from dealer_station.games.baccarat_odds import count_outcomes
from dealer_station.games.blackjack_dealer import (
    BLACKJACK,
    BUST,
    RANK_CLASSES,
    dealer_probabilities,
    full_shoe,
)
from dealer_station.integrity.findings import Finding, Skipped
from dealer_station.integrity.observations import BaccaratCoup, DealerHand
from dealer_station.integrity.tails import chi2_sf, normal_two_sided

MIN_COUPS: Final = 100
MIN_HANDS_PER_UP_CARD: Final = 30
WINNERS: Final = ("banker", "player", "tie")


@cache
def baccarat_chances(decks: int) -> dict[str, float]:
    """The chance of each winner and of a natural on one side, exact."""
    counts = count_outcomes(decks)
    out = {w: float(Fraction(getattr(counts, w), counts.total)) for w in WINNERS}
    size = 52 * decks
    per_value = [16 * decks] + [4 * decks] * 9  # value 0 (tens, faces) then 1-9
    ways = sum(
        per_value[a] * (per_value[b] - (a == b))
        for a in range(10)
        for b in range(10)
        if (a + b) % 10 >= NATURAL_FROM
    )
    out["natural"] = float(Fraction(ways, size * (size - 1)))
    return out


@cache
def bust_chances(decks: int, hits_soft_17: bool) -> tuple[float, ...]:
    """Per up-card (rank class, ace first): P(bust | no dealer blackjack)."""
    out = []
    for up in range(len(RANK_CLASSES)):
        shoe = list(full_shoe(decks))
        shoe[up] -= 1
        chances = dealer_probabilities(tuple(shoe), up, hits_soft_17)
        out.append(chances[BUST] / (1.0 - chances[BLACKJACK]))
    return tuple(out)


def _z(seen: int, n: int, p: float) -> float:
    return (seen - n * p) / math.sqrt(n * p * (1.0 - p))


@dataclass(slots=True)
class BaccaratTally:
    decks: int
    winners: dict[str, int] = field(default_factory=lambda: dict.fromkeys(WINNERS, 0))
    naturals: dict[str, int] = field(default_factory=lambda: {"player": 0, "banker": 0})

    def add(self, coup: BaccaratCoup) -> None:
        self.winners[coup.winner] = self.winners.get(coup.winner, 0) + 1
        self.naturals["player"] += coup.player_natural
        self.naturals["banker"] += coup.banker_natural

    def findings(self, table: str) -> tuple[list[Finding], list[Skipped]]:
        n = sum(self.winners.values())
        if n < MIN_COUPS:
            return [], [Skipped("baccarat.winners", table, n, MIN_COUPS)] if n else []
        p = baccarat_chances(self.decks)
        statistic = 0.0
        parts = []
        for w in WINNERS:
            expected = n * p[w]
            statistic += (self.winners[w] - expected) ** 2 / expected
            z = _z(self.winners[w], n, p[w])
            parts.append(f"{w} {self.winners[w]:,} (expected {expected:.1f}, z = {z:+.2f})")
        found = [
            Finding(
                "baccarat.winners",
                table,
                n,
                statistic,
                chi2_sf(statistic, 2),
                f"{table}: over {n:,} coups the wins were " + ", ".join(parts),
            )
        ]
        for side, seen in self.naturals.items():
            z = _z(seen, n, p["natural"])
            found.append(
                Finding(
                    f"baccarat.naturals.{side}",
                    table,
                    n,
                    z,
                    normal_two_sided(z),
                    f"{table}: the {side} had a natural in {seen:,} of {n:,} coups where "
                    f"{n * p['natural']:.1f} are expected (z = {z:+.2f})",
                )
            )
        return found, []


@dataclass(slots=True)
class BustTally:
    decks: int
    hits_soft_17: bool
    hands: list[int] = field(default_factory=lambda: [0] * len(RANK_CLASSES))
    busts: list[int] = field(default_factory=lambda: [0] * len(RANK_CLASSES))
    chances: tuple[float, ...] = field(init=False)

    def __post_init__(self) -> None:
        # Now rather than at the first report with enough hands, hours into
        # play: the dealer's odds and their caches take some 7 MiB, and memory
        # a station takes should be taken at its start (docs/memory.md).
        self.chances = bust_chances(self.decks, self.hits_soft_17)

    def add(self, hand: DealerHand) -> None:
        self.hands[hand.up] += 1
        self.busts[hand.up] += hand.bust

    def findings(self, table: str) -> tuple[list[Finding], list[Skipped]]:
        total = sum(self.hands)
        ups = [u for u in range(len(RANK_CLASSES)) if self.hands[u] >= MIN_HANDS_PER_UP_CARD]
        if not ups:
            skipped = [Skipped("blackjack.dealer_bust", table, total, MIN_HANDS_PER_UP_CARD)]
            return [], skipped if total else []
        chances = self.chances
        zs = {u: _z(self.busts[u], self.hands[u], chances[u]) for u in ups}
        statistic = sum(z * z for z in zs.values())
        worst = max(ups, key=lambda u: abs(zs[u]))
        name = RANK_CLASSES[worst]
        parts = ", ".join(f"{RANK_CLASSES[u]} z = {zs[u]:+.2f}" for u in ups)
        return [
            Finding(
                "blackjack.dealer_bust",
                table,
                sum(self.hands[u] for u in ups),
                statistic,
                chi2_sf(statistic, len(ups)),
                f"{table}: the dealer busted {self.busts[worst]:,} times in "
                f"{self.hands[worst]:,} hands played out with {name} up where "
                f"{self.hands[worst] * chances[worst]:.1f} are expected; by up-card: {parts}",
            )
        ], []
