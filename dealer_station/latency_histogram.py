"""A histogram of latencies, kept by the part that measures them and read by
``/metrics`` at scrape time (``api/metrics.py`` turns it into Prometheus's
histogram): cumulative bucket counts, their sum and count.

Pure and tiny on purpose: the runtime does not import the exposition library,
which is the API's (tests/test_layers.py), and an observation on the event loop
costs one bisect.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

# A card's way from the shoe to the broker's PUBACK: a few milliseconds when
# all is well (docs/latency.md), seconds while the broker is away.
CARD_BUCKETS_S: tuple[float, ...] = (
    0.001,
    0.002,
    0.003,
    0.005,
    0.0075,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    1.0,
    10.0,
)


@dataclass
class LatencyHistogram:
    """Observations in seconds; ``bounds`` are the buckets' upper bounds, ascending."""

    bounds: tuple[float, ...]
    # One count per bound and one for +Inf; each observation counts in one.
    counts: list[int] = field(init=False)
    sum: float = field(init=False, default=0.0)

    def __post_init__(self) -> None:
        if list(self.bounds) != sorted(set(self.bounds)):
            raise ValueError(f"bucket bounds must ascend without repeats: {self.bounds}")
        self.counts = [0] * (len(self.bounds) + 1)

    def observe(self, seconds: float) -> None:
        # bisect_left: an observation equal to a bound belongs to that bucket (le).
        self.counts[bisect.bisect_left(self.bounds, seconds)] += 1
        self.sum += seconds

    @property
    def count(self) -> int:
        return sum(self.counts)

    def cumulative(self) -> list[tuple[float, int]]:
        """(upper bound, observations at or below it), +Inf last."""
        out: list[tuple[float, int]] = []
        total = 0
        for bound, count in zip((*self.bounds, float("inf")), self.counts, strict=True):
            total += count
            out.append((bound, total))
        return out
