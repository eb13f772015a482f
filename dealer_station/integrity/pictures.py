"""What the pit boss's page draws (docs/integrity.md "The page"): the counts
behind the tests, with the band a fair table stays in, so that a picture shows
what a p-value says.

Pure, like the rest of the package: tallies in, plain JSON out.
"""

from __future__ import annotations

import math
from typing import Any, Final

from dealer_station.games.roulette_layout import WHEEL_ORDER
from dealer_station.integrity.hold import Z_95, HoldTally, Tally
from dealer_station.integrity.wheel import POCKETS, WheelTally

# The band drawn around a pocket's expected count: 99% of a fair pocket's
# counts fall in it (normal approximation of the binomial). One pocket in a
# hundred outside it is what a fair wheel does: the page says so.
Z_99: Final = 2.5758


def _band(n: int, share: float) -> tuple[float, float, float]:
    expected = n * share
    half = Z_99 * math.sqrt(n * share * (1.0 - share))
    return expected, max(0.0, expected - half), expected + half


def wheel_pictures(wheel: WheelTally) -> dict[str, Any]:
    """The pocket counts in wheel order and each dealer's signature (the
    distances from release to landing), with their expected 99% bands."""
    n = wheel.spins
    expected, low, high = _band(n, 1.0 / POCKETS)
    signatures = []
    for dealer, distances in sorted(wheel.signatures.items(), key=lambda d: str(d[0])):
        throws = sum(distances)
        e, lo, hi = _band(throws, 1.0 / POCKETS)
        signatures.append(
            {
                "dealer": dealer,
                "throws": throws,
                "counts": list(distances),
                "expected": e,
                "low": lo,
                "high": hi,
            }
        )
    return {
        "spins": n,
        "pockets": [{"number": p, "count": wheel.counts[p]} for p in WHEEL_ORDER],
        "expected": expected,
        "low": low,
        "high": high,
        "signatures": signatures,
    }


def _hold(hold: HoldTally, tally: Tally) -> dict[str, Any]:
    share = 100.0 / tally.staked if tally.staked else 0.0
    priced = hold.moments is not None and tally.var > 0 and not tally.unpriced
    sd = math.sqrt(tally.var) if priced else 0.0
    return {
        "rounds": tally.rounds,
        "staked": tally.staked,
        "hold": tally.house * share,
        "expected": tally.mean * share if priced else None,
        "low": (tally.mean - Z_95 * sd) * share if priced else None,
        "high": (tally.mean + Z_95 * sd) * share if priced else None,
    }


def hold_pictures(hold: HoldTally) -> list[dict[str, Any]]:
    """Each UTC day's hold in percent of the stakes, against the odds' figure
    and its 95% interval (None where the game's hold is not tested)."""
    return [{"day": date, **_hold(hold, day)} for date, day in sorted(hold.days.items())]


def dealer_hold_pictures(hold: HoldTally) -> list[dict[str, Any]]:
    """Each dealer's hold over the rounds they opened, as a day's (``dealer``
    None: rounds opened with nobody signed on)."""
    return [
        {"dealer": dealer, **_hold(hold, tally)}
        for dealer, tally in sorted(hold.dealers.items(), key=lambda d: str(d[0]))
    ]
