"""Spins of the accuracy benchmark (benchmarks/wheel_accuracy.py) that a detector once
read wrong or refused though valid, rendered again exactly as the benchmark drew them:
never a wrong number, and a valid spin read."""

from __future__ import annotations

from support.spin_verdicts import first_verdict

from vision.observations import NoResult, SpinResult
from vision.render import make_spin


def test_a_long_shutter_ball_on_a_fret_is_refused_not_read_in_the_next_pocket() -> None:
    """Seed 60023 in `motion_blur` (640x480, 25 fps, exposure 0.43 of the frame): the
    ball rests on the fret between 36 and 11, 0.02 pocket on the side of 11. The
    smeared ball's edge beyond the fret was taken for the fret, and its centre put a
    radius in from its smeared other edge: 11, confidence 0.44."""
    verdict = first_verdict(
        make_spin(60023, resolution=(640, 480), fps=25.0, look_name="motion_blur")
    )
    assert isinstance(verdict, NoResult)
    assert verdict.reason.value == "ball_on_fret"


def test_a_long_shutter_ball_smeared_into_both_frets_of_its_pocket_is_read() -> None:
    """Seed 60019 in `motion_blur` (640x480, 25 fps, exposure 0.46 of the frame): the
    ball rests in 10, its smear with the rotor's running into both frets of the pocket,
    themselves smeared wider than a fret can be. No edge of the ball was clean in any
    frame at rest: refused `ball_lost`."""
    verdict = first_verdict(
        make_spin(60019, resolution=(640, 480), fps=25.0, look_name="motion_blur")
    )
    assert isinstance(verdict, SpinResult)
    assert verdict.number == 10
