"""A ball that fades over a chrome bowl as it slows, unseen until it shows on the rotor,
is followed into its pocket: it shows where its course on the track puts it."""

from __future__ import annotations

import pytest
from support.spin_verdicts import first_verdict

from vision.observations import SpinResult
from vision.render import make_spin


@pytest.mark.parametrize(
    ("seed", "fps", "number"),
    [
        (87012, 25.0, 19),  # unseen 0.32 s
        (87015, 25.0, 12),  # unseen 0.56 s, two faint spots on its way down
        (87027, 50.0, 17),
        (88032, 25.0, 33),
    ],
)
def test_a_ball_unseen_over_a_chrome_bowl_before_it_drops_is_read(
    seed: int, fps: float, number: int
) -> None:
    """Seeds in `chrome` (640x480), never run before the benchmark drew them: a drop was
    taken only within 0.3 s of the last sighting on the track, and the ball, then seen
    on the rotor alone, was followed by nothing: refused `ball_lost`, "ball unseen for
    1.5 s"."""
    verdict = first_verdict(make_spin(seed, resolution=(640, 480), fps=fps, look_name="chrome"))
    assert isinstance(verdict, SpinResult)
    assert verdict.number == number
