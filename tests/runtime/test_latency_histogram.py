"""The publisher's histogram counts as Prometheus's do: a bucket counts the
observations less than or equal to its bound ("le"), cumulatively, +Inf last."""

from __future__ import annotations

import pytest

from dealer_station.latency_histogram import LatencyHistogram


def test_a_bucket_holds_what_is_at_or_below_its_bound() -> None:
    histogram = LatencyHistogram((0.001, 0.01))
    for seconds in (0.0005, 0.001, 0.002, 0.01, 3.0):
        histogram.observe(seconds)
    assert histogram.cumulative() == [(0.001, 2), (0.01, 4), (float("inf"), 5)]
    assert histogram.count == 5
    assert histogram.sum == pytest.approx(3.0135)


def test_bounds_must_ascend() -> None:
    with pytest.raises(ValueError, match="ascend"):
        LatencyHistogram((0.01, 0.001))
    with pytest.raises(ValueError, match="ascend"):
        LatencyHistogram((0.01, 0.01))
