"""The simulation benchmark's shoe: the RTP cross-check of issue #7 is only as
good as the shuffle it plays on, so its cards must come out in the order of a
uniformly shuffled shoe."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest

# The benchmarks are scripts, not a package: import this one from its folder.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from blackjack_simulation import DealtShoe

from dealer_station.games.cards import standard_deck

# Chi-square critical value at p = 0.001 for 12 degrees of freedom (13 ranks):
# a fair shoe fails this test once in a thousand seeds.
CHI2_12_P001 = 32.909


def test_a_whole_shoe_is_each_card_once_per_deck() -> None:
    shoe = DealtShoe(6, random.Random(1))
    for _ in range(3):  # and again after each shuffle
        dealt = Counter(shoe.draw() for _ in range(6 * 52))
        assert dealt == Counter({card: 6 for card in standard_deck()})
        shoe.shuffle()


def test_running_out_is_an_error_not_a_silent_reshuffle() -> None:
    shoe = DealtShoe(1, random.Random(1))
    for _ in range(52):
        shoe.draw()
    with pytest.raises(AssertionError, match="ran out"):
        shoe.draw()


def chi_square(counts: Counter[str], draws: int) -> float:
    expected = draws / 13
    return sum((counts[rank] - expected) ** 2 / expected for rank in "A23456789TJQK")


def test_each_position_after_a_shuffle_is_uniform_over_the_ranks() -> None:
    # A round takes a few cards and the shoe is shuffled again: the first and
    # the fifth card of every round must each be any rank with chance 1/13,
    # whatever the rounds before took.
    shoe = DealtShoe(1, random.Random(2026))
    first: Counter[str] = Counter()
    fifth: Counter[str] = Counter()
    rounds = 26_000
    for _ in range(rounds):
        shoe.shuffle()
        cards = [shoe.draw() for _ in range(5)]
        first[str(cards[0])[0]] += 1
        fifth[str(cards[4])[0]] += 1
    assert chi_square(first, rounds) < CHI2_12_P001
    assert chi_square(fifth, rounds) < CHI2_12_P001


def test_a_biased_shoe_would_fail_the_uniformity_check() -> None:
    # The check above can fail: a shoe that never moves the last card forward
    # (j drawn from [i, n - 1) instead of [i, n)) makes the bottom card's rank
    # rarer at the top.
    cards = list(standard_deck())
    rng = random.Random(2026)
    first: Counter[str] = Counter()
    rounds = 26_000
    for _ in range(rounds):
        j = rng.randrange(0, len(cards) - 1)
        first[str(cards[j])[0]] += 1
    assert chi_square(first, rounds) > CHI2_12_P001
