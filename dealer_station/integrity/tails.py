"""Tail probabilities of the distributions the monitor's tests use, from the
standard library alone (no scipy on a Pi).

- chi-squared and Poisson tails from the regularized incomplete gamma
  function: a power series below ``x = a + 1``, a continued fraction above it
  (the split at which each converges fast, as in Press et al., Numerical
  Recipes, 6.2);
- binomial tails from the regularized incomplete beta function by its
  continued fraction (Numerical Recipes, 6.4);
- the normal tail from ``math.erfc``.

Each returns the chance of a result at least as extreme as the one seen,
under the hypothesis that the game is fair: what a test calls its p-value.
"""

from __future__ import annotations

import math
from typing import Final

_EPS: Final = 1e-15
_TINY: Final = 1e-300
_MAX_STEPS: Final = 10_000


def _gamma_series(a: float, x: float) -> float:
    """P(a, x) by its series, for x < a + 1."""
    term = total = 1.0 / a
    n = a
    for _ in range(_MAX_STEPS):
        n += 1.0
        term *= x / n
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (modified Lentz), for x >= a + 1."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_STEPS):
        b += 2.0
        d, c = _lentz(-i * (i - a), b, d, c)
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def gamma_lower(a: float, x: float) -> float:
    """The regularized lower incomplete gamma function P(a, x)."""
    if a <= 0:
        raise ValueError("a must be positive")
    if x <= 0:
        return 0.0
    if x < a + 1.0:
        return min(1.0, _gamma_series(a, x))
    return max(0.0, 1.0 - _gamma_fraction(a, x))


def gamma_upper(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x),
    computed directly where it is small, so that tiny tails keep their digits."""
    if a <= 0:
        raise ValueError("a must be positive")
    if x <= 0:
        return 1.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _gamma_series(a, x))
    return min(1.0, _gamma_fraction(a, x))


def chi2_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-squared with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError("a chi-squared test has at least one degree of freedom")
    return gamma_upper(df / 2.0, statistic / 2.0)


def normal_sf(z: float) -> float:
    """P(Z >= z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def normal_two_sided(z: float) -> float:
    """P(|Z| >= |z|)."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def poisson_sf(k: int, mean: float) -> float:
    """P(X >= k) for X Poisson with the given mean: P(k, mean) of the gamma."""
    if k <= 0:
        return 1.0
    if mean <= 0:
        return 0.0
    return gamma_lower(float(k), mean)


def _lentz(a_n: float, b_n: float, d: float, c: float) -> tuple[float, float]:
    """One step of the modified Lentz method for the fraction's term a_n / b_n:
    the new D (already inverted) and C, kept off zero."""
    d = b_n + a_n * d
    d = _TINY if abs(d) < _TINY else d
    c = b_n + a_n / c
    c = _TINY if abs(c) < _TINY else c
    return 1.0 / d, c


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = _TINY if abs(d) < _TINY else d
    d = 1.0 / d
    h = d
    for m in range(1, _MAX_STEPS):
        m2 = 2 * m
        d, c = _lentz(m * (b - m) * x / ((qam + m2) * (a + m2)), 1.0, d, c)
        h *= d * c
        d, c = _lentz(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)), 1.0, d, c)
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return h


def beta_regularized(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularized incomplete beta function."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    # The fraction converges fast on the side of the mean it is used on.
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def binomial_sf(k: int, n: int, p: float) -> float:
    """P(X >= k) for X binomial with ``n`` trials of chance ``p``: I_p(k, n - k + 1)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return beta_regularized(float(k), float(n - k + 1), p)
