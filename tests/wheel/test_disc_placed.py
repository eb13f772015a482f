"""A resting ball whose edges are clean in too few frames, placed by its whole disc
(`vision.disc_fit`): read only far from the frets, and never over clean readings."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from support.resting_ball import POCKET, WHEEL, clean, rest

from vision.ball import BallSighting
from vision.disc_fit import disc_column
from vision.locate import BallFix
from vision.observations import NoResult, NoResultReason, SpinResult
from vision.params import DetectorParams

PARAMS = DetectorParams()


def _by_disc(frame: int, ball: BallSighting) -> BallFix | None:
    """Edges clean in every tenth frame only; the whole disc placed in every frame."""
    if frame % 10 == 0:
        return clean(frame, ball)
    return BallFix(ball.theta, 0.3 * POCKET, None, True, by_disc=True)


def test_a_ball_placed_by_its_disc_deep_in_its_pocket_is_read() -> None:
    """0.4 of a pocket from the fret (0.1 from the middle: 86003's disc placements lay
    0.37 to 0.47 from it): read, where its clean edges alone were too few."""
    verdict, index = rest(PARAMS, 0.1, _by_disc)
    assert isinstance(verdict, SpinResult)
    assert verdict.number == WHEEL[index % 37]


@pytest.mark.parametrize("from_fret", [0.2, 0.25])
def test_a_ball_placed_by_its_disc_near_a_fret_is_not_read(from_fret: float) -> None:
    """Nearer a fret than the disc's margin (0.28 of a pocket), though clear of the
    ordinary one (0.15): a disc is pulled towards the ball's lit side, up to 0.13 of a
    pocket, so a ball on the fret could be placed there. Refused as the clean edges
    alone would have it: too few of them."""
    verdict, _ = rest(PARAMS, 0.5 - from_fret, _by_disc)
    assert isinstance(verdict, NoResult)
    assert verdict.reason is NoResultReason.BALL_LOST
    assert "edges clear in only" in verdict.detail


def test_clean_readings_by_a_fret_outweigh_a_disc_deep_in_the_pocket() -> None:
    """Where even one clean reading of the few puts the ball on a fret, the disc
    placements do not read it in the pocket beside it (one stray clean reading among
    several clean ones would not refuse it: `_near_fret`)."""

    def place(frame: int, ball: BallSighting) -> BallFix | None:
        if frame % 4 == 0:  # on the fret half a pocket over: its dim side covers it
            fret = (ball.theta + POCKET / 2) % (2 * math.pi)
            return BallFix(fret, 0.3 * POCKET, fret, True)
        return BallFix(ball.theta, 0.3 * POCKET, None, True, by_disc=True)

    verdict, _ = rest(PARAMS, 0.0, place)
    assert isinstance(verdict, NoResult)
    assert verdict.reason is NoResultReason.BALL_ON_FRET


def _ball(width: int, centre: float, lit: float) -> np.ndarray:
    """A patch with a disc-shaped ball of radius 12 columns and 8 rows on a dark floor,
    brighter on its lit side (`lit` of the way from its dim side's grey to white), a
    glow beside its lit side as bright as its dim side."""
    grey = np.full((41, width), 40.0, dtype=np.float32)
    yy, xx = np.mgrid[0:41, 0:width]
    inside = np.hypot((xx - centre) / 12.0, (yy - 20) / 8.0) <= 1.0
    shade = 140.0 + lit * 115.0 * np.clip((xx - centre) / 12.0, 0.0, 1.0)
    grey[inside] = shade[inside]
    grey[(xx > centre + 12) & (xx <= centre + 18) & (np.abs(yy - 20) <= 2)] = 140.0
    return cv2.GaussianBlur(grey, (5, 5), 1.0)


@pytest.mark.parametrize("lit", [0.0, 0.5])
def test_the_disc_lies_where_most_of_the_ball_is(lit: float) -> None:
    """Drawn at column 100: found within two columns (a sixth of its radius) of it,
    evenly lit or lit from one side, a glow beside it."""
    column = disc_column(_ball(240, 100.0, lit), 20.0, 8.0, 12.0)
    assert column is not None and abs(column - 100) <= 2


def test_no_disc_is_placed_in_a_patch_too_small_to_hold_it() -> None:
    assert disc_column(np.zeros((10, 240), dtype=np.float32), 5.0, 8.0, 12.0) is None
