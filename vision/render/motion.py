"""Where the rotor and the ball are at any instant of a spin, and the truth that follows from it.

Angles are radians in the wheel plane, growing clockwise seen from above. A pocket's
rotor-frame angle is its index in the pocket order times one pocket width, so the green
zero sits at rotor angle 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import StrEnum

import numpy as np

from vision.pockets import POCKET_COUNT, POCKET_ORDER

POCKET = 2 * math.pi / POCKET_COUNT


class Scenario(StrEnum):
    VALID = "valid"
    FEW_REVOLUTIONS = "few_revolutions"
    SAME_DIRECTION = "same_direction"
    BALL_LEFT_WHEEL = "ball_left_wheel"
    BALL_ON_FRET = "ball_on_fret"


@dataclass(frozen=True)
class BallState:
    angle: float  # bowl frame
    radius: float  # fraction of the bowl radius
    height: float  # 0 on the wheel; a bouncing ball looks slightly larger
    visible: bool


@dataclass(frozen=True)
class Hop:
    start: float
    duration: float
    phi_from: float  # rotor-frame angle
    phi_to: float


@dataclass(frozen=True)
class SpinMotion:
    scenario: Scenario
    rotor_phase0: float
    rotor_dir: int  # +1 clockwise
    rotor_rps: float
    rotor_decel: float  # rev/s^2
    ball_dir: int
    launch_time: float
    launch_angle: float
    ball_rps0: float
    ball_decel: float
    drop_rps: float
    track_radius: float
    pocket_radius: float
    fall_duration: float
    hops: tuple[Hop, ...]
    settle_duration: float
    rest_time: float  # inf when the ball never comes to rest
    leave_time: float  # inf unless the ball flies off the wheel
    duration: float

    @property
    def drop_time(self) -> float:
        return self.launch_time + (self.ball_rps0 - self.drop_rps) / self.ball_decel

    @property
    def track_revolutions(self) -> float:
        """Ball revolutions in the bowl between launch and drop (or leaving the wheel)."""
        return self.track_turns(self.drop_time)

    @property
    def final_phi(self) -> float:
        return self.hops[-1].phi_to

    @property
    def winning_number(self) -> int | None:
        if self.scenario in (Scenario.VALID,):
            return _pocket_at(self.final_phi)
        return None

    @property
    def release_pocket(self) -> int:
        """The rotor's pocket under the ball at its launch, when it left the hand."""
        return _pocket_at(self.launch_angle - self.rotor_angle(self.launch_time))

    @property
    def landing_distance(self) -> int | None:
        """Pockets from the release pocket to the winning one, the way the rotor turns."""
        if self.winning_number is None:
            return None
        release = round((self.launch_angle - self.rotor_angle(self.launch_time)) / POCKET)
        return (round(self.final_phi / POCKET) - release) * self.rotor_dir % POCKET_COUNT

    def track_rps(self, t: float) -> float | None:
        """The ball's speed on the track at `t` (rev/s), None when it is not on the track."""
        if not self.launch_time <= t < min(self.drop_time, self.leave_time):
            return None
        return self.ball_rps0 - self.ball_decel * (t - self.launch_time)

    def time_at_rps(self, rps: float) -> float | None:
        """When the ball on the track slows down to `rps`, None when it leaves the track
        first (or was never that fast)."""
        t = self.launch_time + (self.ball_rps0 - rps) / self.ball_decel
        return t if self.track_rps(t) is not None else None

    def track_turns(self, t: float) -> float:
        """Ball revolutions on the track from the launch to `t` (clamped to the track)."""
        end = min(self.drop_time, self.leave_time)
        tau = min(max(t, self.launch_time), end) - self.launch_time
        return self.ball_rps0 * tau - self.ball_decel * tau * tau / 2

    def rotor_angle(self, t: float) -> float:
        # Friction slows the rotor down to a stop, never through it to turn back.
        t = min(t, self.rotor_rps / self.rotor_decel)
        turns = self.rotor_rps * t - self.rotor_decel * t * t / 2
        return self.rotor_phase0 + self.rotor_dir * 2 * math.pi * turns

    def _track_angle(self, tau: float) -> float:
        turns = self.ball_rps0 * tau - self.ball_decel * tau * tau / 2
        return self.launch_angle + self.ball_dir * 2 * math.pi * turns

    def _fall_angle(self, since_drop: float) -> float:
        u = since_drop / self.fall_duration
        turns = self.drop_rps * self.fall_duration * (u - u * u / 4)
        return (
            self._track_angle(self.drop_time - self.launch_time)
            + self.ball_dir * 2 * math.pi * turns
        )

    def ball(self, t: float) -> BallState:
        if t < self.launch_time:
            return BallState(0.0, 0.0, 0.0, False)
        tau = t - self.launch_time
        drop = self.drop_time
        if t >= self.leave_time:
            out = t - self.leave_time
            angle = self._track_angle(self.leave_time - self.launch_time)
            radius = self.track_radius + 1.6 * out
            return BallState(angle, radius, 0.3 * out, radius < 1.6)
        if t < drop:
            # The ball creeps down the track wall as it loses speed.
            slow = 1 - (self.ball_rps0 - self.ball_decel * tau) / self.ball_rps0
            return BallState(self._track_angle(tau), self.track_radius - 0.02 * slow**3, 0.0, True)
        first = self.hops[0]
        if t < first.start:
            # Falling across the deflectors onto the rotor: spiral in, slowing down.
            u = (t - drop) / self.fall_duration
            angle = self._fall_angle(t - drop)
            radius = self.track_radius + (self.pocket_radius - self.track_radius) * (
                3 * u * u - 2 * u**3
            )
            return BallState(angle, radius, 0.0, True)
        for hop in self.hops:
            if t < hop.start + hop.duration:
                u = max(0.0, (t - hop.start) / hop.duration)
                phi = hop.phi_from + (hop.phi_to - hop.phi_from) * u
                height = 4 * u * (1 - u) * min(1.0, hop.duration / 0.3)
                return BallState(
                    self.rotor_angle(t) + phi, self.pocket_radius + 0.05 * height, height, True
                )
        last = self.hops[-1]
        settle_start = last.start + last.duration
        if t < self.rest_time:
            # A last roll inside the pocket, damped to rest.
            u = (t - settle_start) / self.settle_duration
            phi = last.phi_to + math.radians(2.0) * (1 - u) ** 2 * math.cos(3 * math.pi * u)
            return BallState(self.rotor_angle(t) + phi, self.pocket_radius, 0.0, True)
        return BallState(self.rotor_angle(t) + last.phi_to, self.pocket_radius, 0.0, True)


def _pocket_at(phi: float) -> int:
    """The number of the pocket at rotor-frame angle ``phi``."""
    return POCKET_ORDER[round(phi / POCKET) % POCKET_COUNT]


def random_motion(
    rng: np.random.Generator,
    scenario: Scenario,
    *,
    rotor_radius: float,
    track_inner: float,
    pocket_inner: float,
    number_ring: float,
    ball_radius: float,
    fret_width: float,
    tail: float = 1.2,
    rotor_rpm: float | None = None,
    dead_stop: bool = False,
) -> SpinMotion:
    """A spin drawn from `rng`; `rotor_rpm` sets the rotor's speed instead of the
    drawn one, and `dead_stop` stops the ball at the end of its last hop, without the
    last roll in its pocket (the spin is otherwise the same, draw for draw)."""
    rotor_dir = int(rng.choice([-1, 1]))
    ball_dir = rotor_dir if scenario is Scenario.SAME_DIRECTION else -rotor_dir
    rotor_rps = float(rng.uniform(18, 35)) / 60
    if rotor_rpm is not None:
        rotor_rps = rotor_rpm / 60
    launch_time = float(rng.uniform(0.7, 1.2))
    ball_rps0 = float(rng.uniform(1.8, 2.6))
    drop_rps = float(rng.uniform(0.55, 0.8))
    if scenario is Scenario.FEW_REVOLUTIONS:
        revolutions = float(rng.uniform(1.2, 2.4))
    else:
        revolutions = float(rng.uniform(3.6, 7.0))
    track_time = 2 * revolutions / (ball_rps0 + drop_rps)
    ball_decel = (ball_rps0 - drop_rps) / track_time
    track_radius = float(rng.uniform(track_inner + 0.035, 0.93))
    pocket_radius = rotor_radius * (pocket_inner + (number_ring - pocket_inner) * 0.45)
    fall_duration = float(rng.uniform(0.3, 0.55))
    drop_time = launch_time + track_time
    leave_time = math.inf
    if scenario is Scenario.BALL_LEFT_WHEEL:
        leave_time = launch_time + float(rng.uniform(0.4, 0.9)) * track_time
    # Hops in the rotor frame: the ball keeps some of its speed relative to the rotor.
    start = drop_time + fall_duration
    rotor_phase0 = float(rng.uniform(0, 2 * math.pi))
    # The spin up to the fall; its hops, rest and length follow from where it falls.
    partial = SpinMotion(
        scenario,
        rotor_phase0,
        rotor_dir,
        rotor_rps,
        0.01,
        ball_dir,
        launch_time,
        float(rng.uniform(0, 2 * math.pi)),
        ball_rps0,
        ball_decel,
        drop_rps,
        track_radius,
        pocket_radius,
        fall_duration,
        (),
        0.0,
        math.inf,
        leave_time,
        0.0,
    )
    phi = partial._fall_angle(fall_duration) - partial.rotor_angle(start)
    hops: list[Hop] = []
    count = int(rng.integers(2, 6))
    for i in range(count):
        duration = float(rng.uniform(0.12, 0.35)) * (1 - 0.12 * i)
        jump = math.radians(float(rng.uniform(8, 80)) / (1 + i)) * ball_dir
        if rng.random() < 0.25:
            jump = -jump
        hops.append(Hop(start, duration, phi, phi + jump))
        phi += jump
        start += duration
    # The last hop lands the ball in (or, for a fret, between) pockets.
    nearest = round(hops[-1].phi_to / POCKET)
    if scenario is Scenario.BALL_ON_FRET:
        target = (nearest + 0.5) * POCKET + math.radians(float(rng.uniform(-0.3, 0.3)))
    else:
        # A ball in a pocket lies between its frets, at most touching one: drawn across
        # a fret it would be on it. Where the draw puts it further over, it touches.
        room = POCKET / 2 - math.radians(fret_width) / 2 - ball_radius / pocket_radius
        off = float(rng.uniform(-0.22, 0.22)) * POCKET
        target = nearest * POCKET + max(-room, min(room, off))
    last = hops[-1]
    hops[-1] = Hop(last.start, last.duration, last.phi_from, target)
    settle = 0.0 if dead_stop else float(rng.uniform(0.15, 0.35))
    rest_time = start + settle
    duration = leave_time + 2.0 if scenario is Scenario.BALL_LEFT_WHEEL else rest_time + tail
    return replace(
        partial,
        hops=tuple(hops),
        settle_duration=settle,
        rest_time=rest_time if scenario is not Scenario.BALL_LEFT_WHEEL else math.inf,
        duration=duration,
    )
