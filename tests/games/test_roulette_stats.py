"""Roulette statistics against docs/rules.md (European roulette: red numbers, zero
green; dozens 1-12/13-24/25-36, columns 1-4-7.../2-5-8.../3-6-9..., low 1-18,
high 19-36) and the decisions in the module docstring (hot and cold order,
zero's share, rounding). Expected values are counted by hand in the comments.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_station.games.roulette_stats import SPLITS, roulette_stats

# docs/rules.md, European roulette.
RED = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}


def oracle_share(split: str, n: int) -> str:
    """Which share of a split ``n`` falls in, from docs/rules.md alone."""
    if n == 0:
        return "green" if split == "colour" else "zero"
    ordinal = ("first", "second", "third")
    return {
        "colour": "red" if n in RED else "black",
        "parity": "odd" if n % 2 else "even",
        "range": "low" if n <= 18 else "high",
        "dozen": ordinal[(n - 1) // 12],
        "column": ordinal[(n - 1) % 3],
    }[split]


def test_last_results_most_recent_first_with_colour() -> None:
    stats = roulette_stats([5, 0, 32, 11], last=3)
    assert stats.to_json()["last"] == [
        {"number": 11, "colour": "black"},
        {"number": 32, "colour": "red"},
        {"number": 0, "colour": "green"},
    ]
    assert roulette_stats([5, 0], last=0).last == ()
    assert roulette_stats([5, 0], last=10).last == (0, 5)


def test_counts_cover_only_the_window() -> None:
    # The window of 4 holds 7, 7, 0, 36; the 1 and the first 7 are older.
    stats = roulette_stats([1, 7, 7, 7, 0, 36], window=4)
    assert stats.spins == 6
    assert stats.window == 4
    assert stats.counts[7] == 2
    assert stats.counts[1] == 0
    assert stats.counts[0] == 1
    assert stats.counts[36] == 1
    assert len(stats.counts) == 37


def test_hot_most_often_first_equal_counts_by_number_never_a_number_not_seen() -> None:
    # Counts: 17 x3, 4 x2, 32 x2, 0 x1, 9 x1.
    stats = roulette_stats([17, 32, 4, 17, 9, 4, 32, 17, 0], hot_cold=4)
    assert stats.hot == ((17, 3), (4, 2), (32, 2), (0, 1))
    assert roulette_stats([17, 32, 17], hot_cold=5).hot == ((17, 2), (32, 1))


def test_cold_least_often_first_numbers_not_seen_first_equal_counts_by_number() -> None:
    every_once = list(range(37))
    # Each number once, then 0, 1 and 2 again: the coldest are 3, 4, 5 (once each).
    stats = roulette_stats([*every_once, 2, 1, 0], window=100, hot_cold=3)
    assert stats.cold == ((3, 1), (4, 1), (5, 1))
    assert stats.hot == ((0, 2), (1, 2), (2, 2))
    # 1-36 but no zero and no 19: those two are the coldest, zero first.
    missing = [n for n in range(1, 37) if n != 19]
    assert roulette_stats(missing, hot_cold=2).cold == ((0, 0), (19, 0))


def test_splits_count_zero_apart() -> None:
    # 0, 1, 12, 13, 24, 25, 36, 19, 18, 2 by hand:
    #   red 1 12 25 36 19 18 (6), black 13 24 2 (3), green 0 (1)
    #   odd 1 13 25 19 (4), even 12 24 36 18 2 (5)
    #   low 1 12 13 18 2 (5), high 24 25 36 19 (4)
    #   dozens: 1 12 2 | 13 24 19 18 | 25 36
    #   columns: 1 13 25 19 (n%3 == 1) | 2 (n%3 == 2) | 12 24 36 18 (n%3 == 0)
    stats = roulette_stats([0, 1, 12, 13, 24, 25, 36, 19, 18, 2])
    assert stats.split("colour") == {"red": 6, "black": 3, "green": 1}
    assert stats.split("parity") == {"odd": 4, "even": 5, "zero": 1}
    assert stats.split("range") == {"low": 5, "high": 4, "zero": 1}
    assert stats.split("dozen") == {"first": 3, "second": 4, "third": 2, "zero": 1}
    assert stats.split("column") == {"first": 4, "second": 1, "third": 4, "zero": 1}


def test_split_sets_are_the_layouts_of_rules_md() -> None:
    for split, shares in SPLITS.items():
        for n in range(37):
            holders = [share for share, numbers in shares.items() if n in numbers]
            assert holders == [oracle_share(split, n)], (split, n)


def test_percentages_round_half_up_to_one_decimal() -> None:
    # 1 red in 16 spins: 6.25% -> 6.3; 15 black: 93.75% -> 93.8.
    stats = roulette_stats([1] + [2] * 15)
    assert stats.to_json()["colour"] == {
        "red": {"count": 1, "percent": 6.3},
        "black": {"count": 15, "percent": 93.8},
        "green": {"count": 0, "percent": 0.0},
    }
    # Thirds: 33.3 each, adding up to 99.9.
    thirds = roulette_stats([1, 2, 3]).to_json()["column"]
    assert [thirds[k]["percent"] for k in ("first", "second", "third")] == [33.3, 33.3, 33.3]


def test_no_spins_yet() -> None:
    stats = roulette_stats([], hot_cold=3)
    payload = stats.to_json()
    assert payload["spins"] == 0
    assert payload["window"] == 0
    assert payload["last"] == []
    assert payload["hot"] == []
    assert payload["cold"] == [
        {"number": 0, "count": 0},
        {"number": 1, "count": 0},
        {"number": 2, "count": 0},
    ]
    assert payload["colour"]["red"] == {"count": 0, "percent": 0.0}


def test_refuses_a_number_off_the_wheel_and_a_window_of_nothing() -> None:
    with pytest.raises(ValueError, match=r"\[37\]"):
        roulette_stats([5, 37])
    with pytest.raises(ValueError, match=r"\[-1\]"):
        roulette_stats([-1])
    with pytest.raises(ValueError, match="window"):
        roulette_stats([5], window=0)
    with pytest.raises(ValueError, match="last"):
        roulette_stats([5], last=-1)


def test_payload_is_plain_json_with_every_split() -> None:
    payload = roulette_stats([0, 32, 15, 19, 4, 21, 2, 25, 17, 34]).to_json()
    assert json.loads(json.dumps(payload)) == payload
    assert set(payload) == {
        "spins",
        "window",
        "last",
        "hot",
        "cold",
        "counts",
        "colour",
        "parity",
        "range",
        "dozen",
        "column",
    }
    assert len(payload["counts"]) == 37


# --- properties ------------------------------------------------------------------

spins = st.lists(st.integers(0, 36), max_size=300)


@settings(max_examples=100, deadline=None)
@given(spins, st.integers(1, 200), st.integers(0, 40), st.integers(0, 37))
def test_statistics_agree_with_a_count_by_hand(
    results: list[int], window: int, last: int, hot_cold: int
) -> None:
    stats = roulette_stats(results, window=window, last=last, hot_cold=hot_cold)
    recent = results[-window:]
    seen = Counter(recent)
    assert stats.spins == len(results)
    assert stats.window == len(recent) == min(window, len(results))
    assert stats.last == tuple(results[::-1][:last])
    assert stats.counts == tuple(seen[n] for n in range(37))
    for split in SPLITS:
        expected = Counter(oracle_share(split, n) for n in recent)
        assert stats.split(split) == {share: expected[share] for share in SPLITS[split]}
    # Hot: seen numbers only, by count down then number up; cold: by count up
    # then number up; both as long as asked when there are enough numbers.
    assert list(stats.hot) == sorted(seen.items(), key=lambda nc: (-nc[1], nc[0]))[:hot_cold]
    assert (
        list(stats.cold)
        == sorted(((n, seen[n]) for n in range(37)), key=lambda nc: (nc[1], nc[0]))[:hot_cold]
    )
    payload = stats.to_json()
    for split in SPLITS:
        total = sum(share["percent"] for share in payload[split].values())
        # Each share is off by at most half a tenth.
        assert total == 0 or abs(total - 100) <= 0.05 * len(SPLITS[split]) + 1e-9
