"""A betting spot's rules: what a win pays and how much one player may stake.

Shared by baccarat's spots and roulette's bet types; money is Decimal, and what
the house pays is rounded down to the currency's minor unit (it pays no fraction
of a cent).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal

from dealer_station.games.rulefile import parse_ratio


@dataclass(frozen=True, slots=True)
class SpotRules:
    """What a win pays per unit staked, and the limits of one player's total
    stake on the spot (for roulette: on one placement, say the split 17-20)."""

    pays: str
    min_bet: Decimal = Decimal(1)
    max_bet: Decimal = Decimal(1000)

    def __post_init__(self) -> None:
        parse_ratio(self.pays)
        if self.min_bet <= 0 or self.max_bet < self.min_bet:
            raise ValueError("min_bet must be positive and not above max_bet")

    def winnings(self, stake: Decimal, minor_unit: Decimal) -> Decimal:
        """What a winning stake earns on top of itself."""
        ratio = parse_ratio(self.pays)
        exact = stake * ratio.numerator / ratio.denominator
        return exact.quantize(minor_unit, rounding=ROUND_DOWN)
