"""The tail probabilities against published tables and exact identities.

Sources:

- NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.4 "Critical Values
  of the Chi-Square Distribution" (upper tail: the value exceeded with the
  given probability): df 1: 3.841 (0.05), 6.635 (0.01); df 2: 5.991 (0.05),
  9.210 (0.01); df 10: 18.307 (0.05), 23.209 (0.01); df 36: 50.998 (0.05),
  58.619 (0.01).
- NIST/SEMATECH e-Handbook, 1.3.6.7.1 "Cumulative Distribution Function of
  the Standard Normal Distribution": 1.96 -> 0.97500, 2.576 -> 0.99500,
  3.00 -> 0.99865.
- Exact by hand: a Poisson tail P(X >= 3; 2) = 1 - 5 e^-2; a binomial tail
  P(X >= 8; 10, 1/2) = (45 + 10 + 1) / 1024.
"""

from __future__ import annotations

import math

import pytest

from dealer_station.integrity.tails import (
    binomial_sf,
    chi2_sf,
    gamma_lower,
    gamma_upper,
    normal_sf,
    normal_two_sided,
    poisson_sf,
)

NIST_CHI2 = [
    (1, 3.841, 0.05),
    (1, 6.635, 0.01),
    (2, 5.991, 0.05),
    (2, 9.210, 0.01),
    (10, 18.307, 0.05),
    (10, 23.209, 0.01),
    (36, 50.998, 0.05),
    (36, 58.619, 0.01),
]


@pytest.mark.parametrize(("df", "value", "tail"), NIST_CHI2)
def test_chi_squared_tail_matches_nist_critical_values(df: int, value: float, tail: float) -> None:
    # The table has three decimals: its value's tail is the level within that rounding.
    assert chi2_sf(value, df) == pytest.approx(tail, rel=2e-3)


def test_chi_squared_keeps_digits_far_in_the_tail() -> None:
    # df 2 is an exponential: P(X >= x) = exp(-x / 2), exactly.
    assert chi2_sf(200.0, 2) == pytest.approx(math.exp(-100.0), rel=1e-9)
    assert chi2_sf(0.0, 5) == 1.0


def test_gamma_halves_add_up_across_the_series_and_fraction_split() -> None:
    for a, x in ((0.5, 0.2), (3.0, 3.9), (3.0, 4.1), (18.0, 25.0), (200.0, 180.0)):
        assert gamma_lower(a, x) + gamma_upper(a, x) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(("z", "below"), [(1.96, 0.97500), (2.576, 0.99500), (3.0, 0.99865)])
def test_normal_tail_matches_nist(z: float, below: float) -> None:
    assert 1.0 - normal_sf(z) == pytest.approx(below, abs=1e-5)
    assert normal_two_sided(-z) == pytest.approx(2 * (1.0 - below), abs=2e-5)


def test_poisson_and_binomial_tails_are_exact() -> None:
    assert poisson_sf(3, 2.0) == pytest.approx(1.0 - 5.0 * math.exp(-2.0), rel=1e-12)
    assert poisson_sf(1, 0.7) == pytest.approx(1.0 - math.exp(-0.7), rel=1e-12)
    assert poisson_sf(0, 5.0) == 1.0
    assert binomial_sf(8, 10, 0.5) == pytest.approx(56 / 1024, rel=1e-12)
    assert binomial_sf(0, 10, 0.3) == 1.0
    assert binomial_sf(11, 10, 0.3) == 0.0
    # Far side of the mean (the fraction taken the other way round): P(X >= 2; 10, 0.9).
    assert binomial_sf(2, 10, 0.9) == pytest.approx(1 - 0.1**10 - 10 * 0.9 * 0.1**9, rel=1e-12)
