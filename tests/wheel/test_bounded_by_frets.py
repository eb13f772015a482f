"""A resting ball that a long shutter merged with both frets of its pocket is bounded by
them (`BallFix.spread`), not placed at one of them; a ball with one clean edge is read
only against a fret on its other side, and only near where it was sighted. Never a
number for a ball on a fret."""

from __future__ import annotations

import math

from support.resting_ball import DROP, POCKET, WHEEL, clean, rest
from support.spin_verdicts import first_verdict

from vision.ball import BallSighting
from vision.locate import BallFix
from vision.observations import NoResult, NoResultReason, SpinResult
from vision.params import DetectorParams
from vision.render import make_spin

PARAMS = DetectorParams()


def _bounded(ball: BallSighting) -> BallFix:
    """Between its pocket's frets, anywhere up to them: the ball's sighting is the
    pocket's middle in `rest`'s draws here, so the range is half a pocket either way."""
    return BallFix(ball.theta, 0.3 * POCKET, None, True, spread=POCKET / 2)


def test_a_bounded_ball_placed_deep_in_its_pocket_by_other_frames_is_read() -> None:
    """Bounded in every other frame, placed in the middle of its pocket in the others
    (motion_blur 88012 at rest: three placed 3.9 to 4.2 deg from a fret, two bounded).
    Taken as lying at a fret, the bounded frames refused it `ball_on_fret`."""

    def place(frame: int, ball: BallSighting) -> BallFix:
        return clean(frame, ball) if frame % 2 == 0 else _bounded(ball)

    verdict, index = rest(PARAMS, 0.0, place)
    assert isinstance(verdict, SpinResult)
    assert verdict.number == WHEEL[index % 37]


def test_a_ball_bounded_at_first_waits_for_frames_that_place_it() -> None:
    """Bounded in every frame of its first 0.4 s at rest, placed in the middle of its
    pocket after (motion_blur 89024, valid: bounded in four frames of five, refused
    `ball_on_fret` at once, 1 frame before its rest): frames that bound it refuse it
    only once 1 s of rest has not placed it twice."""

    def place(frame: int, ball: BallSighting) -> BallFix:
        return _bounded(ball) if frame < DROP + 12 else clean(frame, ball)

    verdict, index = rest(PARAMS, 0.0, place)
    assert isinstance(verdict, SpinResult)
    assert verdict.number == WHEEL[index % 37]


def test_a_ball_only_ever_bounded_up_to_its_frets_is_not_read() -> None:
    """Where no frame places it in 1 s at rest, it may lie on a fret for all the
    readings say."""
    verdict, _ = rest(PARAMS, 0.0, lambda _, ball: _bounded(ball))
    assert isinstance(verdict, NoResult)
    assert verdict.reason is NoResultReason.BALL_ON_FRET


def test_frames_that_bound_a_ball_do_not_lift_it_off_the_fret_others_place_it_on() -> None:
    """Placed on the fret in every third frame, bounded in the others: refused."""

    def place(frame: int, ball: BallSighting) -> BallFix:
        if frame % 3 == 0:
            fret = (ball.theta + POCKET / 2) % (2 * math.pi)
            return BallFix(fret, 0.3 * POCKET, fret, True)
        return _bounded(ball)

    verdict, _ = rest(PARAMS, 0.0, place)
    assert isinstance(verdict, NoResult)
    assert verdict.reason is NoResultReason.BALL_ON_FRET


def test_a_long_shutter_ball_in_the_middle_of_its_pocket_is_read() -> None:
    """Seed 88012 in `motion_blur` (640x480, 30 fps), never run before the benchmark drew
    it: the ball rests in 21, 0.09 pocket from its middle. In two frames of five its
    smear ran into both frets, smeared too, and it was placed at the end of where it
    could lie nearer a fret (0.8 deg from it): refused `ball_on_fret`."""
    verdict = first_verdict(
        make_spin(88012, resolution=(640, 480), fps=30.0, look_name="motion_blur")
    )
    assert isinstance(verdict, SpinResult)
    assert verdict.number == 21


def test_a_ball_merged_with_a_light_floor_past_a_fret_is_not_read_from_its_far_edge() -> None:
    """Seed 87020 in `studio` (960x540, 25 fps), never run before the benchmark drew it:
    the ball rests in 30, 0.03 pocket from its middle, the floor lit past the next fret.
    In two frames of four the ball and that floor made one bright run, from beyond one
    fret's outer edge to beyond the next pocket; the run's one clean edge, the fret's,
    put the ball a radius in from it, 3 deg off and 1.2 deg from a fret: refused
    `ball_on_fret`."""
    verdict = first_verdict(make_spin(87020, resolution=(960, 540), fps=25.0, look_name="studio"))
    assert isinstance(verdict, SpinResult)
    assert verdict.number == 30


def test_a_long_shutter_ball_bounded_in_most_frames_at_first_is_read() -> None:
    """Seed 89024 in `motion_blur` (640x480, 30 fps), never run before the benchmark drew
    it: the ball rests in the middle of 29, bounded by its smeared frets in four of the
    first five frames at rest and placed in one: refused `ball_on_fret`, a frame before
    its rest."""
    verdict = first_verdict(
        make_spin(89024, resolution=(640, 480), fps=30.0, look_name="motion_blur")
    )
    assert isinstance(verdict, SpinResult)
    assert verdict.number == 29


def test_a_long_shutter_ball_is_not_read_a_radius_in_from_its_smears_end() -> None:
    """Seed 92001 in `motion_blur` (640x480, 25 fps), never run before the benchmark drew
    it: the ball rests in 36, within 0.02 pocket of its middle, smeared past both frets of
    its pocket. The end of the smear beyond one fret passed for the ball's one clean
    edge, the fret by the other end for a wall: a radius in from that edge put the ball
    3.2 to 3.6 deg from its sighting and 0.5 deg from a fret, refused `ball_on_fret`."""
    verdict = first_verdict(
        make_spin(92001, resolution=(640, 480), fps=25.0, look_name="motion_blur")
    )
    assert isinstance(verdict, SpinResult)
    assert verdict.number == 36


def test_a_studio_ball_is_not_read_a_radius_in_from_an_edge_that_is_not_its_own() -> None:
    """Seed 92020 in `studio` (960x540, 30 fps), never run before the benchmark drew it:
    the ball rests in 25, 0.03 pocket from its middle. In three frames of five a radius
    in from its one clean edge lay 3.8 to 4.1 deg from its sighting and 1.3 deg from a fret:
    refused `ball_on_fret`."""
    verdict = first_verdict(make_spin(92020, resolution=(960, 540), fps=30.0, look_name="studio"))
    assert isinstance(verdict, SpinResult)
    assert verdict.number == 25
