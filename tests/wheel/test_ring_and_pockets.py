from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from vision.pockets import POCKET_ORDER, colour_of, pocket_colours
from vision.ring import RingMatcher, template, zero_margin


def test_pocket_order_and_colours() -> None:
    assert sorted(POCKET_ORDER) == list(range(37))
    colours = pocket_colours()
    assert colours.count("red") == 18 and colours.count("black") == 18 and colours[0] == "green"
    assert colour_of(32) == "red" and colour_of(26) == "black"
    # Red and black alternate all the way round.
    assert all(a != b for a, b in itertools.pairwise(colours[1:]))


@pytest.mark.parametrize("zero_deg", [0.0, 17.3, 123.4, 359.0])
def test_matcher_finds_the_zero_of_a_turned_ring(zero_deg: float) -> None:
    bins = 360
    shift = zero_deg / 360 * bins
    base = template(bins).astype(np.float64)
    # A turned ring: resample the template at a fractional shift, add noise.
    x = np.arange(bins)
    turned = np.interp((x - shift) % bins, x, base, period=bins)
    noisy = (turned * 100 + np.random.default_rng(0).normal(0, 10, bins)).astype(np.float32)
    found = RingMatcher(bins).align(noisy)
    assert abs((math.degrees(found.zero) - zero_deg + 180) % 360 - 180) < 1.0
    assert found.score > 0.8


def test_zero_margin_says_when_the_green_pocket_is_not_where_claimed() -> None:
    bins = 360
    green = np.zeros(bins, np.float32)
    green[:5] = green[-4:] = 80.0  # the green pocket around angle 0
    assert zero_margin(green, 0.0) > 50
    assert zero_margin(green, 2 * 2 * math.pi / 37) < 0
