from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from vision.pockets import POCKET_ORDER, colour_of, pocket_colours
from vision.ring import RingMatcher, colour_at, greenness, redness, template, zero_margin


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
    red = np.zeros(bins, np.float32)
    assert zero_margin(red, green, 0.0) > 50
    assert zero_margin(red, green, 2 * 2 * math.pi / 37) < 0


_PER_POCKET = 10  # bins per pocket in the rings drawn below
_BLACK = (30, 30, 30)
_RED = (40, 40, 180)  # BGR


def _ring(
    zero: tuple[int, int, int], over: dict[int, tuple[int, int, int]] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Redness and greenness of a ring of pockets drawn in BGR, the zero's first and
    centred on angle 0; `over` paints some pockets (by their place from the zero)."""
    colours = [zero] + [_RED if c == "red" else _BLACK for c in pocket_colours()[1:]]
    for place, bgr in (over or {}).items():
        colours[place] = bgr
    row = np.repeat(np.array(colours, np.uint8), _PER_POCKET, axis=0)
    polar = np.roll(np.tile(row[None], (4, 1, 1)), -(_PER_POCKET // 2), axis=1)
    return redness(polar), greenness(polar)


def test_a_blue_green_zero_is_told_by_how_little_red_it_is() -> None:
    """The renderer's zero of (B, G, R) = (82, 96, 29) (seed 96004): 14 grey levels
    greener than black at full light, and less under a dim lamp, but 67 less red."""
    red, green = _ring((27, 32, 10))  # at a third of the light
    assert 0 < float(green[:3].mean()) < 6  # hardly greener than the black pockets
    assert zero_margin(red, green, 0.0) >= 6.0
    assert colour_at(red, green, 0.0, 0.0) == "green"
    assert colour_at(red, green, 0.0, 2 * 2 * math.pi / 37) == "black"


def test_a_pocket_no_greener_than_the_others_is_not_the_zero_however_little_red() -> None:
    """A blue sleeve over a black pocket two places on: far less red than any pocket,
    but no greener than the zero."""
    red, green = _ring((40, 160, 60), over={2: (160, 60, 20)})
    assert zero_margin(red, green, 2 * 2 * math.pi / 37) < 0
    assert zero_margin(red, green, 0.0) >= 6.0
