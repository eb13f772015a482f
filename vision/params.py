"""The detector's knobs. Defaults are the studio rules; every one can be set per table."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DetectorParams:
    min_revolutions: float = 3.0  # fewer ball revolutions on the track void the spin
    rest_seconds: float = 0.25  # the ball must keep still relative to the rotor this long
    # ... or only this long when every reading agrees and it lies deep in its pocket,
    # at least `quick_rest_margin` of a pocket from either fret, and no higher than
    # `quick_rest_rho` above the lowest it has been on the rotor. Off by default (the
    # whole rest): at 0.12 s it read two of 30 seeds wrong across the renderer's looks
    # (docs/wheel.md, "The quick rest"), and a wrong number is worse than a late one.
    quick_rest_seconds: float = 0.25
    quick_rest_margin: float = 0.3
    quick_rest_rho: float = 0.035  # rotor radii above the lowest it has lain: in the air
    rest_tolerance_deg: float = 1.5  # how still is still: the spread of its angle on the rotor
    min_rest_coverage: float = 0.75  # fraction of the frames at rest in which it must be seen
    fret_margin: float = 0.15  # fraction of a pocket width next to a fret that counts as on it
    # ... for a ball placed by its whole disc (`vision.disc_fit`): the ordinary margin and
    # the most its lit side was seen to pull it (0.13 of a pocket, studio 86003).
    disc_fret_margin: float = 0.28
    max_estimate_gap: float = 0.3  # pockets between the two readings of the ball's pocket
    rival_contrast: float = 0.5  # another spot resting this bright (of the ball) makes it unsure
    # Ball and rotor turn the same way only when both have gone this far since the launch
    # (turns); with less, a spin that seems to is `direction_unclear` when the ball drops.
    direction_ball_turns: float = 1.0
    direction_rotor_turns: float = 0.15
    speed_report_seconds: float = 0.25  # how often the ball's speed on the track is reported
    speed_fit_seconds: float = 1.0  # the recent track its speed and deceleration are fitted on
    drop_revs_per_s: float = 0.7  # the speed at which the ball leaves this wheel's track
    lost_seconds: float = 1.5  # a ball unseen this long during a spin is lost
    max_bounce_seconds: float = 10.0  # a ball on the rotor not at rest this long is lost
    rearm_seconds: float = 0.8  # no ball on the track this long before the next launch counts
    calibration_seconds: float = 0.5  # video used to find the wheel when no file is given
    calibration_frames: int = 16
    dark_level: float = 18.0  # mean grey level under which the picture is too dark
    dark_seconds: float = 0.3
    frozen_seconds: float = 0.5
    no_frame_seconds: float = 1.0
    lost_wheel_seconds: float = 1.0  # the pocket pattern unseen this long: the wheel moved
    min_ring_score: float = 0.3
    # Grey levels by which the zero must be the greenest pocket, or (greener than any at
    # all) the least red one (`vision.ring.zero_margin`).
    min_zero_margin: float = 6.0
    min_local_score: float = 0.5
    angle_bins: int = 360
    radial_step: float = 0.02  # of the rotor's radius
    inner_rho: float = 0.5  # how far in (rotor radii) the ball is looked for: the pockets
    outer_rho: float = 1.8  # how far out from the rotor edge the ball is looked for
    background_seconds: float = 1.0
    # How long the rotor's picture remembers a glint: longer than a slow rotor's turn.
    rotor_memory_seconds: float = 8.0
