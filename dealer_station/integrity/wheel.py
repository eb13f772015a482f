"""The wheel's tests: pockets, sectors, arcs of neighbouring pockets, runs of
colour and parity, and each dealer's signature.

A biased wheel (a worn or loose pocket, a tilted bowl) favours one pocket or a
region of neighbouring pockets, so besides the goodness of fit over all 37
numbers (which spreads its attention thin), the monitor scans the wheel for
its hottest arc of ``k`` neighbouring pockets, for k in ``ARC_WIDTHS``; k = 1
is the hottest single pocket. The chance that some arc of the 37 is that hot
is bounded by 37 times the chance for one arc (Bonferroni over the arcs: the
37 overlap, so the bound is safe, a little cautious).

The dealer signature: the distance in pockets from the rotor's pocket under
the ball when the croupier released it to the pocket it landed in, counted
the way the rotor turns, as the camera journals it (``landing_distance``,
docs/wheel.md). A fair throw makes it uniform over 0-36; a croupier who can aim peaks
it, which the goodness of fit and the scan for the hottest arc of 9
distances (a target give or take 4 pockets) both see.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from dealer_station.games.roulette_layout import RED, WHEEL_ORDER
from dealer_station.integrity.findings import Finding, Skipped
from dealer_station.integrity.observations import Spin
from dealer_station.integrity.tails import binomial_sf, chi2_sf, normal_two_sided

POCKETS: Final = len(WHEEL_ORDER)
_POSITION: Final = {n: i for i, n in enumerate(WHEEL_ORDER)}
ARC_WIDTHS: Final = (1, 3, 5, 9)
SIGNATURE_ARC: Final = 9


def _arc(first: int, last: int) -> tuple[int, ...]:
    """The pockets from ``first`` to ``last`` clockwise, both included."""
    start, end = _POSITION[first], _POSITION[last]
    return tuple(WHEEL_ORDER[(start + i) % POCKETS] for i in range((end - start) % POCKETS + 1))


# The French call bets' sectors, as arcs of the wheel (docs/integrity.md).
SECTORS: Final[dict[str, tuple[int, ...]]] = {
    "voisins du zéro": _arc(22, 25),
    "tiers du cylindre": _arc(27, 33),
    "orphelins": _arc(17, 6) + _arc(1, 9),
}

# Below these the tests do not run (a chi-squared needs about 5 expected per
# cell; a runs test's normal approximation about 20 of each kind).
MIN_SPINS_POCKETS: Final = 5 * POCKETS
MIN_SPINS_SECTORS: Final = 50
MIN_SPINS_RUNS: Final = 50
MIN_THROWS_SIGNATURE: Final = 5 * POCKETS


@dataclass(slots=True)
class _Runs:
    """A Wald-Wolfowitz runs test's counts, kept as the spins come (zero,
    which is neither colour nor parity, is left out of the sequence)."""

    first: int = 0  # red, or odd
    second: int = 0
    runs: int = 0
    last: bool | None = None

    def add(self, is_first: bool) -> None:
        if is_first:
            self.first += 1
        else:
            self.second += 1
        if is_first is not self.last:
            self.runs += 1
            self.last = is_first

    def z(self) -> float:
        n1, n2 = self.first, self.second
        n = n1 + n2
        mean = 2.0 * n1 * n2 / n + 1.0
        var = 2.0 * n1 * n2 * (2.0 * n1 * n2 - n) / (n * n * (n - 1.0))
        return (self.runs - mean) / math.sqrt(var) if var > 0 else 0.0


@dataclass(slots=True)
class WheelTally:
    counts: list[int] = field(default_factory=lambda: [0] * POCKETS)
    colour: _Runs = field(default_factory=_Runs)
    parity: _Runs = field(default_factory=_Runs)
    # Per dealer (None: not known), distance from release to landing -> throws.
    signatures: dict[str | None, list[int]] = field(default_factory=dict)

    @property
    def spins(self) -> int:
        return sum(self.counts)

    def add(self, spin: Spin, dealer: str | None) -> None:
        n = spin.number
        self.counts[n] += 1
        if n:
            self.colour.add(n in RED)
            self.parity.add(n % 2 == 1)
        if spin.landing_distance is not None:
            self.signatures.setdefault(dealer, [0] * POCKETS)[spin.landing_distance] += 1

    def findings(self, table: str) -> tuple[list[Finding], list[Skipped]]:
        found: list[Finding] = []
        skipped: list[Skipped] = []
        spins = self.spins
        if spins == 0:
            return found, skipped

        def gate(test: str, subject: str, sample: int, minimum: int) -> bool:
            if sample < minimum:
                skipped.append(Skipped(test, subject, sample, minimum))
                return False
            return True

        wheel = [self.counts[n] for n in WHEEL_ORDER]
        if gate("wheel.pockets", table, spins, MIN_SPINS_POCKETS):
            found.append(_fit("wheel.pockets", table, self.counts, "spins", "numbers"))
        for k in ARC_WIDTHS:
            if gate(f"wheel.arc{k}", table, spins, math.ceil(5 * POCKETS / k)):
                found.append(_hottest_arc(f"wheel.arc{k}", table, wheel, k, _pockets_words))
        if gate("wheel.sectors", table, spins, MIN_SPINS_SECTORS):
            found.append(_sectors(table, self.counts))
        for name, runs, kinds in (
            ("colour", self.colour, ("red", "black")),
            ("parity", self.parity, ("odd", "even")),
        ):
            if gate(f"wheel.runs.{name}", table, runs.first + runs.second, MIN_SPINS_RUNS):
                found.append(_runs(f"wheel.runs.{name}", table, runs, kinds))
        for dealer, distances in sorted(self.signatures.items(), key=lambda d: str(d[0])):
            who = f"{table}, dealer {dealer}" if dealer else f"{table}, dealer unknown"
            throws = sum(distances)
            if gate("wheel.signature", who, throws, MIN_THROWS_SIGNATURE):
                found.append(_fit("wheel.signature", who, distances, "throws", "distances"))
            if gate("wheel.signature.arc", who, throws, math.ceil(5 * POCKETS / SIGNATURE_ARC)):
                found.append(
                    _hottest_arc(
                        "wheel.signature.arc", who, distances, SIGNATURE_ARC, _distances_words
                    )
                )
        return found, skipped


def _fit(test: str, subject: str, counts: Sequence[int], unit: str, what: str) -> Finding:
    n = sum(counts)
    expected = n / len(counts)
    statistic = sum((c - expected) ** 2 for c in counts) / expected
    p = chi2_sf(statistic, len(counts) - 1)
    top = max(range(len(counts)), key=lambda i: counts[i])
    label = f"pocket {top}" if what == "numbers" else f"distance {top}"
    return Finding(
        test,
        subject,
        n,
        statistic,
        p,
        f"{subject}: over {n:,} {unit} the {len(counts)} {what} spread with chi-squared "
        f"{statistic:.1f} on {len(counts) - 1} degrees of freedom ({len(counts) - 1} expected); "
        f"the most frequent, {label}, {counts[top]} times where {expected:.1f} are expected",
    )


def _pockets_words(start: int, k: int) -> str:
    pockets = [WHEEL_ORDER[(start + i) % POCKETS] for i in range(k)]
    if k == 1:
        return f"Pocket {pockets[0]}"
    return f"The {k} neighbouring pockets {'-'.join(map(str, pockets))}"


def _distances_words(start: int, k: int) -> str:
    centre = (start + k // 2) % POCKETS
    return f"The ball landed {centre} pockets past its release point, give or take {k // 2},"


def _hottest_arc(
    test: str, subject: str, ring: Sequence[int], k: int, words: Callable[[int, int], str]
) -> Finding:
    """The arc of ``k`` neighbours (of a ring of counts) that came up most."""
    n = sum(ring)
    size = len(ring)
    window = sum(ring[:k])
    # Of arcs equally hot, the one with the most at its centre: its centre is
    # what the words name (a target give or take k // 2).
    best = (window, ring[k // 2])
    best_start = 0
    for start in range(1, size):
        window += ring[(start + k - 1) % size] - ring[start - 1]
        here = (window, ring[(start + k // 2) % size])
        if here > best:
            best, best_start = here, start
    hottest = best[0]
    share = k / size
    p = min(1.0, size * binomial_sf(hottest, n, share))
    expected = n * share
    unit = "spins" if test.startswith("wheel.arc") else "throws"
    return Finding(
        test,
        subject,
        n,
        float(hottest),
        p,
        f"{subject}: {words(best_start, k)} came up {hottest:,} times in {n:,} "
        f"{unit} where {expected:.1f} are expected "
        f"(the hottest of the {size} arcs of {k})",
    )


def _sectors(table: str, counts: Sequence[int]) -> Finding:
    n = sum(counts)
    parts = []
    statistic = 0.0
    for name, pockets in SECTORS.items():
        seen = sum(counts[p] for p in pockets)
        expected = n * len(pockets) / POCKETS
        statistic += (seen - expected) ** 2 / expected
        parts.append(f"{name} {seen:,} (expected {expected:.1f})")
    p = chi2_sf(statistic, len(SECTORS) - 1)
    return Finding(
        "wheel.sectors",
        table,
        n,
        statistic,
        p,
        f"{table}: over {n:,} spins the sectors came up " + ", ".join(parts),
    )


def _runs(test: str, table: str, runs: _Runs, kinds: tuple[str, str]) -> Finding:
    z = runs.z()
    n = runs.first + runs.second
    mean = 2.0 * runs.first * runs.second / n + 1.0
    how = ""
    if abs(z) >= 2:
        how = ": too few, long streaks" if z < 0 else ": too many, too regular an alternation"
    return Finding(
        test,
        table,
        n,
        z,
        normal_two_sided(z),
        f"{table}: {n:,} {kinds[0]}/{kinds[1]} spins (zero left out) fell in {runs.runs:,} runs "
        f"where {mean:.1f} are expected (z = {z:+.2f}){how}",
    )
