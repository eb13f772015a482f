"""A launch found late is followed back through the ball's earlier spots: across a gap
only to a run of spots that goes round as the ball did, counting the fewest turns,
never more than it made."""

from __future__ import annotations

import math

from vision.spin import _seen_before, _TrackPoint

FPS = 25.0
TRACK = 1.3  # rotor radii
# The ball after its release: 2.0 rev/s slowing by 0.4 rev/s^2, counterclockwise.
SPEED, DECEL = 2.0, 0.4


def _turns(t: float) -> float:
    """Turns gone since its release, at `t` seconds."""
    return SPEED * t - DECEL * t * t / 2


def _spot(frame: int) -> _TrackPoint:
    t = frame / FPS
    theta = (-2 * math.pi * _turns(t)) % (2 * math.pi)
    return _TrackPoint(t, theta, TRACK, None, 0.0, t - 1 / FPS)


def _launch(first: int) -> list[_TrackPoint]:
    return [_spot(first + k) for k in range(6)]


def _gone(since: int, until: int) -> float:
    return 2 * math.pi * (_turns(until / FPS) - _turns(since / FPS))


def test_a_gap_before_the_launch_is_crossed_to_a_run_that_goes_round() -> None:
    """Seen in frames 10 to 13, unseen for 0.48 s, found by six frames from 26 on.
    Going 1.55 rev/s and more in the 0.52 s from its last spot to the launch's first,
    it went 0.8 turns and more, not 1.8: the fewest turns the speeds allow (0.88) is
    what it went."""
    back = _seen_before([_spot(f) for f in range(10, 14)], _launch(26))
    assert math.isclose(-back, _gone(10, 26), abs_tol=1e-6)


def test_spots_that_stay_put_before_a_gap_are_not_crossed_to() -> None:
    """A hand holding still where the ball was released, then 0.48 s unseen: the hand
    goes nowhere, and nothing before the gap counts."""
    still = [_TrackPoint(f / FPS, 1.0, TRACK, None, 0.0, (f - 1) / FPS) for f in range(10, 14)]
    assert _seen_before(still, _launch(26)) == 0.0


def test_a_run_slower_than_the_ball_after_the_gap_is_not_the_ball() -> None:
    """It only slows down: spots going round at half its speed after the gap, before it,
    are something else."""
    slow = [
        _TrackPoint(f / FPS, (-math.pi * f / FPS) % (2 * math.pi), TRACK, None, 0.0, 0.0)
        for f in range(10, 14)
    ]
    assert _seen_before(slow, _launch(26)) == 0.0


def test_two_spots_before_a_gap_are_not_a_run() -> None:
    """A run is three spots at least (`_LAUNCH_SIGHTINGS`), as after a gap on the track."""
    assert _seen_before([_spot(12), _spot(13)], _launch(26)) == 0.0


def test_a_run_before_a_gap_that_does_not_keep_to_one_track_is_not_the_ball() -> None:
    """Spots that go round as the ball did, but 0.12 rotor radii apart across the track
    (each within `_LAUNCH_RHO_SPREAD` of the launch's): a ball keeps to its track, as a
    launch's sightings must (`_launches`), so nothing before the gap counts (shake 97037:
    noise at 1.33, 1.33 and 1.44 before the release, bridged to from a launch at 1.39,
    counted 6.01 of 4.19 turns)."""
    wide = [
        _TrackPoint(p.t, p.theta, TRACK + (0.06 if f % 2 else -0.06), None, 0.0, p.before)
        for f, p in ((f, _spot(f)) for f in range(10, 14))
    ]
    assert _seen_before(wide, _launch(26)) == 0.0


def test_a_spot_seen_again_at_its_place_at_once_is_not_the_ball() -> None:
    """A mark at one place in frames 20 and 22, 0.08 s apart, where the ball's course
    puts it in frame 22: no ball goes round in 0.08 s (`_MAX_TRACK_RPS`), so something
    held still there, and nothing before the launch counts (shake 96045: bowl marks the
    camera's shake lit up before the release, followed back 0.80 turns)."""
    mark = _spot(22)
    still = [_TrackPoint(f / FPS, mark.theta, TRACK, None, 0.0, (f - 1) / FPS) for f in (20, 22)]
    assert _seen_before(still, _launch(26)) == 0.0
