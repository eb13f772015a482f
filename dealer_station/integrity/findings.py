"""What a test found, and which findings are alarms.

A table runs many tests at once (pockets, sectors, arcs, runs, a signature per
dealer, the shoe, the outcomes, the hold): at a 1% level each, ten fair tests
would raise an alarm on about one table in ten. The monitor corrects by
**Bonferroni**: with ``m`` tests run on a table, a finding is an alarm when
``m * p`` is at most the level. That bounds the chance that a fair table
shows any alarm at all by the level, whatever the dependence between the
tests (they share their spins, so they are not independent); the false-alarm
figure the issue asks for is exactly that chance. Benjamini-Hochberg bounds
the share of false alarms among alarms instead, which is the same bound only
when every test is fair and the tests are independent or positively related;
for the one effect that matters most (the smallest p-value) its threshold is
Bonferroni's anyway. docs/integrity.md says the same for a pit boss.

A count that must hold exactly (the shoe's composition) is not a statistic: a
missing or extra card is an alarm whatever the level, and is not counted in
``m``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Finding:
    """One test on one subject (a table, or a dealer at a table)."""

    test: str  # e.g. wheel.pocket, wheel.signature, shoe.composition, hold
    subject: str
    sample: int
    statistic: float
    p_value: float
    message: str  # what was seen against what was expected, in words
    exact: bool = False  # a count that must hold: p_value 0.0 when it does not


@dataclass(frozen=True, slots=True)
class Skipped:
    """A test that did not run: its sample is below the minimum."""

    test: str
    subject: str
    sample: int
    minimum: int
    why: str = ""  # when no sample would do: why the test does not run


@dataclass(frozen=True, slots=True)
class Verdict:
    finding: Finding
    adjusted: float  # the p-value after the correction (Bonferroni: m * p, at most 1)
    alarm: bool

    def to_json(self, level: float) -> dict[str, Any]:
        """The verdict as the command's --json, the topic and the page give it."""
        f = self.finding
        return {
            "test": f.test,
            "subject": f.subject,
            "sample": f.sample,
            "statistic": f.statistic,
            "p_value": f.p_value,
            "adjusted": self.adjusted,
            "alarm": self.alarm,
            "words": self.words(level),
        }

    def words(self, level: float) -> str:
        """The finding for a pit boss: what was seen, how unlikely, what it is."""
        f = self.finding
        if f.exact:
            return f.message if self.alarm else f"{f.message}: as it should be."
        odds = f" (about 1 in {_one_in(f.p_value)})" if 0 < f.p_value < 0.01 else ""
        verdict = (
            f"ALARM: below the {level:g} level after allowing for the tests run on this table"
            if self.alarm
            else "within what a fair game does"
        )
        return (
            f"{f.message}. A fair game does this or worse with chance p = {f.p_value:.3g}"
            f"{odds}; corrected p = {self.adjusted:.3g}: {verdict}."
        )


def _one_in(p: float) -> str:
    n = 1.0 / p
    if n >= 1e9:
        return f"{n:.1e}"
    return f"{round(n):,}"


def verdicts(findings: Iterable[Finding], level: float) -> list[Verdict]:
    """Bonferroni over the statistical findings of one table."""
    found = list(findings)
    m = sum(not f.exact for f in found)
    out = []
    for f in found:
        if f.exact:
            out.append(Verdict(f, f.p_value, f.p_value == 0.0))
        else:
            adjusted = min(1.0, m * f.p_value)
            out.append(Verdict(f, adjusted, adjusted <= level))
    return out
