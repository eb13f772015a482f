"""Spins of the accuracy benchmark (benchmarks/wheel_accuracy.py) that a detector once
read wrong, rendered again exactly as the benchmark drew them: never a wrong number."""

from __future__ import annotations

from support.spin_verdicts import first_verdict

from vision.observations import NoResult
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
