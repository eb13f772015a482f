"""The hold: what the house kept of what was staked, per table per day and
per dealer (over every round the dealer opened), against what the variant's
odds make of the bets actually placed.

For each settled round the rules give the house's net as a function of the
outcome, so its mean and variance are exact:

- roulette: the 37 numbers, each 1/37; a bet returns its stake and its
  ``pays`` when the number is one it covers (``roulette_layout.covered``);
- baccarat: banker, player or tie with ``baccarat_odds``' chances (a tie
  returns a Player or Banker stake, docs/rules.md; the commission taken
  exactly); a pair bet is added as independent of the winner (it nearly is),
  with its own exact chance.

A day's house win minus its expectation, over the square root of the summed
variances, is a z-score (the rounds are independent); the interval shown is
the expected hold give or take 1.96 standard deviations. Blackjack's hold is
shown but not tested: it depends on how the players play, which no variant
file says.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Final

from dealer_station.games import baccarat, roulette
from dealer_station.games.baccarat_odds import odds as baccarat_odds
from dealer_station.games.rejection import Rejected
from dealer_station.games.roulette_layout import WHEEL_ORDER, covered
from dealer_station.games.rulefile import parse_ratio
from dealer_station.integrity.findings import Finding, Skipped
from dealer_station.integrity.observations import Bet, Settled
from dealer_station.integrity.tails import normal_two_sided

# A day's rounds, or a dealer's: enough for the normal tail of their sum.
MIN_ROUNDS: Final = 100
Z_95: Final = 1.959964

Moments = Callable[[Sequence[Bet]], tuple[float, float]]


def _mean_var(values: Sequence[float], chances: Sequence[float]) -> tuple[float, float]:
    mean = sum(v * p for v, p in zip(values, chances, strict=True))
    return mean, sum(p * (v - mean) ** 2 for v, p in zip(values, chances, strict=True))


@cache
def _roulette_rules(variant: str) -> roulette.RouletteRules:
    return roulette.load_variant(variant)


def _covers(spot: str, numbers: tuple[int, ...]) -> frozenset[int]:
    return covered(spot, numbers)[1]


def roulette_moments(variant: str) -> Moments:
    rules = _roulette_rules(variant)
    pockets = len(WHEEL_ORDER)

    @cache
    def bet_type(spot: str, numbers: tuple[int, ...]) -> tuple[float, frozenset[int]]:
        return 1.0 + float(parse_ratio(rules.bet_type(spot).pays)), _covers(spot, numbers)

    def moments(bets: Sequence[Bet]) -> tuple[float, float]:
        staked = sum(b.stake for b in bets)
        paid = [0.0] * pockets  # what the house pays out on each number
        for bet in bets:
            factor, covers = bet_type(bet.spot, bet.numbers)
            win = bet.stake * factor
            for n in covers:
                paid[n] += win
        mean_paid = sum(paid) / pockets
        var = sum((x - mean_paid) ** 2 for x in paid) / pockets
        return staked - mean_paid, var

    return moments


@cache
def _baccarat_terms(variant: str, decks: int | None) -> dict[str, tuple[float, ...]]:
    """Per spot, the house's net per unit staked on banker, player, tie (and
    for a pair bet: its net on a pair, and its chance)."""
    rules = baccarat.load_variant(variant, decks)
    found = baccarat_odds(rules)
    p = found.probability

    def pays(spot: str) -> float:
        return float(parse_ratio(rules.spot(spot).pays))

    banker_win = pays("banker") * (1.0 - float(rules.commission))
    return {
        "chances": (float(p["banker"]), float(p["player"]), float(p["tie"])),
        "banker": (-banker_win, 1.0, 0.0),
        "player": (1.0, -pays("player"), 0.0),
        "tie": (1.0, 1.0, -pays("tie")),
        "player_pair": (-pays("player_pair"), float(p["player_pair"])),
        "banker_pair": (-pays("banker_pair"), float(p["banker_pair"])),
    }


def baccarat_moments(variant: str, decks: int | None) -> Moments:
    terms = _baccarat_terms(variant, decks)
    chances = terms["chances"]

    def moments(bets: Sequence[Bet]) -> tuple[float, float]:
        house = [0.0, 0.0, 0.0]
        pair_mean = pair_var = 0.0
        for bet in bets:
            row = terms[bet.spot]
            if len(row) == 3:
                for i in range(3):
                    house[i] += bet.stake * row[i]
            else:
                on_pair, chance = row
                m, v = _mean_var((bet.stake * on_pair, bet.stake), (chance, 1.0 - chance))
                pair_mean += m
                pair_var += v
        mean, var = _mean_var(house, chances)
        return mean + pair_mean, var + pair_var

    return moments


@dataclass(slots=True)
class Tally:
    """The rounds of a day or of a dealer: what was staked and kept, and what
    the odds expect of those bets."""

    rounds: int = 0
    staked: float = 0.0
    house: float = 0.0
    mean: float = 0.0
    var: float = 0.0
    unpriced: int = 0  # settlements naming a bet the variant does not have


@dataclass(slots=True)
class HoldTally:
    moments: Moments | None  # None: the game's hold is shown, not tested
    days: dict[str, Tally] = field(default_factory=dict)
    # By the round's dealer (``round_opened``'s ``dealt_by``; None: nobody signed on).
    dealers: dict[str | None, Tally] = field(default_factory=dict)

    def add(self, settled: Settled, dealer: str | None = None) -> None:
        priced = None
        if self.moments is not None:
            try:
                priced = self.moments(settled.bets)
            except (KeyError, AttributeError, Rejected):
                priced = None
        for tally in (
            self.days.setdefault(settled.day, Tally()),
            self.dealers.setdefault(dealer, Tally()),
        ):
            tally.rounds += 1
            for bet in settled.bets:
                tally.staked += bet.stake
                tally.house += bet.stake - bet.returns
            if priced is not None:
                tally.mean += priced[0]
                tally.var += priced[1]
            elif self.moments is not None:
                tally.unpriced += 1

    def findings(self, table: str) -> tuple[list[Finding], list[Skipped]]:
        found: list[Finding] = []
        skipped: list[Skipped] = []
        subjects = [("hold", f"{table} on {date}", t) for date, t in sorted(self.days.items())]
        subjects += [
            ("hold.dealer", f"{table}, dealer {dealer or 'unknown'}", t)
            for dealer, t in sorted(self.dealers.items(), key=lambda d: str(d[0]))
        ]
        for test, subject, tally in subjects:
            if tally.unpriced:
                if test == "hold":  # the same settlements, said once: by their day
                    found.append(_unpriced(subject, tally))
                continue
            if self.moments is None:
                skipped.append(Skipped(test, subject, tally.rounds, 0, _untested_why(tally)))
                continue
            if tally.rounds < MIN_ROUNDS or tally.var <= 0:
                skipped.append(Skipped(test, subject, tally.rounds, MIN_ROUNDS))
                continue
            found.append(_hold_finding(test, subject, tally))
        return found, skipped


def _unpriced(subject: str, tally: Tally) -> Finding:
    return Finding(
        "hold.bets",
        subject,
        tally.rounds,
        float(tally.unpriced),
        0.0,
        f"ALARM: {subject}: {tally.unpriced} settlement(s) name a bet "
        "this variant does not have: the journal or the rules were changed. "
        "Have the journal verified and the variant file checked",
        exact=True,
    )


def _untested_why(tally: Tally) -> str:
    hold = 100.0 * tally.house / tally.staked if tally.staked else 0.0
    return (
        f"the house kept {tally.house:,.2f} of {tally.staked:,.2f} staked over "
        f"{tally.rounds:,} rounds ({hold:.2f}%): this game's hold depends "
        "on how the players play"
    )


def _hold_finding(test: str, subject: str, tally: Tally) -> Finding:
    sd = math.sqrt(tally.var)
    z = (tally.house - tally.mean) / sd
    share = 100.0 / tally.staked
    return Finding(
        test,
        subject,
        tally.rounds,
        z,
        normal_two_sided(z),
        f"{subject}: the house kept {tally.house:,.2f} of {tally.staked:,.2f} "
        f"staked over {tally.rounds:,} rounds, a hold of {tally.house * share:.2f}%, "
        f"where the odds give {tally.mean * share:.2f}% "
        f"(95% between {(tally.mean - Z_95 * sd) * share:.2f}% and "
        f"{(tally.mean + Z_95 * sd) * share:.2f}%): z = {z:+.2f}",
    )
