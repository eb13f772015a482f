"""What the detector reports: spin results, no-results, alarms, phase changes, the ball's
speed on the track, per-frame tracking.

`as_json` gives the JSON-lines contract documented in docs/wheel.md (schema 1).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

SCHEMA = 1


class Phase(StrEnum):
    IDLE = "idle"
    LAUNCHED = "launched"
    ON_TRACK = "on_track"
    BOUNCING = "bouncing"
    AT_REST = "at_rest"
    RESULT = "result"
    VOID = "void"


class NoResultReason(StrEnum):
    TOO_FEW_REVOLUTIONS = "too_few_revolutions"
    BALL_SAME_DIRECTION_AS_ROTOR = "ball_same_direction_as_rotor"
    # Ball and rotor seemed to turn the same way, on too little of their motion to say so.
    DIRECTION_UNCLEAR = "direction_unclear"
    BALL_LEFT_WHEEL = "ball_left_wheel"
    BALL_LOST = "ball_lost"
    BALL_ON_FRET = "ball_on_fret"
    ROTOR_NOT_TRACKED = "rotor_not_tracked"
    CAMERA_FAULT = "camera_fault"


class AlarmKind(StrEnum):
    NO_FRAMES = "no_frames"
    FROZEN_FRAMES = "frozen_frames"
    TOO_DARK = "too_dark"
    WHEEL_NOT_FOUND = "wheel_not_found"
    WHEEL_MOVED = "wheel_moved"
    BAD_FRAME = "bad_frame"


@dataclass(frozen=True)
class SpinFacts:
    """What was measured of a spin, whether or not it gave a number."""

    spin: int
    ball_direction: str | None  # "clockwise" | "counterclockwise", seen from above
    rotor_direction: str | None
    ball_revolutions: float
    rotor_rpm: float
    # The rotor's pocket under the ball when it left the croupier's hand (docs/wheel.md,
    # "The release"); None when the rotor was not followed then.
    release_pocket: int | None
    rest_frame: int | None
    rest_time: float | None
    declared_frame: int
    declared_time: float


@dataclass(frozen=True)
class SpinResult:
    facts: SpinFacts
    number: int
    colour: str
    confidence: float
    # Pockets from the release pocket to the winning one, counted the way the rotor
    # turns (0-36); None without a release pocket or a rotor direction.
    landing_distance: int | None


@dataclass(frozen=True)
class NoResult:
    facts: SpinFacts
    reason: NoResultReason
    detail: str


@dataclass(frozen=True)
class Alarm:
    kind: AlarmKind
    active: bool  # False when the condition has cleared
    detail: str
    frame: int
    time: float


@dataclass(frozen=True)
class PhaseChange:
    spin: int
    phase: Phase
    frame: int
    time: float


@dataclass(frozen=True)
class BallSpeed:
    """The ball's speed on the track, reported a few times a second while it goes round."""

    spin: int
    frame: int
    time: float
    revs_per_s: float  # against the bowl, always positive
    # Seconds until the ball is expected to leave the track (docs/wheel.md, "The ball's
    # speed"); None while its deceleration is not known yet (or it is not slowing down).
    expected_drop_in_s: float | None


@dataclass(frozen=True)
class FrameTrack:
    """The state after one frame, for the console and for debugging."""

    frame: int
    time: float
    phase: Phase
    rotor_angle_deg: float | None  # wheel angle of the zero pocket
    rotor_rpm: float
    rotor_direction: str | None
    ball_angle_deg: float | None
    ball_rho: float | None  # distance from the centre, in rotor radii
    ball_relative_rps: float | None  # ball speed relative to the rotor
    ball_revolutions: float


Observation = SpinResult | NoResult | Alarm | PhaseChange | BallSpeed


def as_json(obs: Observation) -> dict[str, Any]:
    if isinstance(obs, SpinResult):
        return _line(
            "result",
            **asdict(obs.facts),
            number=obs.number,
            colour=obs.colour,
            confidence=round(obs.confidence, 3),
            landing_distance=obs.landing_distance,
        )
    if isinstance(obs, NoResult):
        return _line("no_result", **asdict(obs.facts), reason=obs.reason.value, detail=obs.detail)
    if isinstance(obs, Alarm):
        return _line(
            "alarm",
            alarm=obs.kind.value,
            active=obs.active,
            detail=obs.detail,
            frame=obs.frame,
            time=round(obs.time, 4),
        )
    if isinstance(obs, BallSpeed):
        drop = obs.expected_drop_in_s
        return _line(
            "ball_speed",
            spin=obs.spin,
            frame=obs.frame,
            time=round(obs.time, 4),
            revs_per_s=round(obs.revs_per_s, 3),
            expected_drop_in_s=round(drop, 2) if drop is not None else None,
        )
    return _line(
        "phase", spin=obs.spin, phase=obs.phase.value, frame=obs.frame, time=round(obs.time, 4)
    )


def _line(kind: str, **fields: Any) -> dict[str, Any]:
    """Every line of the contract starts with its type and the schema's version."""
    return {"type": kind, "schema": SCHEMA, **fields}
