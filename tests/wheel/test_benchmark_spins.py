"""Spins of the accuracy benchmark (benchmarks/wheel_accuracy.py) that a detector once
read wrong, rendered again exactly as the benchmark drew them: never a wrong number."""

from __future__ import annotations

from vision.detector import WheelDetector
from vision.observations import NoResult, SpinResult
from vision.render import make_spin


def _first_verdict(
    seed: int, look: str, size: tuple[int, int], fps: float
) -> SpinResult | NoResult:
    spin = make_spin(seed, resolution=size, fps=fps, look_name=look)
    detector = WheelDetector()
    for _, t, frame in spin.frames():
        verdicts = [o for o in detector.feed(frame, t) if isinstance(o, SpinResult | NoResult)]
        if verdicts:
            return verdicts[0]
    raise AssertionError("no verdict")


def test_a_long_shutter_ball_on_a_fret_is_refused_not_read_in_the_next_pocket() -> None:
    """Seed 60023 in `motion_blur` (640x480, 25 fps, exposure 0.43 of the frame): the
    ball rests on the fret between 36 and 11, 0.02 pocket on the side of 11. The
    smeared ball's edge beyond the fret was taken for the fret, and its centre put a
    radius in from its smeared other edge: 11, confidence 0.44."""
    verdict = _first_verdict(60023, "motion_blur", (640, 480), 25.0)
    assert isinstance(verdict, NoResult)
    assert verdict.reason.value == "ball_on_fret"
